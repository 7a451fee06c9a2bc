// T3 DMA trigger table and address generator core (T3 §4.2.2, §4.4, Fig.
// 9(c), 11, 12). The driver pre-programs one entry per dma_map region; a Tracker
// trigger {wg, wf, start address} is buffered in the entry whose region holds
// its whole WF tile; once an entry holds tiles_per_block tiles, the address
// generator sends that DMA block as burst descriptors, one per cycle, through
// a descriptor queue to the DMA engine. Nothing is dropped: a trigger waits
// (trig_ready_o low) while its entry's buffer is full, and a trigger no entry
// covers is taken, counted and captured (miss_o). The generator is a
// pipeline (pick, fetch, read, load, step; below) for the 4 ns clock, and
// the triggered tiles are held in the storage wrapper rtl/t3_mem.sv.
//
// The block firmware programs, rtl/dma_trigger.sv, is this core behind its
// register block. The C++ cycle model hw/dma_trigger/dma_trigger_core.{h,cpp}
// implements exactly this behaviour; testbench/dma_trigger compares the two
// (inside their blocks) every cycle.
//
// Parameters: the list is hw/dma_trigger/dma_trigger.yaml (defaults and
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
  // [e*SLOTS, (e+1)*SLOTS), each tile {wg, wf, address}, in one t3_mem (the
  // storage wrapper: an SRAM macro's place). Its one write port takes the
  // trigger, its one read port feeds the address generator; the head and
  // count of each entry stay in flops: reset, and read by every entry each
  // cycle (the lookup's room check, the round-robin's whole-block check).
  localparam int unsigned BUF_N = ENTRIES * SLOTS;
  localparam int unsigned BUF_W = (BUF_N > 1) ? $clog2(BUF_N) : 1;
  localparam int unsigned TILE_W = WG_ID_W + WF_ID_W + ADDR_W;
  logic [SLOT_W-1:0]  e_head_q  [ENTRIES];
  logic [CNT_W-1:0]   e_count_q [ENTRIES];

  // a + b modulo SLOTS, for a < SLOTS and b <= SLOTS.
  localparam int unsigned SUM_W = SLOT_W + CNT_W + 1;
  function automatic [SLOT_W-1:0] slot_add(input logic [SLOT_W-1:0] a, input logic [CNT_W-1:0] b);
    logic [SUM_W-1:0] s;
    s = SUM_W'(a) + SUM_W'(b);
    if (s >= SUM_W'(SLOTS)) s = s - SUM_W'(SLOTS);
    slot_add = SLOT_W'(s);
  endfunction

  // a + b, ADDR_W bits, as a carry-select adder: the upper half's two sums
  // (carry in 0 and 1) in parallel with the lower half, then a select. yosys
  // and ABC keep the shape; a plain + mapped to a 3.2 ns chain at 48 bits.
  localparam int unsigned CS_LO = ADDR_W / 2;
  localparam int unsigned CS_HI = ADDR_W - CS_LO;
  function automatic [ADDR_W-1:0] add_cs(input logic [ADDR_W-1:0] a, input logic [ADDR_W-1:0] b);
    logic [CS_LO:0]   lo;
    logic [CS_HI-1:0] hi0, hi1;
    lo  = (CS_LO + 1)'(a[CS_LO-1:0]) + (CS_LO + 1)'(b[CS_LO-1:0]);
    hi0 = a[ADDR_W-1:CS_LO] + b[ADDR_W-1:CS_LO];
    hi1 = a[ADDR_W-1:CS_LO] + b[ADDR_W-1:CS_LO] + 1'b1;
    add_cs = {lo[CS_LO] ? hi1 : hi0, lo[CS_LO-1:0]};
  endfunction

  // The counts' +1 and -1: t3_util_pkg::inc_dec (gates, on 16 bits; a
  // narrower count takes the low bits).
  // The lowest set bit of v, one-hot; and the index of a one-hot vector. Both
  // of logarithmic depth (OR trees), not a chain through every entry.
  function automatic [ENTRIES-1:0] below(input int e);  // entries 0 .. e - 1
    below = '0;
    for (int j = 0; j < ENTRIES; j++) if (j < e) below[j] = 1'b1;
  endfunction
  function automatic [ENTRIES-1:0] first_one(input logic [ENTRIES-1:0] v);
    for (int e = 0; e < ENTRIES; e++) first_one[e] = v[e] && (v & below(e)) == '0;
  endfunction
  function automatic [IDX_W-1:0] one_hot_index(input logic [ENTRIES-1:0] oh);
    one_hot_index = '0;
    for (int b = 0; b < IDX_W; b++)
      for (int e = 0; e < ENTRIES; e++)
        if (((e >> b) & 1) != 0) one_hot_index[b] = one_hot_index[b] | oh[e];
  endfunction

  // --------------------------------------------------------------- config
  logic active;
  always_comb begin
    cfg_error_o = 32'(cfg_burst_log2_i) > MAX_BURST_LOG2;
    active      = cfg_enable_i && !cfg_error_o;
  end

  // ---------------------------------------------------------- table write
  // The region's size (N x column bytes) and the highest tile start's offset
  // in it ((N - tile_cols + 1) x column bytes - a segment: the region's end
  // less the tile's span) are multiplied one bit per cycle: a
  // configuration-time path, kept off the clock period. The segment is
  // subtracted first (the accumulator starts at minus it), so that the
  // commit writes registers, not a difference.
  logic [WCNT_W-1:0]  wr_left_q;
  logic [TBL_IDX_W-1:0] wr_idx_q;
  logic               wr_valid_q;
  logic [1:0]         wr_op_q;
  logic [ADDR_W-1:0]  wr_src_q, wr_dst_q;
  logic [GPU_W-1:0]   wr_gpu_q;
  logic [CNT_W-1:0]   wr_k_q;
  logic [DIM_W-1:0]   wr_m_q, wr_n_q, wr_tr_q, wr_tc_q;
  logic [1:0]         wr_eb_q;
  logic [PROD_W-1:0]  mul_a_q, acc_n_q;
  logic [PROD_W:0]    acc_l_q;  // signed: from minus a segment up
  logic [DIM_W-1:0]   mul_bn_q, mul_bl_q;
  logic [END_W-1:0]   end_q;
  logic [ADDR_W-1:0]  last_q;   // the highest tile start: src + acc_l
  logic [ENTRIES-1:0] wr_oh_q;      // wr_idx_q one-hot (none for an index above the table)
  logic [3:0]         wr_ffault_q;  // the fields' cause (1-5, 9), fixed the cycle before the commit

  logic               commit, wr_busy_entry, wr_past_top, wr_fault_any, port_busy, refuse;
  logic [3:0]         wr_ffault, wr_fault, refuse_cause;
  always_comb begin
    tbl_ready_o = wr_left_q == '0;
    commit      = wr_left_q == WCNT_W'(1);
    // The rule of DmaEntry::fault() in hw/dma_trigger/dma_trigger_core.cpp
    // on the staged fields, which hold still through the write: decided the
    // cycle before the commit (wr_ffault_q), off the commit's path; the
    // region's end (cause 6) is known only at the commit (end_q). An index
    // above the table is refused as such (cause 1) first.
    wr_ffault = 4'd0;
    if (32'(wr_idx_q) >= ENTRIES)                                  wr_ffault = 4'd1;
    else if (wr_valid_q && wr_op_q == 2'd3)                        wr_ffault = 4'd9;
    // Constant when SLOTS fills its field (SLOTS = 2^CNT_W - 1).
    /* verilator lint_off CMPCONST */
    else if (wr_valid_q && (wr_k_q == '0 || 32'(wr_k_q) > SLOTS))  wr_ffault = 4'd2;
    /* verilator lint_on CMPCONST */
    else if (wr_valid_q && (wr_m_q == '0 || wr_n_q == '0))         wr_ffault = 4'd3;
    else if (wr_valid_q && (wr_tr_q == '0 || wr_tr_q > wr_m_q))    wr_ffault = 4'd4;
    else if (wr_valid_q && (wr_tc_q == '0 || wr_tc_q > wr_n_q))    wr_ffault = 4'd5;
    wr_past_top = wr_valid_q && end_q > (END_W'(1) << ADDR_W);
    // Then the entry's state at the commit: it must hold no tile and not be
    // being sent; an AND-OR over the one-hot index, not a chain of compares.
    wr_busy_entry = '0;
    for (int e = 0; e < ENTRIES; e++)
      wr_busy_entry = wr_busy_entry | (wr_oh_q[e] && (e_count_q[e] != '0 || (blk_q && g_oh_q[e])));
    wr_fault     = wr_ffault_q != 4'd0 ? wr_ffault_q : wr_past_top ? 4'd6 : wr_busy_entry ? 4'd7 : 4'd0;
    wr_fault_any = wr_ffault_q != 4'd0 || wr_past_top || wr_busy_entry;
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
      wr_oh_q   <= '0;
    end else if (wr_left_q != '0) begin
      wr_left_q <= wr_left_q - 1'b1;
      if (32'(wr_left_q) > 2) begin
        if (mul_bn_q[0]) acc_n_q <= acc_n_q + mul_a_q;
        if (mul_bl_q[0]) acc_l_q <= acc_l_q + (PROD_W + 1)'(mul_a_q);
        mul_a_q  <= mul_a_q << 1;
        mul_bn_q <= mul_bn_q >> 1;
        mul_bl_q <= mul_bl_q >> 1;
      end else if (wr_left_q == WCNT_W'(2)) begin
        end_q       <= END_W'(wr_src_q) + END_W'(acc_n_q);
        last_q      <= add_cs(wr_src_q, ADDR_W'($signed(acc_l_q)));
        wr_ffault_q <= wr_ffault;
      end
    end else if (tbl_we_i) begin
      wr_left_q  <= WCNT_W'(WR_CYC);
      wr_idx_q   <= tbl_idx_i;
      for (int e = 0; e < ENTRIES; e++) wr_oh_q[e] <= tbl_idx_i == TBL_IDX_W'(e);
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
      // N - tile_cols + 1 fits DIM_W bits for fields the commit takes
      // (1 <= tile_cols <= N); for others the result is not used.
      mul_bl_q   <= tbl_n_i - tbl_tile_cols_i + 1'b1;
      acc_n_q    <= '0;
      acc_l_q    <= -((PROD_W + 1)'(tbl_tile_rows_i) << tbl_elem_log2_i);
    end
  end

  // -------------------------------------------------------------- lookup
  // The address compares of the trigger presented in a cycle are registered
  // (cov_q); the trigger is taken at the earliest in the next cycle, from
  // them: the port holds a trigger until it is taken (valid/ready), so the
  // presented trigger is the one compared if it was there, not taken, in
  // the last cycle (seen_q). Nothing on the trigger's ready depends on the
  // presented trigger, and the compares and the decision each have a cycle
  // (docs/blocks/dma_trigger.md "Pipeline"). The compares of the cycle in
  // which a table write ends see the table before it: a trigger waits one
  // cycle more after it (wr_end_q). The lowest covering entry wins.
  logic               hit, look, trig_accept, hit_full, miss_take;
  logic [ENTRIES-1:0] covers, cov_q, hit_oh, room;
  logic               seen_q, wr_end_q;
  always_comb begin
    for (int e = 0; e < ENTRIES; e++) begin
      covers[e] = e_valid_q[e] && trig_addr_i >= e_src_q[e] && trig_addr_i <= e_last_q[e];
      // A tile for a NONE entry is only counted: it never waits for room.
      room[e]  = e_op_q[e] == OP_NONE || 32'(e_count_q[e]) < SLOTS;
    end
    hit_oh = first_one(cov_q);
    hit    = cov_q != '0;
    hit_full     = (hit_oh & ~room) != '0;
    look         = active && tbl_ready_o && seen_q && !wr_end_q;
    trig_ready_o = look && !hit_full;
    trig_accept  = trig_valid_i && trig_ready_o;
    // An uncovered trigger is taken whatever the entries' room: its capture
    // does not wait for the one-hot search.
    miss_take    = trig_valid_i && look && !hit;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      seen_q   <= 1'b0;
      wr_end_q <= 1'b0;
      cov_q    <= '0;
    end else begin
      seen_q   <= trig_valid_i && !trig_ready_o;
      wr_end_q <= commit;
      cov_q    <= covers;
    end
  end

  // ---------------------------------------------------- descriptor queue
  // A descriptor as one vector {src, dst, gpu, bytes, op, wg, wf, last}
  // (yosys 0.23 loses unpacked arrays of packed structs).
  localparam int unsigned DESC_W = 2 * ADDR_W + GPU_W + BYTES_W + 1 + WG_ID_W + WF_ID_W + 1;
  logic [DESC_W-1:0]  fifo_q [DESC_DEPTH];
  logic [PTR_W-1:0]   fifo_head_q;
  logic [FCNT_W-1:0]  fifo_count_q;
  logic               fifo_full_q;  // fifo_count_q == DESC_DEPTH, registered (the step's path)
  logic               pop, push;
  logic [DESC_W-1:0]  push_d;

  // ---------------------------------------------------- address generator
  // A pipeline, so that no cycle holds more than one 48-bit add or one
  // search over the entries (the 4 ns clock, docs/blocks/dma_trigger.md
  // "Pipeline"):
  //   pick   a round-robin search over the entries holding a whole block
  //          (T3 §4.4 moves whole blocks), one-hot, registered (g_oh_q);
  //   fetch  the picked entry's fields, by index (g_*_q);
  //   read   the block's next tile from the tile buffer (t3_mem, one cycle);
  //          dst_base - src_base is registered meanwhile (g_delta_q);
  //   load   the tile's column registers take its address and that address
  //          + g_delta_q (the destination), and what is left of the segment
  //          and of the aligned block; the next tile's read goes out in the
  //          same cycle, so that the block's tiles follow without a gap;
  //   step   one descriptor per cycle into the queue: its size one compare
  //          of two registers, its addresses the column registers + the
  //          offset in the column (one add each, from flops).
  // A block's first descriptor enters the queue 4 cycles after its pick; the
  // next block is picked after its last descriptor has entered the queue.
  logic               blk_q;            // a block is picked and not yet all in the queue
  logic               pk_q;             // picked, its fields not yet fetched
  logic [ENTRIES-1:0] g_oh_q;           // the picked entry, one-hot
  logic [ENTRIES-1:0] rr_q;             // round-robin: the entries above the last picked
  logic [IDX_W-1:0]   g_e_q;            // the picked entry (from the fetch on)
  logic [SLOT_W-1:0]  g_rd_slot_q;      // the buffer slot of the block's next tile to read
  logic [CNT_W-1:0]   g_rd_left_q;      // the block's tiles still to read
  logic [CNT_W-1:0]   g_left_q;         // the block's tiles still to send
  logic [ADDR_W-1:0]  g_src_q, g_dst_q, g_delta_q;
  logic [GPU_W-1:0]   g_gpu_q;
  logic               g_op_q;           // UPDATE
  logic [DIM_W-1:0]   g_tr_q, g_m_q, g_tc_q;  // tile rows, M, tile columns as fetched
  logic [1:0]         g_eb_q;
  logic [COLB_W-1:0]  g_seg_q, g_colb_q;  // segment and column bytes (the cycle after the fetch)
  logic [DIM_W-1:0]   g_tcm1_q;         // tile columns - 1 (the cycle after the fetch)
  logic               rd_full_q;        // the buffer's rdata holds the next tile, not yet loaded
  logic               t_q;              // a tile is loaded: descriptors to send
  logic [DIM_W-1:0]   t_cleft_q;        // the tile's columns after this one
  logic [COLB_W-1:0]  t_off_q;          // the next burst's offset in the column segment
  logic [COLB_W-1:0]  t_rem_q;          // the segment's bytes from there
  logic [BYTES_W-1:0] t_tob_q;          // the bytes from there to the next aligned boundary
  logic [ADDR_W-1:0]  col_src_q, col_dst_q;  // the column segment's first byte, both sides
  logic [WG_ID_W-1:0] t_wg_q;
  logic [WF_ID_W-1:0] t_wf_q;

  logic [ENTRIES-1:0] start_oh, above;
  logic [IDX_W-1:0]   f_e;
  logic               start, step, col_done, tile_done, block_done, gen_pop, load, buf_re, buf_we;
  logic [BURST_W-1:0] burst_lg;
  logic [BYTES_W-1:0] boundary, boundary_q, bytes, nxt_lo, nxt_tob, ld_tob;
  logic [BUF_W-1:0]   buf_raddr, push_at, bw_addr_q;
  logic               bw_q;
  logic [TILE_W-1:0]  bw_data_q;
  logic [TILE_W-1:0]  buf_rdata;
  logic [WG_ID_W-1:0] rd_wg;
  logic [WF_ID_W-1:0] rd_wf;
  logic [ADDR_W-1:0]  rd_addr;
  logic [ENTRIES-1:0] whole, whole_up;
  always_comb begin
    pop = fifo_count_q != '0 && desc_ready_i;
    // pick: a block starts on an entry holding a whole block, round-robin:
    // the first such entry above the last picked (rr_q), else the first of
    // all. One-hot and registered: the entry's fields are fetched by index
    // in the next cycle.
    whole = '0;
    for (int e = 0; e < ENTRIES; e++)
      if (e_valid_q[e] && e_count_q[e] >= e_k_q[e]) whole[e] = 1'b1;
    whole_up = whole & rr_q;
    start    = active && !blk_q && whole != '0;
    start_oh = first_one(whole_up != '0 ? whole_up : whole);
    // The entries above the picked one: where the next search begins.
    for (int e = 0; e < ENTRIES; e++) above[e] = (start_oh & below(e)) != '0;
    f_e = one_hot_index(g_oh_q);

    // Bursts never cross a column segment nor a 2^burst-aligned boundary.
    // What is left of the segment and of the aligned block are registers,
    // so that a burst's size is one compare (the burst size is locked while
    // busy; a refused one, held to MAX_BURST_LOG2 here, moves nothing).
    burst_lg    = (32'(cfg_burst_log2_i) > MAX_BURST_LOG2) ? BURST_W'(MAX_BURST_LOG2)
                                                           : cfg_burst_log2_i;
    boundary    = BYTES_W'(1) << burst_lg;
    col_done    = 32'(t_rem_q) <= 32'(t_tob_q);
    bytes       = col_done ? BYTES_W'(t_rem_q) : t_tob_q;
    tile_done   = col_done && t_cleft_q == '0;
    block_done  = tile_done && g_left_q == CNT_W'(1);
    step        = active && t_q && (!fifo_full_q || pop);
    // The next column's and a loaded tile's distance to the boundary.
    nxt_lo      = BYTES_W'(col_src_q) + BYTES_W'(g_colb_q);
    nxt_tob     = boundary_q - (nxt_lo & (boundary_q - 1'b1));
    ld_tob      = boundary_q - (BYTES_W'(rd_addr) & (boundary_q - 1'b1));
    push        = step;
    gen_pop     = step && tile_done;

    push_d = {col_src_q + ADDR_W'(t_off_q), col_dst_q + ADDR_W'(t_off_q), g_gpu_q, bytes,
              g_op_q, t_wg_q, t_wf_q, block_done};

    // The next tile is loaded when none is, or as the last one ends; its
    // successor's read goes out in the cycle after (from registers only,
    // not from the step's late decision): a tile of one descriptor leaves
    // one idle cycle behind it, longer tiles none.
    load      = rd_full_q && (!t_q || gen_pop);
    buf_re    = rst_ni && blk_q && g_rd_left_q != '0 && !rd_full_q;
    buf_raddr = BUF_W'(g_e_q) * BUF_W'(SLOTS) + BUF_W'(g_rd_slot_q);

    // A trigger joins its entry's buffer at the tail: its count now, the
    // word one edge later from registers (bw_*_q), off the lookup's path. A
    // tile taken at one edge is picked at the next at the earliest and read
    // at the one after: the word is there.
    // Each entry's tail word from its flops, selected by the one-hot hit.
    push_at = '0;
    for (int e = 0; e < ENTRIES; e++)
      if (hit_oh[e]) push_at = push_at | (BUF_W'(e * SLOTS) + BUF_W'(slot_add(e_head_q[e], e_count_q[e])));
    buf_we  = rst_ni && bw_q;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) bw_q <= 1'b0;
    else         bw_q <= trig_accept && hit;
    bw_addr_q <= push_at;
    bw_data_q <= {trig_wg_id_i, trig_wf_id_i, trig_addr_i};
  end

  assign {rd_wg, rd_wf, rd_addr} = buf_rdata;

  t3_mem #(.DEPTH(BUF_N), .WIDTH(TILE_W)) u_buf (
    .clk_i   (clk_i),
    .we_i    (buf_we),
    .waddr_i (bw_addr_q),
    .wdata_i (bw_data_q),
    .re_i    (buf_re),
    .raddr_i (buf_raddr),
    .rdata_o (buf_rdata)
  );

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      blk_q       <= 1'b0;
      pk_q        <= 1'b0;
      g_oh_q      <= '0;
      rr_q        <= '0;
      g_e_q       <= '0;
      g_rd_slot_q <= '0;
      g_rd_left_q <= '0;
      g_left_q    <= '0;
      g_src_q     <= '0;
      g_dst_q     <= '0;
      g_delta_q   <= '0;
      g_gpu_q     <= '0;
      g_op_q      <= 1'b0;
      g_tr_q      <= '0;
      g_m_q       <= '0;
      g_tc_q      <= '0;
      g_eb_q      <= '0;
      g_seg_q     <= '0;
      g_colb_q    <= '0;
      g_tcm1_q    <= '0;
      rd_full_q   <= 1'b0;
    end else begin
      // pick: the entry's fields, fixed while its block is sent (a table
      // write to a busy entry is refused).
      if (start) begin
        blk_q  <= 1'b1;
        pk_q   <= 1'b1;
        g_oh_q <= start_oh;
        rr_q   <= above;
      end else if (step && block_done) begin
        blk_q <= 1'b0;
      end
      // fetch: the entry's fields, fixed while its block is sent (a table
      // write to a busy entry is refused).
      if (pk_q) begin
        pk_q        <= 1'b0;
        g_e_q       <= f_e;
        g_rd_slot_q <= e_head_q[f_e];
        g_rd_left_q <= e_k_q[f_e];
        g_left_q    <= e_k_q[f_e];
        g_src_q     <= e_src_q[f_e];
        g_dst_q     <= e_dst_q[f_e];
        g_gpu_q     <= e_gpu_q[f_e];
        g_op_q      <= e_op_q[f_e][0];
        g_tr_q      <= e_tr_q[f_e];
        g_m_q       <= e_m_q[f_e];
        g_tc_q      <= e_tc_q[f_e];
        g_eb_q      <= e_eb_q[f_e];
      end
      // read: what the tile's steps use, from the fetched fields (a load
      // comes two cycles after the fetch at the earliest), as g_delta_q.
      g_seg_q  <= COLB_W'(g_tr_q) << g_eb_q;
      g_colb_q <= COLB_W'(g_m_q) << g_eb_q;
      g_tcm1_q <= g_tc_q - 1'b1;
      if (gen_pop) g_left_q <= g_left_q - 1'b1;
      // read: the destination's offset, one cycle after the pick (a load
      // comes two cycles after it at the earliest).
      g_delta_q <= g_dst_q - g_src_q;
      if (buf_re) begin
        g_rd_slot_q <= slot_add(g_rd_slot_q, CNT_W'(1));
        g_rd_left_q <= g_rd_left_q - 1'b1;
      end
      if (buf_re)    rd_full_q <= 1'b1;
      else if (load) rd_full_q <= 1'b0;
    end
  end

  // The burst size as a register, off the load's and step's paths. It is
  // the value of the last cycle, never a different one: BURST is locked
  // while busy_o is high (the register block refuses the write), and a tile
  // taken at the edge a write to BURST lands is loaded 4 edges later at the
  // earliest (pick, fetch, read, load).
  always_ff @(posedge clk_i) boundary_q <= boundary;

  // load and step: the tile and its column segment.
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      t_q       <= 1'b0;
      t_cleft_q <= '0;
      t_off_q   <= '0;
      t_rem_q   <= '0;
      t_tob_q   <= '0;
      col_src_q <= '0;
      col_dst_q <= '0;
      t_wg_q    <= '0;
      t_wf_q    <= '0;
    end else if (load) begin
      t_q       <= 1'b1;
      t_cleft_q <= g_tcm1_q;
      t_off_q   <= '0;
      t_rem_q   <= g_seg_q;
      t_tob_q   <= ld_tob;
      col_src_q <= rd_addr;
      col_dst_q <= add_cs(rd_addr, g_delta_q);
      t_wg_q    <= rd_wg;
      t_wf_q    <= rd_wf;
    end else if (step) begin
      if (tile_done) begin
        t_q <= 1'b0;
      end else if (!col_done) begin
        // The burst ran to the boundary: the next one starts aligned.
        t_off_q <= t_off_q + COLB_W'(t_tob_q);
        t_rem_q <= t_rem_q - COLB_W'(t_tob_q);
        t_tob_q <= boundary_q;
      end else begin
        t_off_q   <= '0;
        t_rem_q   <= g_seg_q;
        t_tob_q   <= nxt_tob;
        t_cleft_q <= t_cleft_q - 1'b1;
        col_src_q <= col_src_q + ADDR_W'(g_colb_q);
        col_dst_q <= col_dst_q + ADDR_W'(g_colb_q);
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      fifo_head_q  <= '0;
      fifo_count_q <= '0;
      fifo_full_q  <= 1'b0;
    end else begin
      if (push) fifo_q[PTR_W'(32'(fifo_head_q) + 32'(fifo_count_q)) & PTR_W'(DESC_DEPTH - 1)] <= push_d;
      if (pop) fifo_head_q <= (fifo_head_q + 1'b1) & PTR_W'(DESC_DEPTH - 1);
      fifo_count_q <= fifo_count_q + FCNT_W'(push) - FCNT_W'(pop);
      fifo_full_q  <= fifo_count_q + FCNT_W'(push) - FCNT_W'(pop) == FCNT_W'(DESC_DEPTH);
    end
  end

  // -------------------------------------------------------------- entries
  // The tiles buffered over all entries (pend_q), kept beside the counts so
  // that busy_o (STATUS.BUSY, the BURST lock) is one register's zero test,
  // not an OR over every count on the register port's read path.
  localparam int unsigned PEND_W = $clog2(BUF_N + 1);
  logic [ENTRIES-1:0] push_v;
  logic [PEND_W-1:0]  pend_q;
  // Both next counts from the flop, the late events (a trigger taken, the
  // generator's pop) choosing last (timing: fifo_count_q -> pop -> step ->
  // gen_pop -> the count's carry chain was the block's path at 243.0 MHz).
  logic [PEND_W-1:0]  pend_up, pend_dn;
  assign pend_up = PEND_W'(t3_util_pkg::inc_dec(16'(pend_q), 1'b1));
  assign pend_dn = PEND_W'(t3_util_pkg::inc_dec(16'(pend_q), 1'b0));
  always_ff @(posedge clk_i) begin
    if (!rst_ni)                        pend_q <= '0;
    else if (push_v != '0 && !gen_pop)  pend_q <= pend_up;
    else if (gen_pop && push_v == '0)   pend_q <= pend_dn;
  end

  for (genvar e = 0; e < ENTRIES; e++) begin : g_entry
    logic push_e, pop_e;
    // trig_accept && hit_e == e, with this entry's own room in place of the
    // OR over all entries (hit_oh is one-hot): the lookup's path is short.
    assign push_e = trig_valid_i && look && hit_oh[e] && e_op_q[e] != OP_NONE &&
                    32'(e_count_q[e]) < SLOTS;
    assign pop_e  = gen_pop && g_oh_q[e];
    assign push_v[e] = push_e;
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
        if (commit && !wr_fault_any && wr_oh_q[e]) begin
          e_valid_q[e] <= wr_valid_q;
          e_op_q[e]    <= wr_op_q;
          e_src_q[e]   <= wr_src_q;
          e_dst_q[e]   <= wr_dst_q;
          e_last_q[e]  <= wr_valid_q ? last_q : '0;
          e_gpu_q[e]   <= wr_gpu_q;
          e_k_q[e]     <= wr_k_q;
          e_m_q[e]     <= wr_m_q;
          e_n_q[e]     <= wr_n_q;
          e_tr_q[e]    <= wr_tr_q;
          e_tc_q[e]    <= wr_tc_q;
          e_eb_q[e]    <= wr_eb_q;
        end
        if (pop_e) e_head_q[e] <= slot_add(e_head_q[e], CNT_W'(1));
        // The count +1 and -1 from flops; the late push and pop select.
        if (push_e && !pop_e)      e_count_q[e] <= CNT_W'(t3_util_pkg::inc_dec(16'(e_count_q[e]), 1'b1));
        else if (pop_e && !push_e) e_count_q[e] <= CNT_W'(t3_util_pkg::inc_dec(16'(e_count_q[e]), 1'b0));
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
      if (miss_take) begin
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
      if (miss_take)               stat_miss_q     <= stat_miss_q + 1'b1;
      if (pop)                     stat_descs_q    <= stat_descs_q + 1'b1;
      if (pop && desc_last_o)     stat_blocks_q   <= stat_blocks_q + 1'b1;
      if (trig_valid_i && !trig_ready_o) stat_stalls_q <= stat_stalls_q + 1'b1;
    end
  end

  // -------------------------------------------------------------- outputs
  logic [DESC_W-1:0] head;
  logic             rd_in;
  logic [IDX_W-1:0] rd_e;
  always_comb begin
    // Queue slots hold no reset value: the outputs show them only when valid.
    head         = fifo_count_q != '0 ? fifo_q[fifo_head_q] : '0;
    desc_valid_o = fifo_count_q != '0;
    {desc_src_o, desc_dst_o, desc_gpu_o, desc_bytes_o, desc_op_o, desc_wg_o, desc_wf_o,
     desc_last_o} = head;

    // An index above the table reads zeros. Indexed (a mux tree), not a
    // chain of compares: the register port reads it in the access phase,
    // combinationally (APB without wait states).
    rd_in = 32'(tbl_rd_idx_i) < ENTRIES;
    rd_e  = IDX_W'(tbl_rd_idx_i);
    tbl_rd_valid_o           = rd_in && e_valid_q[rd_e];
    tbl_rd_src_base_o        = rd_in ? e_src_q[rd_e] : '0;
    tbl_rd_dst_base_o        = rd_in ? e_dst_q[rd_e] : '0;
    tbl_rd_dst_gpu_o         = rd_in ? e_gpu_q[rd_e] : '0;
    tbl_rd_op_o              = rd_in ? e_op_q[rd_e] : '0;
    tbl_rd_tiles_per_block_o = rd_in ? e_k_q[rd_e] : '0;
    tbl_rd_m_o               = rd_in ? e_m_q[rd_e] : '0;
    tbl_rd_n_o               = rd_in ? e_n_q[rd_e] : '0;
    tbl_rd_elem_log2_o       = rd_in ? e_eb_q[rd_e] : '0;
    tbl_rd_tile_rows_o       = rd_in ? e_tr_q[rd_e] : '0;
    tbl_rd_tile_cols_o       = rd_in ? e_tc_q[rd_e] : '0;
    tbl_rd_pending_o         = rd_in ? e_count_q[rd_e] : '0;

    busy_o = blk_q || pend_q != '0 || !tbl_ready_o || fifo_count_q != '0;
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
