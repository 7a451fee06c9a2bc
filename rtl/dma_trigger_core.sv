// T3 DMA trigger table and address generator core (T3 §4.2.2, §4.4, Fig.
// 9(c), 11, 12). The driver pre-programs one entry per dma_map region; a Tracker
// trigger {wg, wf, start address} is buffered in the entry whose region holds
// its whole WF tile; once an entry holds tiles_per_block tiles, the address
// generator sends that DMA block as burst descriptors, one per cycle, through
// a descriptor queue to the DMA engine. Nothing is dropped: a trigger waits
// (trig_ready_o low) while its entry's buffer is full, and a trigger no entry
// covers is taken, counted and captured (miss_o).
//
// The block firmware programs, rtl/dma_trigger.sv, is this core behind its
// register block. The C++ cycle model hw/dma_trigger/dma_trigger_core.{h,cpp}
// implements exactly this behaviour; testbench/dma_trigger compares the two
// (inside their blocks) every cycle.
//
// Parameters: the list is hw/dma_trigger/dma_trigger_params.def (defaults and
// ranges there; scripts/check_params.py holds this file to it).
module dma_trigger_core #(
  parameter int unsigned ENTRIES        = 16,  // 1..64 table entries (dma_map regions)
  parameter int unsigned SLOTS          = 8,   // 1..32 tiles buffered per entry
  parameter int unsigned DESC_DEPTH     = 4,   // power of two 1..32: descriptor queue
  parameter int unsigned ADDR_W         = 48,  // 2..64
  parameter int unsigned WG_ID_W        = 12,  // 1..32
  parameter int unsigned WF_ID_W        = 3,   // 1..16
  parameter int unsigned GPU_W          = 4,   // 1..8
  parameter int unsigned DIM_W          = 16,  // 1..24: M, N, tile rows and columns
  parameter int unsigned MAX_BURST_LOG2 = 12,  // 0..16
  parameter int unsigned STAT_W         = 32,  // 1..32
  localparam int unsigned IDX_W   = (ENTRIES > 1) ? $clog2(ENTRIES) : 1,
  localparam int unsigned CNT_W   = $clog2(SLOTS + 1),
  // The register fields' widths, whatever the build: an index above the
  // table and a burst size above MAX_BURST_LOG2 arrive whole and are refused.
  localparam int unsigned TBL_IDX_W = 6,  // TBL_IDX.IDX: every index of a 64-entry table
  localparam int unsigned BURST_W = 5,    // BURST.LOG2
  localparam int unsigned BYTES_W = MAX_BURST_LOG2 + 1
) (
  input  logic               clk_i,
  input  logic               rst_ni,

  // Configuration (the registers CTRL and BURST).
  input  logic               cfg_enable_i,
  input  logic [BURST_W-1:0] cfg_burst_log2_i,  // bursts stay in 2^n-byte aligned blocks
  output logic               cfg_error_o,       // cfg_burst_log2_i > MAX_BURST_LOG2

  // Table write port (a dma_map call, T3 Fig. 12; the registers TBL_IDX and
  // TBL_* with the pulse of TBL_CMD.WRITE). A write takes DIM_W + 2 cycles
  // (tbl_ready_o low) and is then committed or refused (tbl_err_o,
  // tbl_err_cause_o); one commanded while tbl_ready_o is low is refused.
  input  logic               tbl_we_i,
  output logic               tbl_ready_o,
  input  logic [TBL_IDX_W-1:0] tbl_idx_i,       // at or above ENTRIES: refused
  input  logic               tbl_valid_i,
  input  logic [ADDR_W-1:0]  tbl_src_base_i,
  input  logic [ADDR_W-1:0]  tbl_dst_base_i,
  input  logic [GPU_W-1:0]   tbl_dst_gpu_i,
  input  logic [1:0]         tbl_op_i,            // 0 STORE, 1 UPDATE, 2 NONE (3 refused)
  input  logic [CNT_W-1:0]   tbl_tiles_per_block_i,
  input  logic [DIM_W-1:0]   tbl_m_i,             // rows: the column stride in elements
  input  logic [DIM_W-1:0]   tbl_n_i,             // columns
  input  logic [1:0]         tbl_elem_log2_i,     // element bytes = 2^n
  input  logic [DIM_W-1:0]   tbl_tile_rows_i,
  input  logic [DIM_W-1:0]   tbl_tile_cols_i,
  // Read back, of entry tbl_rd_idx_i (zeros at or above ENTRIES).
  input  logic [TBL_IDX_W-1:0] tbl_rd_idx_i,
  output logic               tbl_rd_valid_o,
  output logic [ADDR_W-1:0]  tbl_rd_src_base_o,
  output logic [ADDR_W-1:0]  tbl_rd_dst_base_o,
  output logic [GPU_W-1:0]   tbl_rd_dst_gpu_o,
  output logic [1:0]         tbl_rd_op_o,
  output logic [CNT_W-1:0]   tbl_rd_tiles_per_block_o,
  output logic [DIM_W-1:0]   tbl_rd_m_o,
  output logic [DIM_W-1:0]   tbl_rd_n_o,
  output logic [1:0]         tbl_rd_elem_log2_o,
  output logic [DIM_W-1:0]   tbl_rd_tile_rows_o,
  output logic [DIM_W-1:0]   tbl_rd_tile_cols_o,
  output logic [CNT_W-1:0]   tbl_rd_pending_o,    // tiles buffered

  // Triggers from the Tracker (T3 §4.2.1).
  input  logic               trig_valid_i,
  output logic               trig_ready_o,
  input  logic [WG_ID_W-1:0] trig_wg_id_i,
  input  logic [WF_ID_W-1:0] trig_wf_id_i,
  input  logic [ADDR_W-1:0]  trig_addr_i,

  // Burst descriptors to the DMA engine.
  output logic               desc_valid_o,
  input  logic               desc_ready_i,
  output logic [ADDR_W-1:0]  desc_src_o,
  output logic [ADDR_W-1:0]  desc_dst_o,
  output logic [GPU_W-1:0]   desc_gpu_o,
  output logic [BYTES_W-1:0] desc_bytes_o,
  output logic               desc_op_o,
  output logic [WG_ID_W-1:0] desc_wg_o,
  output logic [WF_ID_W-1:0] desc_wf_o,
  output logic               desc_last_o,         // the block's last descriptor

  // Errors: sticky until err_clear_i; the first cause / trigger captured.
  output logic               tbl_err_o,
  output logic [3:0]         tbl_err_cause_o,
  output logic               miss_o,
  output logic [WG_ID_W-1:0] miss_wg_o,
  output logic [WF_ID_W-1:0] miss_wf_o,
  output logic [ADDR_W-1:0]  miss_addr_o,
  input  logic               err_clear_i,

  output logic [STAT_W-1:0]  stat_triggers_o,     // triggers taken into an entry
  output logic [STAT_W-1:0]  stat_miss_o,         // triggers no entry covers
  output logic [STAT_W-1:0]  stat_descs_o,        // descriptors taken by the DMA engine
  output logic [STAT_W-1:0]  stat_blocks_o,       // blocks whose last descriptor was taken
  output logic [STAT_W-1:0]  stat_stalls_o,       // cycles a trigger waited
  output logic               busy_o
);

  localparam int unsigned SLOT_W  = (SLOTS > 1) ? $clog2(SLOTS) : 1;
  localparam int unsigned PTR_W   = (DESC_DEPTH > 1) ? $clog2(DESC_DEPTH) : 1;
  localparam int unsigned FCNT_W  = $clog2(DESC_DEPTH + 1);
  localparam int unsigned COLB_W  = DIM_W + 3;      // a column's or a segment's bytes
  localparam int unsigned PROD_W  = 2 * DIM_W + 3;  // N x column bytes
  localparam int unsigned END_W   = ((ADDR_W > PROD_W) ? ADDR_W : PROD_W) + 1;
  localparam int unsigned WR_CYC  = DIM_W + 2;
  localparam int unsigned WCNT_W  = $clog2(WR_CYC + 1);
  localparam logic [1:0] OP_NONE = 2'd2;    // TBL_CTRL.OP: the tile is taken and counted, not sent

  // ------------------------------------------------- parameter ranges (elaboration)
  if (ENTRIES < 1 || ENTRIES > 64) begin : g_bad_entries
    $error("ENTRIES = %0d is out of range; allowed: 1..64", ENTRIES);
  end
  if (SLOTS < 1 || SLOTS > 32) begin : g_bad_slots
    $error("SLOTS = %0d is out of range; allowed: 1..32", SLOTS);
  end
  if (DESC_DEPTH < 1 || DESC_DEPTH > 32 || (DESC_DEPTH & (DESC_DEPTH - 1)) != 0) begin : g_bad_desc_depth
    $error("DESC_DEPTH = %0d is out of range; allowed: a power of two from 1 to 32", DESC_DEPTH);
  end
  if (ADDR_W < 2 || ADDR_W > 64) begin : g_bad_addr_w
    $error("ADDR_W = %0d is out of range; allowed: 2..64", ADDR_W);
  end
  if (WG_ID_W < 1 || WG_ID_W > 32) begin : g_bad_wg_id_w
    $error("WG_ID_W = %0d is out of range; allowed: 1..32", WG_ID_W);
  end
  if (WF_ID_W < 1 || WF_ID_W > 16) begin : g_bad_wf_id_w
    $error("WF_ID_W = %0d is out of range; allowed: 1..16", WF_ID_W);
  end
  if (GPU_W < 1 || GPU_W > 8) begin : g_bad_gpu_w
    $error("GPU_W = %0d is out of range; allowed: 1..8", GPU_W);
  end
  if (DIM_W < 1 || DIM_W > 24) begin : g_bad_dim_w
    $error("DIM_W = %0d is out of range; allowed: 1..24", DIM_W);
  end
  if (MAX_BURST_LOG2 > 16) begin : g_bad_max_burst_log2
    $error("MAX_BURST_LOG2 = %0d is out of range; allowed: 0..16", MAX_BURST_LOG2);
  end
  if (STAT_W < 1 || STAT_W > 32) begin : g_bad_stat_w
    $error("STAT_W = %0d is out of range; allowed: 1..32", STAT_W);
  end

  // ------------------------------------------------------------------ table
  logic [ENTRIES-1:0] e_valid_q;
  logic [1:0]         e_op_q   [ENTRIES];
  logic [ADDR_W-1:0]  e_src_q  [ENTRIES];
  logic [ADDR_W-1:0]  e_dst_q  [ENTRIES];
  logic [ADDR_W-1:0]  e_last_q [ENTRIES];  // highest tile start whose tile fits the region
  logic [GPU_W-1:0]   e_gpu_q  [ENTRIES];
  logic [CNT_W-1:0]   e_k_q    [ENTRIES];
  logic [DIM_W-1:0]   e_m_q    [ENTRIES];
  logic [DIM_W-1:0]   e_n_q    [ENTRIES];
  logic [DIM_W-1:0]   e_tr_q   [ENTRIES];
  logic [DIM_W-1:0]   e_tc_q   [ENTRIES];
  logic [1:0]         e_eb_q   [ENTRIES];
  // Triggered tiles per entry: a circular buffer of SLOTS, entry e's at
  // [e*SLOTS, (e+1)*SLOTS). One array a field, written by one process (yosys
  // 0.23 loses arrays that several processes write).
  localparam int unsigned BUF_N = ENTRIES * SLOTS;
  localparam int unsigned BUF_W = (BUF_N > 1) ? $clog2(BUF_N) : 1;
  logic [SLOT_W-1:0]  e_head_q  [ENTRIES];
  logic [CNT_W-1:0]   e_count_q [ENTRIES];
  logic [WG_ID_W-1:0] buf_wg_q   [BUF_N];
  logic [WF_ID_W-1:0] buf_wf_q   [BUF_N];
  logic [ADDR_W-1:0]  buf_addr_q [BUF_N];

  // a + b modulo SLOTS, for a < SLOTS and b <= SLOTS.
  localparam int unsigned SUM_W = SLOT_W + CNT_W + 1;
  function automatic [SLOT_W-1:0] slot_add(input logic [SLOT_W-1:0] a, input logic [CNT_W-1:0] b);
    logic [SUM_W-1:0] s;
    s = SUM_W'(a) + SUM_W'(b);
    if (s >= SUM_W'(SLOTS)) s = s - SUM_W'(SLOTS);
    slot_add = SLOT_W'(s);
  endfunction

  // --------------------------------------------------------------- config
  logic active;
  always_comb begin
    cfg_error_o = 32'(cfg_burst_log2_i) > MAX_BURST_LOG2;
    active      = cfg_enable_i && !cfg_error_o;
  end

  // ---------------------------------------------------------- table write
  // The region's size (N x column bytes) and the tile's span ((tile_cols - 1)
  // x column bytes + a segment) are multiplied one bit of N per cycle: a
  // configuration-time path, kept off the clock period.
  logic [WCNT_W-1:0]  wr_left_q;
  logic [TBL_IDX_W-1:0] wr_idx_q;
  logic               wr_valid_q;
  logic [1:0]         wr_op_q;
  logic [ADDR_W-1:0]  wr_src_q, wr_dst_q;
  logic [GPU_W-1:0]   wr_gpu_q;
  logic [CNT_W-1:0]   wr_k_q;
  logic [DIM_W-1:0]   wr_m_q, wr_n_q, wr_tr_q, wr_tc_q;
  logic [1:0]         wr_eb_q;
  logic [PROD_W-1:0]  mul_a_q, acc_n_q, acc_c_q;
  logic [DIM_W-1:0]   mul_bn_q, mul_bc_q;
  logic [END_W-1:0]   end_q;
  logic [PROD_W-1:0]  span_q;

  logic               commit, wr_busy_entry, wr_fault_any, port_busy, refuse;
  logic [3:0]         wr_fault, refuse_cause;
  always_comb begin
    tbl_ready_o = wr_left_q == '0;
    commit      = wr_left_q == WCNT_W'(1);
    // The rule of DmaEntry::fault() in hw/dma_trigger/dma_trigger_core.cpp, then
    // the entry's state: it must hold no tile and not be being sent.
    wr_busy_entry = 1'b0;
    for (int e = 0; e < ENTRIES; e++)
      if (TBL_IDX_W'(e) == wr_idx_q)
        wr_busy_entry = (e_count_q[e] != '0) || (gen_q && gen_e_q == IDX_W'(e));
    wr_fault = 4'd0;
    if (32'(wr_idx_q) >= ENTRIES)                                  wr_fault = 4'd1;
    else if (wr_valid_q && wr_op_q == 2'd3)                        wr_fault = 4'd9;
    // Constant when SLOTS fills its field (SLOTS = 2^CNT_W - 1).
    /* verilator lint_off CMPCONST */
    else if (wr_valid_q && (wr_k_q == '0 || 32'(wr_k_q) > SLOTS))  wr_fault = 4'd2;
    /* verilator lint_on CMPCONST */
    else if (wr_valid_q && (wr_m_q == '0 || wr_n_q == '0))         wr_fault = 4'd3;
    else if (wr_valid_q && (wr_tr_q == '0 || wr_tr_q > wr_m_q))    wr_fault = 4'd4;
    else if (wr_valid_q && (wr_tc_q == '0 || wr_tc_q > wr_n_q))    wr_fault = 4'd5;
    else if (wr_valid_q && end_q > (END_W'(1) << ADDR_W))          wr_fault = 4'd6;
    else if (wr_busy_entry)                                        wr_fault = 4'd7;
    wr_fault_any = wr_fault != 4'd0;
    // A write commanded while one is in progress is refused (cause 8): the
    // register port's command is a one-cycle pulse and must not vanish. The
    // write in progress was commanded first: its cause wins at one edge.
    port_busy    = tbl_we_i && !tbl_ready_o;
    refuse       = (commit && wr_fault_any) || port_busy;
    refuse_cause = (commit && wr_fault_any) ? wr_fault : 4'd8;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      wr_left_q <= '0;
      wr_idx_q  <= '0;
    end else if (wr_left_q != '0) begin
      wr_left_q <= wr_left_q - 1'b1;
      if (32'(wr_left_q) > 2) begin
        if (mul_bn_q[0]) acc_n_q <= acc_n_q + mul_a_q;
        if (mul_bc_q[0]) acc_c_q <= acc_c_q + mul_a_q;
        mul_a_q  <= mul_a_q << 1;
        mul_bn_q <= mul_bn_q >> 1;
        mul_bc_q <= mul_bc_q >> 1;
      end else if (wr_left_q == WCNT_W'(2)) begin
        end_q  <= END_W'(wr_src_q) + END_W'(acc_n_q);
        span_q <= acc_c_q + (PROD_W'(wr_tr_q) << wr_eb_q);
      end
    end else if (tbl_we_i) begin
      wr_left_q  <= WCNT_W'(WR_CYC);
      wr_idx_q   <= tbl_idx_i;
      wr_valid_q <= tbl_valid_i;
      wr_src_q   <= tbl_src_base_i;
      wr_dst_q   <= tbl_dst_base_i;
      wr_gpu_q   <= tbl_dst_gpu_i;
      wr_op_q    <= tbl_op_i;
      wr_k_q     <= tbl_tiles_per_block_i;
      wr_m_q     <= tbl_m_i;
      wr_n_q     <= tbl_n_i;
      wr_eb_q    <= tbl_elem_log2_i;
      wr_tr_q    <= tbl_tile_rows_i;
      wr_tc_q    <= tbl_tile_cols_i;
      mul_a_q    <= PROD_W'(tbl_m_i) << tbl_elem_log2_i;
      mul_bn_q   <= tbl_n_i;
      mul_bc_q   <= tbl_tile_cols_i - 1'b1;
      acc_n_q    <= '0;
      acc_c_q    <= '0;
    end
  end

  // -------------------------------------------------------------- lookup
  logic               hit, trig_accept;
  logic [IDX_W-1:0]   hit_e;
  always_comb begin
    hit   = 1'b0;
    hit_e = '0;
    // Highest index first so that the lowest covering entry wins.
    for (int e = ENTRIES - 1; e >= 0; e--)
      if (e_valid_q[e] && trig_addr_i >= e_src_q[e] && trig_addr_i <= e_last_q[e]) begin
        hit   = 1'b1;
        hit_e = IDX_W'(e);
      end
    // A tile for a NONE entry is only counted: it never waits for room.
    trig_ready_o = active && tbl_ready_o &&
                   (!hit || e_op_q[hit_e] == OP_NONE || 32'(e_count_q[hit_e]) < SLOTS);
    trig_accept  = trig_valid_i && trig_ready_o;
  end

  // ---------------------------------------------------- descriptor queue
  // A descriptor as one vector {src, dst, gpu, bytes, op, wg, wf, last}
  // (yosys 0.23 loses unpacked arrays of packed structs).
  localparam int unsigned DESC_W = 2 * ADDR_W + GPU_W + BYTES_W + 1 + WG_ID_W + WF_ID_W + 1;
  logic [DESC_W-1:0]  fifo_q [DESC_DEPTH];
  logic [PTR_W-1:0]   fifo_head_q;
  logic [FCNT_W-1:0]  fifo_count_q;
  logic               pop, push;
  logic [DESC_W-1:0]  push_d;

  // ---------------------------------------------------- address generator
  logic               gen_q;
  logic [IDX_W-1:0]   gen_e_q, rr_q;
  logic [CNT_W-1:0]   gen_left_q;
  logic [DIM_W-1:0]   gen_col_q;
  logic [COLB_W-1:0]  gen_off_q;
  logic [ADDR_W-1:0]  gen_col_addr_q, gen_dst_col_q;
  logic [WG_ID_W-1:0] gen_wg_q;
  logic [WF_ID_W-1:0] gen_wf_q;

  logic               start, step, col_done, tile_done, block_done, gen_pop;
  logic [IDX_W-1:0]   start_e;
  logic [COLB_W-1:0]  seg_bytes, rem, col_bytes;
  logic [BYTES_W-1:0] boundary, to_boundary, bytes;
  logic [ADDR_W-1:0]  cur_addr;
  logic [SLOT_W-1:0]  load_slot;
  logic [IDX_W-1:0]   load_e;
  logic [BUF_W-1:0]   load_at, push_at;
  localparam int unsigned RR_W = IDX_W + 1;
  logic [RR_W-1:0]    rr_e;
  always_comb begin
    pop = fifo_count_q != '0 && desc_ready_i;
    // A block starts on an entry holding a whole block, round-robin from rr_q.
    start   = 1'b0;
    start_e = '0;
    rr_e    = '0;
    for (int i = ENTRIES - 1; i >= 0; i--) begin
      rr_e = RR_W'(rr_q) + RR_W'(i);
      if (rr_e >= RR_W'(ENTRIES)) rr_e = rr_e - RR_W'(ENTRIES);
      if (e_valid_q[IDX_W'(rr_e)] && e_count_q[IDX_W'(rr_e)] >= e_k_q[IDX_W'(rr_e)]) begin
        start   = active && !gen_q;
        start_e = IDX_W'(rr_e);
      end
    end

    // Bursts never cross a column segment nor a 2^burst-aligned boundary.
    seg_bytes   = COLB_W'(e_tr_q[gen_e_q]) << e_eb_q[gen_e_q];
    col_bytes   = COLB_W'(e_m_q[gen_e_q]) << e_eb_q[gen_e_q];
    cur_addr    = gen_col_addr_q + ADDR_W'(gen_off_q);
    boundary    = BYTES_W'(1) << cfg_burst_log2_i;
    to_boundary = boundary - (BYTES_W'(cur_addr) & (boundary - 1'b1));
    rem         = seg_bytes - gen_off_q;
    bytes       = (32'(rem) < 32'(to_boundary)) ? BYTES_W'(rem) : to_boundary;
    col_done    = 32'(bytes) == 32'(rem);
    tile_done   = col_done && gen_col_q == e_tc_q[gen_e_q] - 1'b1;
    block_done  = tile_done && gen_left_q == CNT_W'(1);
    step        = active && gen_q && (32'(fifo_count_q) < DESC_DEPTH || pop);
    push        = step;
    gen_pop     = step && tile_done;

    push_d = {cur_addr, gen_dst_col_q + ADDR_W'(gen_off_q), e_gpu_q[gen_e_q], bytes,
              e_op_q[gen_e_q][0], gen_wg_q, gen_wf_q, block_done};

    // The tile loaded next: the head of the entry a block starts on, or the
    // entry's next tile when one is done and the block goes on.
    load_e    = start ? start_e : gen_e_q;
    load_slot = start ? e_head_q[start_e] : slot_add(e_head_q[gen_e_q], CNT_W'(1));
    load_at   = BUF_W'(load_e) * BUF_W'(SLOTS) + BUF_W'(load_slot);
    push_at   = BUF_W'(hit_e) * BUF_W'(SLOTS) + BUF_W'(slot_add(e_head_q[hit_e], e_count_q[hit_e]));
  end

  always_ff @(posedge clk_i) begin
    if (trig_accept && hit) begin
      buf_wg_q[push_at]   <= trig_wg_id_i;
      buf_wf_q[push_at]   <= trig_wf_id_i;
      buf_addr_q[push_at] <= trig_addr_i;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      gen_q          <= 1'b0;
      gen_e_q        <= '0;
      rr_q           <= '0;
      gen_left_q     <= '0;
      gen_col_q      <= '0;
      gen_off_q      <= '0;
      gen_col_addr_q <= '0;
      gen_dst_col_q  <= '0;
      gen_wg_q       <= '0;
      gen_wf_q       <= '0;
    end else if (start || (step && tile_done && !block_done)) begin
      if (start) begin
        gen_q      <= 1'b1;
        gen_e_q    <= start_e;
        gen_left_q <= e_k_q[start_e];
        rr_q       <= (32'(start_e) + 1 == ENTRIES) ? '0 : start_e + 1'b1;
      end else begin
        gen_left_q <= gen_left_q - 1'b1;
      end
      gen_col_q      <= '0;
      gen_off_q      <= '0;
      gen_wg_q       <= buf_wg_q[load_at];
      gen_wf_q       <= buf_wf_q[load_at];
      gen_col_addr_q <= buf_addr_q[load_at];
      gen_dst_col_q  <= buf_addr_q[load_at] - e_src_q[load_e] + e_dst_q[load_e];
    end else if (step) begin
      if (block_done) begin
        gen_q <= 1'b0;
      end else if (!col_done) begin
        gen_off_q <= gen_off_q + COLB_W'(bytes);
      end else begin
        gen_off_q      <= '0;
        gen_col_q      <= gen_col_q + 1'b1;
        gen_col_addr_q <= gen_col_addr_q + ADDR_W'(col_bytes);
        gen_dst_col_q  <= gen_dst_col_q + ADDR_W'(col_bytes);
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      fifo_head_q  <= '0;
      fifo_count_q <= '0;
    end else begin
      if (push) fifo_q[PTR_W'(32'(fifo_head_q) + 32'(fifo_count_q)) & PTR_W'(DESC_DEPTH - 1)] <= push_d;
      if (pop) fifo_head_q <= (fifo_head_q + 1'b1) & PTR_W'(DESC_DEPTH - 1);
      fifo_count_q <= fifo_count_q + FCNT_W'(push) - FCNT_W'(pop);
    end
  end

  // -------------------------------------------------------------- entries
  for (genvar e = 0; e < ENTRIES; e++) begin : g_entry
    logic push_e, pop_e;
    assign push_e = trig_accept && hit && hit_e == IDX_W'(e) && e_op_q[e] != OP_NONE;
    assign pop_e  = gen_pop && gen_e_q == IDX_W'(e);
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        e_valid_q[e] <= 1'b0;
        e_op_q[e]    <= '0;
        e_src_q[e]   <= '0;
        e_dst_q[e]   <= '0;
        e_last_q[e]  <= '0;
        e_gpu_q[e]   <= '0;
        e_k_q[e]     <= '0;
        e_m_q[e]     <= '0;
        e_n_q[e]     <= '0;
        e_tr_q[e]    <= '0;
        e_tc_q[e]    <= '0;
        e_eb_q[e]    <= '0;
        e_head_q[e]  <= '0;
        e_count_q[e] <= '0;
      end else begin
        if (commit && !wr_fault_any && wr_idx_q == TBL_IDX_W'(e)) begin
          e_valid_q[e] <= wr_valid_q;
          e_op_q[e]    <= wr_op_q;
          e_src_q[e]   <= wr_src_q;
          e_dst_q[e]   <= wr_dst_q;
          e_last_q[e]  <= wr_valid_q ? ADDR_W'(end_q - END_W'(span_q)) : '0;
          e_gpu_q[e]   <= wr_gpu_q;
          e_k_q[e]     <= wr_k_q;
          e_m_q[e]     <= wr_m_q;
          e_n_q[e]     <= wr_n_q;
          e_tr_q[e]    <= wr_tr_q;
          e_tc_q[e]    <= wr_tc_q;
          e_eb_q[e]    <= wr_eb_q;
        end
        if (pop_e) e_head_q[e] <= slot_add(e_head_q[e], CNT_W'(1));
        e_count_q[e] <= e_count_q[e] + CNT_W'(push_e) - CNT_W'(pop_e);
      end
    end
  end

  // ------------------------------------------------------ errors, status
  logic               tbl_err_q, miss_q;
  logic [3:0]         tbl_err_cause_q;
  logic [WG_ID_W-1:0] miss_wg_q;
  logic [WF_ID_W-1:0] miss_wf_q;
  logic [ADDR_W-1:0]  miss_addr_q;
  logic [STAT_W-1:0]  stat_triggers_q, stat_miss_q, stat_descs_q, stat_blocks_q, stat_stalls_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      tbl_err_q       <= 1'b0;
      tbl_err_cause_q <= '0;
      miss_q          <= 1'b0;
      miss_wg_q       <= '0;
      miss_wf_q       <= '0;
      miss_addr_q     <= '0;
      stat_triggers_q <= '0;
      stat_miss_q     <= '0;
      stat_descs_q    <= '0;
      stat_blocks_q   <= '0;
      stat_stalls_q   <= '0;
    end else begin
      // A clear and a new error in one cycle leave the new one.
      if (refuse) begin
        tbl_err_q <= 1'b1;
        if (!tbl_err_q || err_clear_i) tbl_err_cause_q <= refuse_cause;
      end else if (err_clear_i) begin
        tbl_err_q       <= 1'b0;
        tbl_err_cause_q <= '0;
      end
      if (trig_accept && !hit) begin
        miss_q <= 1'b1;
        if (!miss_q || err_clear_i) begin
          miss_wg_q   <= trig_wg_id_i;
          miss_wf_q   <= trig_wf_id_i;
          miss_addr_q <= trig_addr_i;
        end
      end else if (err_clear_i) begin
        miss_q      <= 1'b0;
        miss_wg_q   <= '0;
        miss_wf_q   <= '0;
        miss_addr_q <= '0;
      end
      if (trig_accept && hit)      stat_triggers_q <= stat_triggers_q + 1'b1;
      if (trig_accept && !hit)     stat_miss_q     <= stat_miss_q + 1'b1;
      if (pop)                     stat_descs_q    <= stat_descs_q + 1'b1;
      if (pop && desc_last_o)     stat_blocks_q   <= stat_blocks_q + 1'b1;
      if (trig_valid_i && !trig_ready_o) stat_stalls_q <= stat_stalls_q + 1'b1;
    end
  end

  // -------------------------------------------------------------- outputs
  logic [DESC_W-1:0] head;
  logic             any_pending;
  always_comb begin
    // Queue slots hold no reset value: the outputs show them only when valid.
    head         = fifo_count_q != '0 ? fifo_q[fifo_head_q] : '0;
    desc_valid_o = fifo_count_q != '0;
    {desc_src_o, desc_dst_o, desc_gpu_o, desc_bytes_o, desc_op_o, desc_wg_o, desc_wf_o,
     desc_last_o} = head;

    tbl_rd_valid_o           = 1'b0;
    tbl_rd_src_base_o        = '0;
    tbl_rd_dst_base_o        = '0;
    tbl_rd_dst_gpu_o         = '0;
    tbl_rd_op_o              = '0;
    tbl_rd_tiles_per_block_o = '0;
    tbl_rd_m_o               = '0;
    tbl_rd_n_o               = '0;
    tbl_rd_elem_log2_o       = '0;
    tbl_rd_tile_rows_o       = '0;
    tbl_rd_tile_cols_o       = '0;
    tbl_rd_pending_o         = '0;
    for (int e = 0; e < ENTRIES; e++)
      if (tbl_rd_idx_i == TBL_IDX_W'(e)) begin
        tbl_rd_valid_o           = e_valid_q[e];
        tbl_rd_src_base_o        = e_src_q[e];
        tbl_rd_dst_base_o        = e_dst_q[e];
        tbl_rd_dst_gpu_o         = e_gpu_q[e];
        tbl_rd_op_o              = e_op_q[e];
        tbl_rd_tiles_per_block_o = e_k_q[e];
        tbl_rd_m_o               = e_m_q[e];
        tbl_rd_n_o               = e_n_q[e];
        tbl_rd_elem_log2_o       = e_eb_q[e];
        tbl_rd_tile_rows_o       = e_tr_q[e];
        tbl_rd_tile_cols_o       = e_tc_q[e];
        tbl_rd_pending_o         = e_count_q[e];
      end

    any_pending = 1'b0;
    for (int e = 0; e < ENTRIES; e++) any_pending |= e_count_q[e] != '0;
    busy_o = gen_q || any_pending || !tbl_ready_o || fifo_count_q != '0;
  end

  assign tbl_err_o       = tbl_err_q;
  assign tbl_err_cause_o = tbl_err_cause_q;
  assign miss_o          = miss_q;
  assign miss_wg_o       = miss_wg_q;
  assign miss_wf_o       = miss_wf_q;
  assign miss_addr_o     = miss_addr_q;
  assign stat_triggers_o = stat_triggers_q;
  assign stat_miss_o     = stat_miss_q;
  assign stat_descs_o    = stat_descs_q;
  assign stat_blocks_o   = stat_blocks_q;
  assign stat_stalls_o   = stat_stalls_q;

endmodule
