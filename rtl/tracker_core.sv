// T3 Tracker core (T3 §4.2.1, Fig. 9): counts the local, remote and DMA writes that
// land in a tracked region per wavefront tile and emits one trigger when a
// tile has received wf_tile_size x updates_per_element element updates.
//
// Organisation: SETS sets indexed by the WG-id LSBs, WAYS ways per set tagged
// by {WG-id MSBs, WF-id}; an entry holds the lowest address seen and the
// element-update counter. The lookup, update and trigger decision happen in
// one cycle, so updates to one entry on consecutive cycles need no bypass.
//
// The block firmware programs, rtl/tracker.sv, is this core behind its
// register block. The C++ cycle model hw/tracker/tracker_core.{h,cpp}
// implements exactly this behaviour; testbench/tracker compares the two
// (inside their blocks) every cycle.
//
// Parameters: the list is hw/tracker/tracker_params.def (defaults and ranges
// there; scripts/check_params.py holds this file to it).
module tracker_core #(
  parameter int unsigned SETS    = 256,  // power of two, 2..65536
  parameter int unsigned WAYS    = 8,    // 1..64
  parameter int unsigned WG_ID_W = 12,   // log2(SETS)+1..32; the MSBs above the set index are tag
  parameter int unsigned WF_ID_W = 3,    // 1..16 (T3 §4.2.1: 8 WFs per WG)
  parameter int unsigned ADDR_W  = 48,   // 1..64
  parameter int unsigned CNT_W   = 16,   // 1..31; update counter, also a write's size
  parameter int unsigned UPE_W   = 4,    // 1..8; updates-per-element field
  parameter int unsigned STAT_W  = 32,   // 1..32; status counters, wrapping
  localparam int unsigned LIVE_W = $clog2(SETS * WAYS + 1)  // width of live_o
) (
  input  logic              clk_i,
  input  logic              rst_ni,

  // Configuration (the registers, programmed by the driver before the
  // producer runs, T3 §4.4).
  input  logic              cfg_enable_i,
  input  logic [ADDR_W-1:0] cfg_base_i,       // tracked region is [base, limit)
  input  logic [ADDR_W-1:0] cfg_limit_i,
  input  logic [CNT_W-1:0]  cfg_tile_size_i,  // elements per WF tile
  input  logic [UPE_W-1:0]  cfg_updates_per_elem_i,
  output logic              cfg_error_o,      // enabled with an unusable configuration

  // Observed memory writes. in_ready_o accepts the write presented in this
  // cycle; a refused write leaves no state behind, so the upstream queue may
  // present another write in the next cycle.
  input  logic              in_valid_i,
  output logic              in_ready_o,
  input  logic [WG_ID_W-1:0] in_wg_id_i,
  input  logic [WF_ID_W-1:0] in_wf_id_i,
  input  logic [ADDR_W-1:0] in_addr_i,
  input  logic [CNT_W-1:0]  in_size_i,        // elements written
  input  logic [1:0]        in_src_i,         // 0 local, 1 remote, 2 DMA; all count alike

  // Trigger stream towards the DMA trigger table (T3 §4.2.2).
  output logic              trig_valid_o,
  input  logic              trig_ready_i,
  output logic [WG_ID_W-1:0] trig_wg_id_o,
  output logic [WF_ID_W-1:0] trig_wf_id_o,
  output logic [ADDR_W-1:0] trig_addr_o,

  // Status.
  output logic [STAT_W-1:0] stat_updates_o,   // tracked writes accepted
  output logic [STAT_W-1:0] stat_triggers_o,  // triggers emitted
  output logic [STAT_W-1:0] stat_stalls_o,    // cycles a write was refused
  output logic [STAT_W-1:0] stat_untracked_o, // writes outside the region or while disabled
  output logic [LIVE_W-1:0] live_o,           // entries in use
  output logic              set_full_o        // the presented write waits for a free way
);

  localparam int unsigned SET_W   = $clog2(SETS);
  localparam int unsigned TAG_W   = WG_ID_W - SET_W + WF_ID_W;
  localparam int unsigned ENTRIES = SETS * WAYS;
  localparam int unsigned IDX_W   = $clog2(ENTRIES);
  localparam int unsigned WAY_W   = (WAYS > 1) ? $clog2(WAYS) : 1;
  localparam int unsigned THR_W   = CNT_W + UPE_W;

  // ------------------------------------------------- parameter ranges (elaboration)
  if (SETS < 2 || SETS > 65536 || (SETS & (SETS - 1)) != 0) begin : g_bad_sets
    $error("SETS = %0d is out of range; allowed: a power of two from 2 to 65536", SETS);
  end
  if (WAYS < 1 || WAYS > 64) begin : g_bad_ways
    $error("WAYS = %0d is out of range; allowed: 1..64", WAYS);
  end
  if (WG_ID_W < 2 || WG_ID_W > 32 || WG_ID_W <= SET_W) begin : g_bad_wg_id_w
    $error("WG_ID_W = %0d is out of range; allowed: log2(SETS)+1 = %0d..32", WG_ID_W, SET_W + 1);
  end
  if (WF_ID_W < 1 || WF_ID_W > 16) begin : g_bad_wf_id_w
    $error("WF_ID_W = %0d is out of range; allowed: 1..16", WF_ID_W);
  end
  if (ADDR_W < 1 || ADDR_W > 64) begin : g_bad_addr_w
    $error("ADDR_W = %0d is out of range; allowed: 1..64", ADDR_W);
  end
  if (CNT_W < 1 || CNT_W > 31) begin : g_bad_cnt_w
    $error("CNT_W = %0d is out of range; allowed: 1..31", CNT_W);
  end
  if (UPE_W < 1 || UPE_W > 8) begin : g_bad_upe_w
    $error("UPE_W = %0d is out of range; allowed: 1..8", UPE_W);
  end
  if (STAT_W < 1 || STAT_W > 32) begin : g_bad_stat_w
    $error("STAT_W = %0d is out of range; allowed: 1..32", STAT_W);
  end

  // ---------------------------------------------------------------- storage
  logic [ENTRIES-1:0] valid_q;
  logic [TAG_W-1:0]   tag_q   [ENTRIES];
  logic [ADDR_W-1:0]  addr_q  [ENTRIES];
  logic [CNT_W-1:0]   cnt_q   [ENTRIES];

  logic               trig_valid_q;
  logic [WG_ID_W-1:0] trig_wg_id_q;
  logic [WF_ID_W-1:0] trig_wf_id_q;
  logic [ADDR_W-1:0]  trig_addr_q;
  logic [STAT_W-1:0]  stat_updates_q, stat_triggers_q, stat_stalls_q, stat_untracked_q;
  logic [LIVE_W-1:0]  live_q;

  // ---------------------------------------------------------- configuration
  // The rule of TrackerConfig::fault() in hw/tracker/tracker_core.cpp.
  logic [THR_W-1:0] threshold;
  logic             tracking;
  always_comb begin
    threshold   = THR_W'(cfg_tile_size_i) * THR_W'(cfg_updates_per_elem_i);
    cfg_error_o = cfg_enable_i &&
                  (threshold == '0 || (threshold >> CNT_W) != '0 || cfg_base_i >= cfg_limit_i);
    tracking    = cfg_enable_i && !cfg_error_o;
  end

  // ----------------------------------------------------------------- lookup
  logic [SET_W-1:0]   set_idx;
  logic [TAG_W-1:0]   in_tag;
  logic               tracked;
  logic               hit, has_free;
  logic [WAY_W-1:0]   hit_way, free_way;
  logic [IDX_W-1:0]   set_base, hit_idx, free_idx;
  logic [CNT_W-1:0]   old_cnt;
  logic [ADDR_W-1:0]  old_addr, new_addr;
  logic [CNT_W:0]     sum;
  logic               fire, out_free, stall, accept;

  always_comb begin
    set_idx  = in_wg_id_i[SET_W-1:0];
    in_tag   = {in_wg_id_i[WG_ID_W-1:SET_W], in_wf_id_i};
    tracked  = in_valid_i && tracking &&
               in_addr_i >= cfg_base_i && in_addr_i < cfg_limit_i;

    hit      = 1'b0;
    hit_way  = '0;
    has_free = 1'b0;
    free_way = '0;
    // Highest index first so that the lowest matching/free way wins.
    set_base = IDX_W'(set_idx) * IDX_W'(WAYS);
    for (int w = WAYS - 1; w >= 0; w--) begin
      if (valid_q[set_base + IDX_W'(w)] && tag_q[set_base + IDX_W'(w)] == in_tag) begin
        hit     = 1'b1;
        hit_way = WAY_W'(w);
      end
      if (!valid_q[set_base + IDX_W'(w)]) begin
        has_free = 1'b1;
        free_way = WAY_W'(w);
      end
    end
    hit_idx  = set_base + IDX_W'(hit_way);
    free_idx = set_base + IDX_W'(free_way);

    old_cnt  = hit ? cnt_q[hit_idx] : '0;
    old_addr = hit ? addr_q[hit_idx] : in_addr_i;
    new_addr = (in_addr_i < old_addr) ? in_addr_i : old_addr;
    sum      = {1'b0, old_cnt} + {1'b0, in_size_i};
    fire     = THR_W'(sum) >= threshold;

    // Back-pressure, never drop (T3 §4.2.1 sizing makes both cases rare).
    out_free   = !trig_valid_q || trig_ready_i;
    set_full_o = tracked && !fire && !hit && !has_free;
    stall      = tracked && (fire ? !out_free : (!hit && !has_free));
    in_ready_o = !stall;
    accept     = tracked && !stall;
  end

  // ------------------------------------------------------------------ state
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      valid_q <= '0;
      live_q <= '0;
    end else if (accept) begin
      if (fire) begin
        if (hit) begin
          valid_q[hit_idx] <= 1'b0;
          live_q <= live_q - 1'b1;
        end
      end else if (hit) begin
        cnt_q [hit_idx] <= sum[CNT_W-1:0];
        addr_q[hit_idx] <= new_addr;
      end else begin
        valid_q[free_idx] <= 1'b1;
        tag_q  [free_idx] <= in_tag;
        cnt_q  [free_idx] <= sum[CNT_W-1:0];
        addr_q [free_idx] <= in_addr_i;
        live_q <= live_q + 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      trig_valid_q     <= 1'b0;
      trig_wg_id_q     <= '0;
      trig_wf_id_q     <= '0;
      trig_addr_q      <= '0;
      stat_updates_q   <= '0;
      stat_triggers_q  <= '0;
      stat_stalls_q    <= '0;
      stat_untracked_q <= '0;
    end else begin
      if (accept && fire) begin
        trig_valid_q    <= 1'b1;
        trig_wg_id_q    <= in_wg_id_i;
        trig_wf_id_q    <= in_wf_id_i;
        trig_addr_q     <= new_addr;
        stat_triggers_q <= stat_triggers_q + 1'b1;
      end else if (trig_ready_i) begin
        trig_valid_q    <= 1'b0;
      end
      if (accept)                    stat_updates_q   <= stat_updates_q + 1'b1;
      if (in_valid_i && stall)       stat_stalls_q    <= stat_stalls_q + 1'b1;
      if (in_valid_i && !tracked)    stat_untracked_q <= stat_untracked_q + 1'b1;
    end
  end

  assign trig_valid_o     = trig_valid_q;
  assign trig_wg_id_o     = trig_wg_id_q;
  assign trig_wf_id_o     = trig_wf_id_q;
  assign trig_addr_o      = trig_addr_q;
  assign stat_updates_o   = stat_updates_q;
  assign stat_triggers_o  = stat_triggers_q;
  assign stat_stalls_o    = stat_stalls_q;
  assign stat_untracked_o = stat_untracked_q;
  assign live_o           = live_q;

  // in_src_i is carried for the memory controller and the waveform; the
  // Tracker counts local, remote and DMA writes alike (T3 §4.2.1).
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_src;
  assign unused_src = ^in_src_i;
  /* verilator lint_on UNUSEDSIGNAL */

endmodule
