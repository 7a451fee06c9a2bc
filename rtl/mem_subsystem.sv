// The memory side of one GPU as T3 builds it (T3 Fig. 9, §4.2-§4.5): the
// MCA arbiter (rtl/mca_arbiter.sv) picks the compute or the communication
// stream's request into the DRAM command queue, whose occupancy it watches;
// a write entering the queue also enters the tracking queue (two entries),
// from which the Tracker (rtl/tracker.sv) counts it; while the tracking
// queue is full the arbiter's writes wait; the near-bank ALU
// (rtl/near_bank_alu.sv) executes the queue's head on the DRAM array
// (outside: the bank_* pins); the Tracker's triggers feed the DMA trigger
// table (rtl/dma_trigger.sv), whose burst descriptors leave for the DMA
// engine. One APB port reaches the four register windows (the address map
// of the description, rtl/mem_subsystem_map_pkg.sv: pages 0 Tracker, 1 DMA
// trigger table, 2 MCA arbiter, 3 near-bank ALU; any other page answers
// PSLVERR); intr_o ORs the four interrupts.
//
// The C++ cycle model hw/mem_subsystem/mem_subsystem.{h,cpp} is the same
// composition; testbench/mem_subsystem compares the two every cycle.
//
// Parameters: the list is hw/mem_subsystem/mem_subsystem.yaml; the
// blocks check their ranges at elaboration.
module mem_subsystem #(
  parameter int unsigned SETS           = 256,
  parameter int unsigned WAYS           = 8,
  parameter int unsigned WG_ID_W        = 12,
  parameter int unsigned WF_ID_W        = 3,
  parameter int unsigned ADDR_W         = 48,
  parameter int unsigned CNT_W          = 16,
  parameter int unsigned ENTRIES        = 16,
  parameter int unsigned SLOTS          = 8,
  parameter int unsigned DESC_DEPTH     = 4,
  parameter int unsigned GPU_W          = 4,
  parameter int unsigned DIM_W          = 16,
  parameter int unsigned MAX_BURST_LOG2 = 12,
  parameter int unsigned QUEUE_DEPTH    = 32,  // 2..63
  parameter int unsigned BURST_BYTES    = 32,
  parameter int unsigned BG             = 4,
  parameter int unsigned BANK_ADDR_W    = 20,
  parameter int unsigned T_CCDS         = 1,
  parameter int unsigned T_CCDL         = 2,
  parameter int unsigned T_CCDWL        = 4,
  parameter int unsigned STAT_W         = 32,
  localparam int unsigned DATA_W  = BURST_BYTES * 8,
  localparam int unsigned BG_W    = (BG > 1) ? $clog2(BG) : 1,
  localparam int unsigned OCC_W   = $clog2(QUEUE_DEPTH + 1),
  localparam int unsigned BYTES_W = MAX_BURST_LOG2 + 1
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,

  // Registers: the four blocks' windows.
  input  logic                   psel_i,
  input  logic                   penable_i,
  input  logic                   pwrite_i,
  input  logic [15:0]            paddr_i,
  input  logic [31:0]            pwdata_i,
  input  logic [3:0]             pstrb_i,
  output logic [31:0]            prdata_o,
  output logic                   pready_o,
  output logic                   pslverr_o,
  output logic                   intr_o,

  // The compute stream: the local producer's requests.
  input  logic                   cmp_valid_i,
  output logic                   cmp_ready_o,
  input  logic [1:0]             cmp_op_i,     // 0 READ, 1 STORE, 2 ADD (op-and-store)
  input  logic [1:0]             cmp_fmt_i,    // ADD lanes: 0 fp16, 1 bf16, 2 fp32
  input  logic [ADDR_W-1:0]      cmp_addr_i,   // the first element's byte address
  input  logic [DATA_W-1:0]      cmp_data_i,   // the burst holding it
  input  logic [BURST_BYTES-1:0] cmp_mask_i,   // its bytes written
  input  logic [WG_ID_W-1:0]     cmp_wg_i,
  input  logic [WF_ID_W-1:0]     cmp_wf_i,
  input  logic [CNT_W-1:0]       cmp_size_i,   // elements written
  // The communication stream: peers' remote stores and DMA updates, the DMA
  // engine's reads.
  input  logic                   com_valid_i,
  output logic                   com_ready_o,
  input  logic [1:0]             com_op_i,
  input  logic [1:0]             com_fmt_i,
  input  logic [ADDR_W-1:0]      com_addr_i,
  input  logic [DATA_W-1:0]      com_data_i,
  input  logic [BURST_BYTES-1:0] com_mask_i,
  input  logic [WG_ID_W-1:0]     com_wg_i,
  input  logic [WF_ID_W-1:0]     com_wf_i,
  input  logic [CNT_W-1:0]       com_size_i,
  input  logic [1:0]             com_src_i,    // 1 remote, 2 DMA (the Tracker counts all alike)

  // READ data, in request order.
  output logic                   rsp_valid_o,
  output logic [DATA_W-1:0]      rsp_data_o,

  // Burst descriptors to the DMA engine.
  output logic                   desc_valid_o,
  input  logic                   desc_ready_i,
  output logic [ADDR_W-1:0]      desc_src_o,
  output logic [ADDR_W-1:0]      desc_dst_o,
  output logic [GPU_W-1:0]       desc_gpu_o,
  output logic [BYTES_W-1:0]     desc_bytes_o,
  output logic                   desc_op_o,
  output logic [WG_ID_W-1:0]     desc_wg_o,
  output logic [WF_ID_W-1:0]     desc_wf_o,
  output logic                   desc_last_o,

  // The DRAM array.
  output logic                   bank_rd_o,
  output logic [BG_W-1:0]        bank_rd_bg_o,
  output logic [BANK_ADDR_W-1:0] bank_rd_addr_o,
  input  logic [DATA_W-1:0]      bank_rdata_i,
  output logic                   bank_wr_o,
  output logic [BG_W-1:0]        bank_wr_bg_o,
  output logic [BANK_ADDR_W-1:0] bank_wr_addr_o,
  output logic [DATA_W-1:0]      bank_wdata_o,
  output logic [BURST_BYTES-1:0] bank_wmask_o,

  input  logic                   learn_i,      // MCA: learn the producer's occupancy
  input  logic                   drain_i,      // MCA: the producer kernel's boundary
  output logic [OCC_W-1:0]       occupancy_o   // DRAM queue entries
);


  if (QUEUE_DEPTH < 2 || QUEUE_DEPTH > 63) begin : g_bad_queue_depth
    $error("QUEUE_DEPTH = %0d is out of range; allowed: 2..63", QUEUE_DEPTH);
  end
  // The near-bank ALU checks this one as its ADDR_W; named as the
  // subsystem's parameter here.
  if (BANK_ADDR_W < 1 || BANK_ADDR_W > 32) begin : g_bad_bank_addr_w
    $error("BANK_ADDR_W = %0d is out of range; allowed: 1..32", BANK_ADDR_W);
  end

  localparam int unsigned BURST_LOG2 = $clog2(BURST_BYTES);
  localparam int unsigned QIDX_W     = $clog2(QUEUE_DEPTH);
  localparam logic [1:0]  OP_STORE = 2'd1, OP_ADD = 2'd2;

  // ------------------------------------------------------------- registers
  // The windows: rtl/mem_subsystem_map_pkg.sv (from the description's map).
  localparam int N_WIN = mem_subsystem_map_pkg::N_WIN;
  localparam int unsigned W_TRK = mem_subsystem_map_pkg::WIN_TRACKER;
  localparam int unsigned W_DMA = mem_subsystem_map_pkg::WIN_DMA_TRIGGER;
  localparam int unsigned W_MCA = mem_subsystem_map_pkg::WIN_MCA_ARBITER;
  localparam int unsigned W_NBA = mem_subsystem_map_pkg::WIN_NEAR_BANK_ALU;
  logic [N_WIN-1:0] win_hit, win_sel;
  logic [N_WIN*32-1:0] prdata;  // window w's at [w*32 +: 32]
  logic [N_WIN-1:0] pready, pslverr, intr;
  assign win_hit = mem_subsystem_map_pkg::win_of(paddr_i[15:12]);
  assign win_sel = psel_i ? win_hit : '0;

  // ----------------------------------------------------------- the request
  // The request in the MCA arbiter's output register (the arbiter itself
  // carries no payload): both streams' requests are registered whenever
  // that register can take one (from registers: it is empty or its request
  // leaves), with which of them the arbiter took. So the grant, at the end
  // of the arbiter's decision, loads one flop, not the request's 400.
  localparam int unsigned REQ_W = 6 + ADDR_W + DATA_W + BURST_BYTES + WG_ID_W + WF_ID_W + CNT_W;
  logic [REQ_W-1:0]       rq_cmp_q, rq_com_q;
  logic                   rq_took_com_q, slot_free;
  logic [1:0]             pl_op, pl_fmt, pl_src;
  logic [ADDR_W-1:0]      pl_addr;
  logic [DATA_W-1:0]      pl_data;
  logic [BURST_BYTES-1:0] pl_mask;
  logic [WG_ID_W-1:0]     pl_wg;
  logic [WF_ID_W-1:0]     pl_wf;
  logic [CNT_W-1:0]       pl_size;
  assign {pl_op, pl_fmt, pl_src, pl_addr, pl_data, pl_mask, pl_wg, pl_wf, pl_size} =
      rq_took_com_q ? rq_com_q : rq_cmp_q;

  // ------------------------------------------------------ the DRAM queue
  logic [1:0]             q_op_q   [QUEUE_DEPTH];
  logic [1:0]             q_fmt_q  [QUEUE_DEPTH];
  logic [BG_W-1:0]        q_bg_q   [QUEUE_DEPTH];
  logic [BANK_ADDR_W-1:0] q_addr_q [QUEUE_DEPTH];
  logic [DATA_W-1:0]      q_data_q [QUEUE_DEPTH];
  logic [BURST_BYTES-1:0] q_mask_q [QUEUE_DEPTH];
  logic [QIDX_W-1:0]      head_q, head_nx_q, tail;
  logic [OCC_W-1:0]       count_q;
  // The head entry again, in registers: the near-bank ALU's command (its
  // timing check, its ready) starts at flops, not at a QUEUE_DEPTH-way read.
  localparam int unsigned QE_W = 4 + BG_W + BANK_ADDR_W + DATA_W + BURST_BYTES;
  logic [QE_W-1:0]        hd_q, q_new, q_next;
  logic [1:0]             hd_op, hd_fmt;
  logic [BG_W-1:0]        hd_bg;
  logic [BANK_ADDR_W-1:0] hd_addr;
  logic [DATA_W-1:0]      hd_data;
  logic [BURST_BYTES-1:0] hd_mask;
  logic                   hd_load;

  logic mca_out_valid, mca_out_ready, mca_cmp_ready, mca_com_ready, mca_out_data, mca_out_src;
  logic nba_cmd_ready, queue_full, pl_write, push, pop;
  logic trk_in_valid, trk_in_ready, trk_set_full, trig_valid, trig_ready;
  logic [WG_ID_W-1:0] trig_wg_id;
  logic [WF_ID_W-1:0] trig_wf_id;
  logic [ADDR_W-1:0]  trig_addr;

  // ------------------------------------------------- the tracking queue
  // The writes that entered the DRAM queue, until the Tracker takes them. Its
  // head (tq_h_q, the write presented to the Tracker) leaves it in every
  // cycle, taken or not, so that nothing but one register depends on the
  // Tracker's in_ready (its decision is most of a cycle): a refused write is
  // kept in tq_r_q and goes back in behind the writes waiting (tq_l_q), to be
  // offered again. The head is a register: the Tracker's set index fans out
  // from a flop, to its decisions and its rows' read ports.
  localparam int unsigned TF_W = WG_ID_W + WF_ID_W + ADDR_W + CNT_W + 2;
  logic [TF_W-1:0]        tq_h_q, tq_r_q, pl_trk;
  logic [TF_W-1:0]        tq_l_q [2];
  logic                   tq_h_v_q, tq_h_b_q, tq_r_v_q, tq_sf_q;
  logic [1:0]             tq_l_n_q, tq_l_b_q;
  logic                   tf_push, tq_room, tq_waits, tq_hold;
  // The order of what may become the head at an edge: the waiting writes,
  // then the refused one, then the write entering now.
  logic [TF_W-1:0]        tq_c [4];
  logic [3:0]             tq_c_v, tq_c_b;
  always_comb begin
    queue_full   = 32'(count_q) == QUEUE_DEPTH;
    pl_write     = pl_op == OP_STORE || pl_op == OP_ADD;
    // Room for the write entering now beside the waiting and the refused
    // ones (the head and two waiting: four candidates never arise).
    tq_room      = 32'(tq_l_n_q) + 32'(tq_r_v_q) <= 1;
    // While a refused write waits to be offered again, no write enters: the
    // queue empties, and the refused write is offered with nothing taken
    // in the cycle before, which the Tracker decides exactly (unless the
    // Tracker said its set is full: then the writes that free a way go on).
    tq_waits     = tq_r_v_q || (tq_h_v_q && tq_h_b_q) || tq_l_b_q != '0;
    tq_hold      = tq_waits && !tq_sf_q;
    // The request leaves the arbiter when the DRAM queue has room and, for a
    // write, the tracking queue too: both from registers.
    mca_out_ready = !queue_full && (!pl_write || (tq_room && !tq_hold));
    push          = mca_out_valid && mca_out_ready;
    slot_free     = !mca_out_valid || mca_out_ready;
    tf_push       = push && pl_write;
    pl_trk        = {pl_wg, pl_wf, pl_addr, pl_size, pl_src};
    tq_c[0] = tq_l_q[0];  tq_c_v[0] = tq_l_n_q != '0;  tq_c_b[0] = tq_l_b_q[0];
    tq_c[1] = tq_l_q[1];  tq_c_v[1] = tq_l_n_q == 2'd2; tq_c_b[1] = tq_l_b_q[1];
    tq_c[2] = tq_r_q;     tq_c_v[2] = tq_r_v_q;        tq_c_b[2] = 1'b1;
    tq_c[3] = pl_trk;     tq_c_v[3] = tf_push;         tq_c_b[3] = 1'b0;
  end

  assign trk_in_valid = tq_h_v_q;

  // The head and the waiting writes: the candidates in order, packed.
  // Their contents have no reset (read only while valid).
  logic [TF_W-1:0] tq_p [3];
  logic [2:0]      tq_p_b;
  logic [1:0]      tq_n;
  always_comb begin
    for (int k = 0; k < 3; k++) tq_p[k] = '0;
    tq_p_b = '0;
    tq_n   = '0;
    for (int k = 0; k < 4; k++)
      if (tq_c_v[k] && tq_n != 2'd3) begin
        tq_p[tq_n]   = tq_c[k];
        tq_p_b[tq_n] = tq_c_b[k];
        tq_n         = tq_n + 1'b1;
      end
  end

  always_ff @(posedge clk_i) begin
    tq_h_q    <= tq_p[0];
    tq_l_q[0] <= tq_p[1];
    tq_l_q[1] <= tq_p[2];
    tq_r_q    <= tq_h_q;  // the head leaves: kept in case it is refused
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      tq_h_v_q <= 1'b0;
      tq_h_b_q <= 1'b0;
      tq_l_n_q <= '0;
      tq_l_b_q <= '0;
      tq_r_v_q <= 1'b0;
      tq_sf_q  <= 1'b0;
    end else begin
      tq_h_v_q <= tq_n != '0;
      tq_h_b_q <= tq_p_b[0];
      tq_l_n_q <= tq_n == '0 ? 2'd0 : tq_n - 1'b1;
      tq_l_b_q <= tq_p_b[2:1];
      tq_r_v_q <= tq_h_v_q && !trk_in_ready;
      // The Tracker found a refused write's set full: it waits for a way,
      // which writes still to come free; cleared once no refused write is left.
      if (tq_h_v_q && tq_h_b_q && trk_set_full) tq_sf_q <= 1'b1;
      else if (!tq_waits) tq_sf_q <= 1'b0;
    end
  end

  logic [QIDX_W-1:0] head_inc;
  logic [OCC_W-1:0]  count_inc, count_dec;
  always_comb begin
    head_inc  = 32'(head_nx_q) == QUEUE_DEPTH - 1 ? '0 : head_nx_q + 1'b1;
    count_inc = OCC_W'(t3_util_pkg::inc_dec(16'(count_q), 1'b1));
    count_dec = OCC_W'(t3_util_pkg::inc_dec(16'(count_q), 1'b0));
  end

  always_comb begin
    pop           = count_q != '0 && nba_cmd_ready;
    // (head + count) mod QUEUE_DEPTH; the sum stays below twice the depth.
    tail          = 32'(head_q) + 32'(count_q) >= QUEUE_DEPTH
                        ? QIDX_W'(32'(head_q) + 32'(count_q) - QUEUE_DEPTH)
                        : QIDX_W'(32'(head_q) + 32'(count_q));
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      head_q    <= '0;
      head_nx_q <= QIDX_W'(1);
      count_q   <= '0;
    end else begin
      // The next head and the count one up and one down are made from
      // registers; the near-bank ALU's readiness (pop, late) and the push
      // only pick among them.
      if (pop) begin
        head_q    <= head_nx_q;
        head_nx_q <= head_inc;
      end
      if (push && !pop)      count_q <= count_inc;
      else if (pop && !push) count_q <= count_dec;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rq_cmp_q      <= '0;
      rq_com_q      <= '0;
      rq_took_com_q <= 1'b0;
    end else if (slot_free) begin
      rq_cmp_q      <= {cmp_op_i, cmp_fmt_i, 2'd0, cmp_addr_i, cmp_data_i, cmp_mask_i, cmp_wg_i,
                        cmp_wf_i, cmp_size_i};
      rq_com_q      <= {com_op_i, com_fmt_i, com_src_i, com_addr_i, com_data_i, com_mask_i, com_wg_i,
                        com_wf_i, com_size_i};
      rq_took_com_q <= mca_com_ready;
    end
  end

  // The head register takes the entry behind the head when one leaves, or
  // the request entering when it becomes the head (the queue empty, or one
  // entry leaving); it holds otherwise. No reset: read only while valid.
  always_comb begin
    q_new   = {pl_op, pl_fmt, BG_W'(pl_addr[BURST_LOG2 +: BG_W] & BG_W'(BG - 1)),
               BANK_ADDR_W'(pl_addr >> (BURST_LOG2 + $clog2(BG))), pl_data, pl_mask};
    q_next  = {q_op_q[head_nx_q], q_fmt_q[head_nx_q], q_bg_q[head_nx_q], q_addr_q[head_nx_q],
               q_data_q[head_nx_q], q_mask_q[head_nx_q]};
    hd_load = pop || count_q == '0;
    {hd_op, hd_fmt, hd_bg, hd_addr, hd_data, hd_mask} = hd_q;
  end

  always_ff @(posedge clk_i) begin
    if (hd_load) hd_q <= pop && 32'(count_q) >= 2 ? q_next : q_new;
  end

  // The queue's storage keeps no reset: an entry is read only once written.
  // A request's burst is interleaved over the bank groups (burst k in bank
  // group k mod BG); higher address bits than the array holds alias.
  always_ff @(posedge clk_i) begin
    if (push) begin
      {q_op_q[tail], q_fmt_q[tail], q_bg_q[tail], q_addr_q[tail], q_data_q[tail],
       q_mask_q[tail]} <= q_new;
    end
  end

  // -------------------------------------------------------------- blocks
  // The blocks' status outputs are in their registers too: left open here.
  /* verilator lint_off PINCONNECTEMPTY */
  mca_arbiter #(
    .DATA_W(1), .OCC_W(OCC_W), .STAT_W(STAT_W)
  ) u_mca (
    .clk_i, .rst_ni,
    .psel_i(win_sel[W_MCA]), .penable_i, .pwrite_i, .paddr_i(paddr_i[11:0]),
    .pwdata_i, .pstrb_i, .prdata_o(prdata[W_MCA*32 +: 32]), .pready_o(pready[W_MCA]),
    .pslverr_o(pslverr[W_MCA]), .intr_o(intr[W_MCA]),
    .cmp_valid_i, .cmp_ready_o(mca_cmp_ready), .cmp_data_i(1'b0),
    .com_valid_i, .com_ready_o(mca_com_ready), .com_data_i(1'b0),
    .out_valid_o(mca_out_valid), .out_ready_i(mca_out_ready), .out_data_o(mca_out_data),
    .out_src_o(mca_out_src),
    .occupancy_i(count_q), .learn_i, .drain_i,
    .learn_busy_o(), .learn_avg_o(), .thr_sel_o(), .thr_o(),
    .stat_grants_cmp_o(), .stat_grants_com_o(), .stat_wait_cmp_o(), .stat_wait_com_o(),
    .stat_starved_o()
  );

  tracker #(
    .SETS(SETS), .WAYS(WAYS), .WG_ID_W(WG_ID_W), .WF_ID_W(WF_ID_W), .ADDR_W(ADDR_W),
    .CNT_W(CNT_W), .STAT_W(STAT_W)
  ) u_tracker (
    .clk_i, .rst_ni,
    .psel_i(win_sel[W_TRK]), .penable_i, .pwrite_i, .paddr_i(paddr_i[11:0]),
    .pwdata_i, .pstrb_i, .prdata_o(prdata[W_TRK*32 +: 32]), .pready_o(pready[W_TRK]),
    .pslverr_o(pslverr[W_TRK]), .intr_o(intr[W_TRK]),
    .in_valid_i(trk_in_valid), .in_ready_o(trk_in_ready), .in_wg_id_i(tq_h_q[TF_W-1 -: WG_ID_W]),
    .in_wf_id_i(tq_h_q[TF_W-WG_ID_W-1 -: WF_ID_W]), .in_addr_i(tq_h_q[CNT_W+2 +: ADDR_W]),
    .in_size_i(tq_h_q[2 +: CNT_W]), .in_src_i(tq_h_q[1:0]),
    .trig_valid_o(trig_valid), .trig_ready_i(trig_ready), .trig_wg_id_o(trig_wg_id),
    .trig_wf_id_o(trig_wf_id), .trig_addr_o(trig_addr),
    .stat_updates_o(), .stat_triggers_o(), .stat_stalls_o(), .stat_untracked_o(), .live_o(),
    .set_full_o(trk_set_full)
  );

  dma_trigger #(
    .ENTRIES(ENTRIES), .SLOTS(SLOTS), .DESC_DEPTH(DESC_DEPTH), .ADDR_W(ADDR_W),
    .WG_ID_W(WG_ID_W), .WF_ID_W(WF_ID_W), .GPU_W(GPU_W), .DIM_W(DIM_W),
    .MAX_BURST_LOG2(MAX_BURST_LOG2), .STAT_W(STAT_W)
  ) u_dma (
    .clk_i, .rst_ni,
    .psel_i(win_sel[W_DMA]), .penable_i, .pwrite_i, .paddr_i(paddr_i[11:0]),
    .pwdata_i, .pstrb_i, .prdata_o(prdata[W_DMA*32 +: 32]), .pready_o(pready[W_DMA]),
    .pslverr_o(pslverr[W_DMA]), .intr_o(intr[W_DMA]),
    .trig_valid_i(trig_valid), .trig_ready_o(trig_ready), .trig_wg_id_i(trig_wg_id),
    .trig_wf_id_i(trig_wf_id), .trig_addr_i(trig_addr),
    .desc_valid_o, .desc_ready_i, .desc_src_o, .desc_dst_o, .desc_gpu_o, .desc_bytes_o,
    .desc_op_o, .desc_wg_o, .desc_wf_o, .desc_last_o,
    .tbl_err_o(), .tbl_err_cause_o(), .miss_o(), .miss_wg_o(), .miss_wf_o(), .miss_addr_o(),
    .stat_triggers_o(), .stat_miss_o(), .stat_descs_o(), .stat_blocks_o(), .stat_stalls_o(),
    .busy_o()
  );

  near_bank_alu #(
    .BURST_BYTES(BURST_BYTES), .BG(BG), .ADDR_W(BANK_ADDR_W), .T_CCDS(T_CCDS),
    .T_CCDL(T_CCDL), .T_CCDWL(T_CCDWL), .STAT_W(STAT_W)
  ) u_nba (
    .clk_i, .rst_ni,
    .psel_i(win_sel[W_NBA]), .penable_i, .pwrite_i, .paddr_i(paddr_i[11:0]),
    .pwdata_i, .pstrb_i, .prdata_o(prdata[W_NBA*32 +: 32]), .pready_o(pready[W_NBA]),
    .pslverr_o(pslverr[W_NBA]), .intr_o(intr[W_NBA]),
    .cmd_valid_i(count_q != '0), .cmd_ready_o(nba_cmd_ready),
    .cmd_op_i(hd_op), .cmd_fmt_i(hd_fmt), .cmd_bg_i(hd_bg),
    .cmd_addr_i(hd_addr), .cmd_data_i(hd_data), .cmd_mask_i(hd_mask),
    .bg_ready_o(),
    .bank_rd_o, .bank_rd_bg_o, .bank_rd_addr_o, .bank_rdata_i,
    .bank_wr_o, .bank_wr_bg_o, .bank_wr_addr_o, .bank_wdata_o, .bank_wmask_o,
    .rsp_valid_o, .rsp_data_o,
    .err_o(), .stat_reads_o(), .stat_stores_o(), .stat_adds_o(), .stat_refused_o(),
    .stat_hazard_stalls_o(), .stat_timing_stalls_o()
  );

  /* verilator lint_on PINCONNECTEMPTY */

  // ------------------------------------------------------------- outputs
  t3_apb_mux #(.N_WIN(N_WIN)) u_apb_mux (
    .psel_i, .penable_i, .win_hit_i(win_hit), .prdata_i(prdata), .pready_i(pready),
    .pslverr_i(pslverr), .intr_i(intr), .prdata_o, .pready_o, .pslverr_o, .intr_o
  );

  assign cmp_ready_o = mca_cmp_ready;
  assign com_ready_o = mca_com_ready;
  assign occupancy_o = count_q;

  // The arbiter's payload bit and source: the request beside it says both.
  logic unused_mca;
  assign unused_mca = mca_out_data ^ mca_out_src;

endmodule
