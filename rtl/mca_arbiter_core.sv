// T3 MCA arbiter core (T3 §4.5; the T3-MCA configuration of §6.1.3): in front of
// the DRAM command queue, picks each cycle between the compute stream (the
// producer kernel's accesses) and the communication stream (DMA/collective
// accesses). MCA: compute first; communication only while the queue's
// occupancy is below a threshold picked from the occupancy seen while the
// producer ran alone; communication first once it has waited a starvation
// limit, and while the stream is drained at a kernel boundary. The paper's
// baselines, round robin with fall-back and compute first, are policies too.
//
// The output is a one-deep register: out_valid_o/out_data_o/out_src_o come
// from flops and hold while out_ready_i is low. The slot is free when it is
// empty or its request leaves in this cycle; in a free slot the winner is
// loaded and its ready asserted in that cycle.
//
// The block firmware programs, rtl/mca_arbiter.sv, is this core behind its
// register block. The C++ cycle model hw/mca_arbiter/mca_arbiter_core.{h,cpp}
// implements exactly this behaviour; testbench/mca_arbiter compares the two
// (inside their blocks) every cycle.
//
// Parameters: the list is hw/mca_arbiter/mca_arbiter.yaml (defaults and
// ranges there); the ranges are checked here at elaboration, and
// scripts/check_params.py holds the block, rtl/mca_arbiter.sv, to the list.
module mca_arbiter_core #(
  parameter int unsigned DATA_W  = 64,  // 1..64; request payload
  parameter int unsigned OCC_W   = 6,   // 1..16; occupancy, thresholds, bounds, learned average
  parameter int unsigned CNT_W   = 16,  // 1..32; starvation limit and wait counter
  parameter int unsigned LEARN_W = 12,  // 0..24; largest log2 of the learning window
  parameter int unsigned STAT_W  = 32,  // 1..32; status counters, wrapping
  localparam int unsigned LOG2_W = (LEARN_W == 0) ? 1 : $clog2(LEARN_W + 1)  // cfg_learn_log2_i
) (
  input  logic              clk_i,
  input  logic              rst_ni,

  // Configuration (the registers, docs/registers/mca_arbiter.md).
  input  logic [1:0]        cfg_policy_i,       // 0 round robin, 1 compute first, 2 MCA; 3 refused
  input  logic              cfg_thr_auto_i,     // level from the learned occupancy
  input  logic [1:0]        cfg_thr_sel_i,      // fixed level; auto: the level until a window completes
  input  logic [OCC_W-1:0]  cfg_thr_level0_i,   // the three finite thresholds, each >= 1
  input  logic [OCC_W-1:0]  cfg_thr_level1_i,
  input  logic [OCC_W-1:0]  cfg_thr_level2_i,
  input  logic [OCC_W-1:0]  cfg_auto_bound0_i,  // average >= bound0 -> level 0, ... (descending)
  input  logic [OCC_W-1:0]  cfg_auto_bound1_i,
  input  logic [OCC_W-1:0]  cfg_auto_bound2_i,
  input  logic [LOG2_W-1:0] cfg_learn_log2_i,   // window of 2^log2 cycles, log2 <= LEARN_W
  input  logic [CNT_W-1:0]  cfg_starve_limit_i, // MCA: communication first after this wait; 0 off
  output logic              cfg_error_o,        // refused: round robin runs instead
  output logic              starved_o,          // communication granted by the starvation limit

  // Compute stream (the producer kernel's accesses).
  input  logic              cmp_valid_i,
  output logic              cmp_ready_o,
  input  logic [DATA_W-1:0] cmp_data_i,
  // Communication stream (DMA / collective accesses).
  input  logic              com_valid_i,
  output logic              com_ready_o,
  input  logic [DATA_W-1:0] com_data_i,
  // Towards the DRAM command queue.
  output logic              out_valid_o,
  input  logic              out_ready_i,
  output logic [DATA_W-1:0] out_data_o,
  output logic              out_src_o,          // 0 compute, 1 communication
  input  logic [OCC_W-1:0]  occupancy_i,        // the queue's occupancy in this cycle

  input  logic              learn_i,            // start a learning window (ignored while one runs)
  input  logic              drain_i,            // kernel boundary: communication first

  // Status.
  output logic              learn_busy_o,       // a window is running (high in its cycles)
  output logic [OCC_W-1:0]  learn_avg_o,        // the last window's average occupancy
  output logic [1:0]        thr_sel_o,          // the level in force (3: no limit)
  output logic [OCC_W-1:0]  thr_o,              // its threshold; all ones when no limit
  output logic [STAT_W-1:0] stat_grants_cmp_o,  // compute requests granted
  output logic [STAT_W-1:0] stat_grants_com_o,  // communication requests granted
  output logic [STAT_W-1:0] stat_wait_cmp_o,    // cycles compute was valid and not granted
  output logic [STAT_W-1:0] stat_wait_com_o,    // cycles communication was valid and not granted
  output logic [STAT_W-1:0] stat_starved_o      // communication grants decided by the starvation limit
);

  localparam int unsigned SUM_W  = OCC_W + LEARN_W;               // 2^LEARN_W samples of OCC_W bits
  localparam int unsigned LEFT_W = (LEARN_W == 0) ? 1 : LEARN_W;  // window cycles left after this

  localparam logic [1:0] P_RR  = 2'd0;
  localparam logic [1:0] P_CF  = 2'd1;
  localparam logic [1:0] UNLIMITED = 2'd3;

  // ------------------------------------------------- parameter ranges (elaboration)
  if (DATA_W < 1 || DATA_W > 64) begin : g_bad_data_w
    $error("DATA_W = %0d is out of range; allowed: 1..64", DATA_W);
  end
  if (OCC_W < 1 || OCC_W > 16) begin : g_bad_occ_w
    $error("OCC_W = %0d is out of range; allowed: 1..16", OCC_W);
  end
  if (CNT_W < 1 || CNT_W > 32) begin : g_bad_cnt_w
    $error("CNT_W = %0d is out of range; allowed: 1..32", CNT_W);
  end
  if (LEARN_W > 24) begin : g_bad_learn_w
    $error("LEARN_W = %0d is out of range; allowed: 0..24", LEARN_W);
  end
  if (STAT_W < 1 || STAT_W > 32) begin : g_bad_stat_w
    $error("STAT_W = %0d is out of range; allowed: 1..32", STAT_W);
  end

  // ---------------------------------------------------------------- state
  logic              out_valid_q, out_src_q;
  logic [DATA_W-1:0] out_data_q;
  logic              turn_com_q;  // round robin: the last grant was compute's
  logic [CNT_W-1:0]  com_wait_q;  // communication's valid-not-granted cycles since its last grant
  logic              busy_q, learned_q;
  logic [LOG2_W-1:0] win_log2_q;
  logic [LEFT_W-1:0] win_left_q;
  logic [SUM_W-1:0]  win_sum_q;
  logic [OCC_W-1:0]  avg_q;
  logic [STAT_W-1:0] grants_cmp_q, grants_com_q, wait_cmp_q, wait_com_q, starved_q;

  // ---------------------------------------------------------- configuration
  // The rule of McaArbiterConfig::fault() in hw/mca_arbiter/mca_arbiter_core.cpp.
  // When LEARN_W + 1 is a power of two every value of the pin is allowed
  // (and Verilator's lint would call the compare constant).
  logic log2_too_big;
  if (((64'd1 << LOG2_W) - 64'd1) > 64'(LEARN_W)) begin : g_log2_check
    assign log2_too_big = 32'(cfg_learn_log2_i) > LEARN_W;
  end else begin : g_log2_fits
    assign log2_too_big = 1'b0;
  end

  logic [1:0] policy;
  always_comb begin
    cfg_error_o = cfg_policy_i == 2'd3 ||
                  cfg_thr_level0_i == '0 || cfg_thr_level1_i == '0 || cfg_thr_level2_i == '0 ||
                  (cfg_thr_auto_i && (cfg_auto_bound0_i < cfg_auto_bound1_i ||
                                      cfg_auto_bound1_i < cfg_auto_bound2_i)) ||
                  log2_too_big;
    // Never half-applied: a refused configuration runs the paper's baseline.
    policy = cfg_error_o ? P_RR : cfg_policy_i;
  end

  // ---------------------------------------------------------- level in force
  logic [1:0] learned_sel, sel;
  logic       lt0, lt1, lt2, under_thr;
  always_comb begin
    // The isolated producer's average occupancy picks the level (T3 §4.5):
    // the more memory-intensive, the smaller the threshold.
    if (avg_q >= cfg_auto_bound0_i)      learned_sel = 2'd0;
    else if (avg_q >= cfg_auto_bound1_i) learned_sel = 2'd1;
    else if (avg_q >= cfg_auto_bound2_i) learned_sel = 2'd2;
    else                                 learned_sel = UNLIMITED;
    sel       = (cfg_thr_auto_i && learned_q) ? learned_sel : cfg_thr_sel_i;
    thr_sel_o = cfg_error_o ? UNLIMITED : sel;
    case (thr_sel_o)
      2'd0:    thr_o = cfg_thr_level0_i;
      2'd1:    thr_o = cfg_thr_level1_i;
      2'd2:    thr_o = cfg_thr_level2_i;
      default: thr_o = '1;
    endcase
    // The occupancy against every threshold at once, then the level picks
    // one bit: the compares run beside the level logic, not after its mux
    // (the grant path, see the timing notes in docs/blocks/mca_arbiter.md).
    // cfg_error_o is left out: a refused configuration does not run MCA.
    lt0 = occupancy_i < cfg_thr_level0_i;
    lt1 = occupancy_i < cfg_thr_level1_i;
    lt2 = occupancy_i < cfg_thr_level2_i;
    case (sel)
      2'd0:    under_thr = lt0;
      2'd1:    under_thr = lt1;
      2'd2:    under_thr = lt2;
      default: under_thr = 1'b1;
    endcase
  end

  // ------------------------------------------------------------------ rule
  logic slot_free, drain_com, starved, com_wins, cmp_wins, grant;
  always_comb begin
    slot_free = !out_valid_q || out_ready_i;
    drain_com = drain_i && com_valid_i;  // T3 §4.5: drained at the producer kernel boundary
    starved   = policy == 2'd2 && cfg_starve_limit_i != '0 &&
                com_wait_q >= cfg_starve_limit_i && com_valid_i;
    case (policy)
      P_RR:    com_wins = drain_com || (turn_com_q ? com_valid_i : com_valid_i && !cmp_valid_i);
      P_CF:    com_wins = drain_com || (com_valid_i && !cmp_valid_i);
      default: com_wins = drain_com || starved || (com_valid_i && !cmp_valid_i && under_thr);
    endcase
    cmp_wins    = cmp_valid_i && !com_wins;
    grant       = rst_ni && slot_free;
    cmp_ready_o = grant && cmp_wins;
    com_ready_o = grant && com_wins;
    // A grant the starvation rule decided (a drain would have let it in
    // anyway): what stat_starved_o counts, and the STARVED interrupt.
    starved_o   = com_ready_o && starved && !drain_com;
  end

  // ------------------------------------------------------------------ state
  logic [SUM_W-1:0] sum_next;
  assign sum_next = win_sum_q + SUM_W'(occupancy_i);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      out_valid_q  <= 1'b0;
      out_data_q   <= '0;
      out_src_q    <= 1'b0;
      turn_com_q   <= 1'b0;
      com_wait_q   <= '0;
      busy_q       <= 1'b0;
      learned_q    <= 1'b0;
      win_log2_q   <= '0;
      win_left_q   <= '0;
      win_sum_q    <= '0;
      avg_q        <= '0;
      grants_cmp_q <= '0;
      grants_com_q <= '0;
      wait_cmp_q   <= '0;
      wait_com_q   <= '0;
      starved_q    <= '0;
    end else begin
      // The payload mux selects on com_wins alone, not on the readies, to
      // keep the grant's AND with slot_free off the 64-bit select.
      if (slot_free) begin
        out_valid_q <= cmp_wins || com_wins;
        if (cmp_wins || com_wins) begin
          out_data_q <= com_wins ? com_data_i : cmp_data_i;
          out_src_q  <= com_wins;
        end
      end
      if (cmp_ready_o)      turn_com_q <= 1'b1;
      else if (com_ready_o) turn_com_q <= 1'b0;
      if (com_ready_o)                          com_wait_q <= '0;
      else if (com_valid_i && com_wait_q != '1) com_wait_q <= com_wait_q + 1'b1;

      if (cmp_ready_o)                  grants_cmp_q <= grants_cmp_q + 1'b1;
      if (com_ready_o)                  grants_com_q <= grants_com_q + 1'b1;
      if (cmp_valid_i && !cmp_ready_o)  wait_cmp_q   <= wait_cmp_q + 1'b1;
      if (com_valid_i && !com_ready_o)  wait_com_q   <= wait_com_q + 1'b1;
      if (starved_o)                    starved_q    <= starved_q + 1'b1;

      // The window covers the 2^log2 cycles after the pulse; its log2 is
      // latched at the start, so a configuration change does not bend it.
      if (busy_q) begin
        if (win_left_q == '0) begin
          busy_q    <= 1'b0;
          learned_q <= 1'b1;
          avg_q     <= OCC_W'(sum_next >> win_log2_q);
        end else begin
          win_left_q <= win_left_q - 1'b1;
          win_sum_q  <= sum_next;
        end
      end else if (learn_i && !cfg_error_o) begin
        busy_q     <= 1'b1;
        win_log2_q <= cfg_learn_log2_i;
        win_left_q <= LEFT_W'((33'd1 << cfg_learn_log2_i) - 33'd1);
        win_sum_q  <= '0;
      end
    end
  end

  assign out_valid_o       = out_valid_q;
  assign out_data_o        = out_data_q;
  assign out_src_o         = out_src_q;
  assign learn_busy_o      = busy_q;
  assign learn_avg_o       = avg_q;
  assign stat_grants_cmp_o = grants_cmp_q;
  assign stat_grants_com_o = grants_com_q;
  assign stat_wait_cmp_o   = wait_cmp_q;
  assign stat_wait_com_o   = wait_com_q;
  assign stat_starved_o    = starved_q;

endmodule
