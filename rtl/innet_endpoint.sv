// A GPU's side of the in-network fabric (ISCA 2020 in-network collectives
// paper, §IV: the endpoint's DMA and its controller), composed of twelve
// blocks: the DMA credit controller (u_dc, rtl/dma_credit.sv) and its result
// path (u_res, rtl/ep_res.sv), the translation windows (u_win,
// rtl/ep_window.sv), the transmit engine (u_tx, rtl/ep_tx.sv), the receive
// engine (u_rx, rtl/ep_rx.sv) with the final add (u_fin, rtl/ep_final.sv),
// the request receiver (u_req, rtl/ep_req.sv) with the deterministic add
// (u_det, rtl/ep_det.sv), the home's merge and sweep (u_home,
// rtl/ep_home.sv), the contribution counters (u_cnt, rtl/ep_count.sv), the
// response queue (u_rspq, rtl/ep_rspq.sv) and the memory arbiter (u_arb,
// rtl/ep_mem_arb.sv), whose lanes are the GPU memory's, on the pins. Both
// fabric streams in wait in an input queue (rtl/t3_fifo.sv) before their
// engine (ep_rx and ep_req take registered inputs). The counters' port is
// four: ep_rx, ep_req, and ep_home's one port split by its op (its CLEAR,
// whose grant releases the held RESULT in the response queue, and its sweep's
// READ). One APB port reaches the twelve register windows
// (rtl/innet_endpoint_map_pkg.sv: pages 0 dma_credit, 1 ep_window, 2 ep_tx,
// 3 ep_count, 4 ep_rx, 5 ep_final, 6 ep_req, 7 ep_home, 8 ep_det, 9 ep_rspq,
// 10 ep_mem_arb, 11 ep_res; pages 12..15 answer PSLVERR); intr_o ORs the
// twelve interrupts.
//
// The C++ cycle model of the composition (hw/innet_endpoint) is the same
// wiring, pin for pin; a co-simulation compares the two every cycle.
// Parameters: the list is hw/innet_endpoint/innet_endpoint.yaml; the blocks
// check the ranges of their own, this module the composition's narrower ones.
module innet_endpoint #(
  parameter int unsigned FLIT_W      = 128,
  parameter int unsigned MAX_LEN     = 4,
  parameter int unsigned CTRS        = 8,
  parameter int unsigned CMD_LEN_W   = 20,
  parameter int unsigned RETRY_W     = 8,
  parameter int unsigned TIMEOUT_W   = 16,
  parameter int unsigned CMD_DEPTH   = 4,
  parameter int unsigned CPL_DEPTH   = 8,
  parameter int unsigned WINDOWS     = 4,
  parameter int unsigned COUNT_DEPTH = 4096,
  parameter int unsigned MEM_BYTES   = 1048576,
  parameter int unsigned SLOTS       = 10,
  parameter int unsigned HOME_Q      = 8,
  parameter int unsigned DETQ        = 8,
  parameter int unsigned RESQ        = 4,
  parameter int unsigned FINQ        = 4,
  parameter int unsigned BUF         = 8,
  parameter int unsigned MEM_OPS     = 4,
  parameter int unsigned IN_DEPTH    = 10,
  parameter int unsigned STAT_W      = 32,
  localparam int unsigned CTR_W       = ((1) > ($clog2(CTRS)) ? (1) : ($clog2(CTRS))),
  localparam int unsigned WIN_W       = ((1) > ($clog2(WINDOWS)) ? (1) : ($clog2(WINDOWS))),
  // The engines' memory tags (each block's own formula): ep_tx's queue slot,
  // a response slot (ep_home, ep_req), ep_det's ring place, ep_final's flit.
  localparam int unsigned TX_TAG_W    = $clog2(2 * (1 + MAX_LEN)),
  localparam int unsigned SLOT_W      = $clog2(SLOTS),
  localparam int unsigned DET_TAG_W   = $clog2(BUF),
  localparam int unsigned FIN_TAG_W   = ((1) > ($clog2(MAX_LEN)) ? (1) : ($clog2(MAX_LEN))),
  localparam int unsigned TAG_AB_W    = (TX_TAG_W > SLOT_W) ? TX_TAG_W : SLOT_W,
  localparam int unsigned TAG_CD_W    = (DET_TAG_W > FIN_TAG_W) ? DET_TAG_W : FIN_TAG_W,
  localparam int unsigned ARB_TAG_W   = (TAG_AB_W > TAG_CD_W) ? TAG_AB_W : TAG_CD_W,
  localparam int unsigned LTAG_W      = 4 + ARB_TAG_W,
  localparam int unsigned LADDR_BUS_W = (48 * MEM_OPS + 127) / 128 * 128,
  localparam int unsigned LTAG_BUS_W  = (LTAG_W * MEM_OPS + 127) / 128 * 128
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,

  // Registers: the twelve blocks' windows.
  input  logic                          psel_i,
  input  logic                          penable_i,
  input  logic                          pwrite_i,
  input  logic [15:0]                   paddr_i,
  input  logic [31:0]                   pwdata_i,
  input  logic [3:0]                    pstrb_i,
  output logic [31:0]                   prdata_o,
  output logic                          pready_o,
  output logic                          pslverr_o,
  output logic                          intr_o,

  // This GPU's port number on the fabric (a strap; ep_tx's NODE register
  // says the same for the copies).
  input  logic [7:0]                    node_i,

  // The processor's requests (the DMA credit controller's).
  input  logic                          cmd_valid_i,
  output logic                          cmd_ready_o,
  input  logic [47:0]                   cmd_local_addr_i,
  input  logic [47:0]                   cmd_net_addr_i,
  input  logic [CMD_LEN_W-1:0]          cmd_len_i,
  input  logic [1:0]                    cmd_red_op_i,
  input  logic [1:0]                    cmd_dtype_i,
  input  logic                          cmd_pull_i,
  input  logic [7:0]                    cmd_src_i,
  input  logic [7:0]                    cmd_dst_i,
  input  logic [7:0]                    cmd_tag_i,
  // The completion record written in this cycle.
  output logic                          cpl_wr_o,
  output logic [2:0]                    cpl_status_o,
  output logic [CTR_W-1:0]              cpl_ctr_o,
  output logic [7:0]                    cpl_tag_o,

  // The fabric port: a stream per class each way (docs/packet.md).
  input  logic                          req_in_valid_i,
  output logic                          req_in_ready_o,
  input  logic [FLIT_W-1:0]             req_in_flit_i,
  input  logic                          rsp_in_valid_i,
  output logic                          rsp_in_ready_o,
  input  logic [FLIT_W-1:0]             rsp_in_flit_i,
  output logic                          req_out_valid_o,
  input  logic                          req_out_ready_i,
  output logic [FLIT_W-1:0]             req_out_flit_o,
  output logic                          rsp_out_valid_o,
  input  logic                          rsp_out_ready_i,
  output logic [FLIT_W-1:0]             rsp_out_flit_o,

  // The GPU memory's lanes (ep_mem_arb's): lane l's fields at [l*W +: W].
  output logic [MEM_OPS-1:0]            mem_valid_o,
  output logic [(2 * MEM_OPS)-1:0]      mem_op_o,
  output logic [(2 * MEM_OPS)-1:0]      mem_dtype_o,
  output logic [LADDR_BUS_W-1:0]        mem_addr_o,
  output logic [(FLIT_W * MEM_OPS)-1:0] mem_data_o,
  output logic [LTAG_BUS_W-1:0]         mem_tag_o,
  input  logic [MEM_OPS-1:0]            ans_valid_i,
  input  logic [LTAG_BUS_W-1:0]         ans_tag_i,
  input  logic [(FLIT_W * MEM_OPS)-1:0] ans_data_i,

  // The copy engine's command at the head of its queue (ep_tx's), and the
  // WRITE flits a copy window takes (ep_req's).
  input  logic                          cp_valid_i,
  output logic                          cp_done_o,
  input  logic [47:0]                   cp_local_i,
  input  logic [47:0]                   cp_net_i,
  input  logic [31:0]                   cp_flits_i,
  input  logic [7:0]                    cp_dst_i,
  output logic                          cp_rx_o,
  output logic [WIN_W-1:0]              cp_win_o,

  // Nothing in flight: the engines idle, the input queues empty, the
  // counters' reset walk done.
  output logic                          idle_o
);

  // The composition's own rules, and the ranges where a block alone would
  // take more (dma_credit: FLIT_W 512, MAX_LEN 255; ep_window: COUNT_DEPTH
  // 2^20); the blocks check the rest by the same names.
  if (FLIT_W < 128 || FLIT_W > 256 || (FLIT_W & (FLIT_W - 1)) != 0) begin : g_bad_flit_w
    $error("FLIT_W = %0d is out of range; allowed: a power of two from 128 to 256", FLIT_W);
  end
  if (MAX_LEN < 1 || MAX_LEN > 16) begin : g_bad_max_len
    $error("MAX_LEN = %0d is out of range; allowed: 1..16", MAX_LEN);
  end
  // dma_credit checks it as its LEN_W; named as the endpoint's parameter here.
  if (CMD_LEN_W < 1 || CMD_LEN_W > 24) begin : g_bad_cmd_len_w
    $error("CMD_LEN_W = %0d is out of range; allowed: 1..24", CMD_LEN_W);
  end
  if (COUNT_DEPTH < 2 || COUNT_DEPTH > 65536) begin : g_bad_count_depth
    $error("COUNT_DEPTH = %0d is out of range; allowed: 2..65536", COUNT_DEPTH);
  end
  if (SLOTS >= 2 && SLOTS <= 64 && SLOTS < 1 + MAX_LEN) begin : g_small_slots
    $error("SLOTS = %0d is out of range; allowed: %0d..64 (a whole packet: 1 + MAX_LEN)",
           SLOTS, 1 + MAX_LEN);
  end
  if (IN_DEPTH < 2 || IN_DEPTH > 64) begin : g_bad_in_depth
    $error("IN_DEPTH = %0d is out of range; allowed: 2..64", IN_DEPTH);
  end else if (IN_DEPTH < 1 + MAX_LEN) begin : g_small_in_depth
    $error("IN_DEPTH = %0d is out of range; allowed: %0d..64 (a whole packet: 1 + MAX_LEN)",
           IN_DEPTH, 1 + MAX_LEN);
  end

  // The blocks' widths, by their own formulas.
  localparam int unsigned LINE_W = $clog2(COUNT_DEPTH);
  localparam int unsigned LEN_W  = $clog2(MAX_LEN + 1);
  localparam int unsigned TBL_W  = (WINDOWS * ep_window_pkg::REC_W + 127) / 128 * 128;
  localparam int unsigned IC_W   = $clog2(IN_DEPTH + 1);
  // ep_count: ep_rx, ep_req, ep_home's CLEAR, ep_home's sweep READ; its
  // counts 8 bits (the engines' count pins are).
  localparam int unsigned CNT_PORTS = 4;
  localparam int unsigned CNT_W     = 8;
  localparam logic [1:0]  CNT_CLEAR = 2'd2;  // ep_count's op code
  // ep_mem_arb: the engines' ports in the model's order, each engine's read
  // before its write (port 0 first); its address and tag buses padded to
  // multiples of 128 bits (its ADDR_BUS_W, TAG_BUS_W).
  localparam int unsigned ARB_PORTS  = 10;
  localparam int unsigned ADDR_BUS_W = (48 * ARB_PORTS + 127) / 128 * 128;
  localparam int unsigned TAG_BUS_W  = (ARB_TAG_W * ARB_PORTS + 127) / 128 * 128;
  localparam int unsigned P_RX_W = 0, P_HOME_R = 1, P_HOME_W = 2, P_DET_R = 3, P_DET_W = 4,
                          P_FIN_R = 5, P_FIN_W = 6, P_REQ_R = 7, P_REQ_W = 8, P_TX_R = 9;
  localparam logic [1:0]  MOP_READ = 2'd0, MOP_STORE = 2'd1, MOP_ADD = 2'd2;  // ep_mem_arb's ops

  // ------------------------------------------------------------- registers
  // The windows: rtl/innet_endpoint_map_pkg.sv (from the description's map).
  localparam int N_WIN = innet_endpoint_map_pkg::N_WIN;
  localparam int unsigned W_DC   = innet_endpoint_map_pkg::WIN_DMA_CREDIT;
  localparam int unsigned W_WIN  = innet_endpoint_map_pkg::WIN_EP_WINDOW;
  localparam int unsigned W_TX   = innet_endpoint_map_pkg::WIN_EP_TX;
  localparam int unsigned W_CNT  = innet_endpoint_map_pkg::WIN_EP_COUNT;
  localparam int unsigned W_RX   = innet_endpoint_map_pkg::WIN_EP_RX;
  localparam int unsigned W_FIN  = innet_endpoint_map_pkg::WIN_EP_FINAL;
  localparam int unsigned W_REQ  = innet_endpoint_map_pkg::WIN_EP_REQ;
  localparam int unsigned W_HOME = innet_endpoint_map_pkg::WIN_EP_HOME;
  localparam int unsigned W_DET  = innet_endpoint_map_pkg::WIN_EP_DET;
  localparam int unsigned W_RSPQ = innet_endpoint_map_pkg::WIN_EP_RSPQ;
  localparam int unsigned W_ARB  = innet_endpoint_map_pkg::WIN_EP_MEM_ARB;
  localparam int unsigned W_RES  = innet_endpoint_map_pkg::WIN_EP_RES;
  logic [N_WIN-1:0] win_hit, win_sel;
  logic [N_WIN*32-1:0] prdata;  // window w's at [w*32 +: 32]
  logic [N_WIN-1:0] pready, pslverr, intr;
  assign win_hit = innet_endpoint_map_pkg::win_of(paddr_i[15:12]);
  assign win_sel = psel_i ? win_hit : '0;

  // ---------------------------------------------------------------- wiring
  // Between the blocks: each net named by the instance that drives it.
  logic              dc_pkt_valid, dc_res_ready;
  logic [FLIT_W-1:0] dc_pkt_hdr;
  logic [47:0]       dc_pkt_local_addr;

  logic [TBL_W-1:0]  tbl;

  logic              tx_pkt_ready, tx_mr_valid, tx_idle;
  logic [47:0]       tx_mr_addr;
  logic [TX_TAG_W-1:0] tx_mr_tag;

  logic [CNT_PORTS-1:0] cnt_ready, cnt_rsp_valid;
  logic [1:0]        cnt_rsp_code;
  logic [CNT_W-1:0]  cnt_rsp_count;
  logic [LEN_W-1:0]  cnt_rsp_len;
  logic              cnt_rsp_whole, cnt_clearing;

  logic              rx_in_ready, rx_cnt_valid, rx_cnt_whole_ok;
  logic [1:0]        rx_cnt_op;
  logic [LINE_W-1:0] rx_cnt_line;
  logic [7:0]        rx_cnt_n, rx_cnt_limit;
  logic [LEN_W-1:0]  rx_cnt_len;
  logic              rx_mw_valid, rx_mw_add;
  logic [47:0]       rx_mw_addr;
  logic [FLIT_W-1:0] rx_mw_data;
  logic [1:0]        rx_mw_dtype;
  logic              rx_res_valid;
  logic [FLIT_W-1:0] rx_res_hdr;
  logic              rx_fin_valid;
  logic [47:0]       rx_fin_src, rx_fin_dst;
  logic [FLIT_W-1:0] rx_fin_hdr;
  logic              rx_home, rx_merging, rx_idle;
  logic [WIN_W-1:0]  rx_home_win;
  logic [LINE_W-1:0] rx_home_line, rx_merge_line;
  logic [LEN_W-1:0]  rx_home_len;

  logic              fin_ready, fin_mr_valid, fin_mw_valid, fin_mw_add, fin_res_valid, fin_idle;
  logic [47:0]       fin_mr_addr, fin_mw_addr;
  logic [FIN_TAG_W-1:0] fin_mr_tag;
  logic [FLIT_W-1:0] fin_mw_data, fin_res_hdr;
  logic [1:0]        fin_mw_dtype;

  logic              req_in_ready, req_cnt_valid, req_cnt_whole_ok;
  logic [1:0]        req_cnt_op;
  logic [LINE_W-1:0] req_cnt_line;
  logic [7:0]        req_cnt_n, req_cnt_limit;
  logic [LEN_W-1:0]  req_cnt_len;
  logic              req_mw_valid, req_mw_add;
  logic [47:0]       req_mw_addr;
  logic [FLIT_W-1:0] req_mw_data;
  logic [1:0]        req_mw_dtype;
  logic              req_rq_valid;
  logic [FLIT_W-1:0] req_rq_hdr;
  logic [LEN_W-1:0]  req_rq_len;
  logic              req_mr_valid;
  logic [47:0]       req_mr_addr;
  logic [SLOT_W-1:0] req_mr_tag;
  logic              req_det_valid, req_idle;
  logic [WIN_W-1:0]  req_det_win;
  logic [LINE_W-1:0] req_det_line;
  logic [LEN_W-1:0]  req_det_len;

  logic              home_hq_ready, home_cnt_valid;
  logic [1:0]        home_cnt_op;
  logic [LINE_W-1:0] home_cnt_line;
  logic              home_rq_valid;
  logic [FLIT_W-1:0] home_rq_hdr;
  logic [LEN_W-1:0]  home_rq_len;
  logic              home_mr_valid;
  logic [47:0]       home_mr_addr;
  logic [SLOT_W-1:0] home_mr_tag;
  logic              home_mw_valid;
  logic [47:0]       home_mw_addr;
  logic [FLIT_W-1:0] home_mw_data;
  logic              home_res_valid, home_idle;
  logic [FLIT_W-1:0] home_res_hdr;

  logic              det_ready, det_mr_valid, det_mw_valid, det_mw_add, det_hq_valid, det_idle;
  logic [47:0]       det_mr_addr, det_mw_addr;
  logic [DET_TAG_W-1:0] det_mr_tag;
  logic [FLIT_W-1:0] det_mw_data;
  logic [1:0]        det_mw_dtype;
  logic [WIN_W-1:0]  det_hq_win;
  logic [LINE_W-1:0] det_hq_line;
  logic [LEN_W-1:0]  det_hq_len;

  logic              rspq_hrq_ready, rspq_prq_ready, rspq_idle;
  logic [SLOT_W-1:0] rspq_hrq_slot, rspq_prq_slot;

  logic [ARB_PORTS-1:0]          arb_ready, md_valid;
  logic [TAG_BUS_W-1:0]          md_tag;
  logic [FLIT_W*ARB_PORTS-1:0]   md_data;

  logic              res_rx_ready, res_home_ready, res_fin_ready, res_valid;
  logic [FLIT_W-1:0] res_hdr;

  // ----------------------------------------------------------- input queues
  // A stream's flits wait here for their engine (ep_rx and ep_req take their
  // input from a register); nothing is taken in a reset cycle, as in
  // rtl/innet_switch.sv.
  logic              req_q_valid, req_q_full, rsp_q_valid, rsp_q_full;
  logic [FLIT_W-1:0] req_q_head, rsp_q_head;
  logic [IC_W-1:0]   unused_req_q_count, unused_rsp_q_count;

  t3_fifo #(.DEPTH(IN_DEPTH), .WIDTH(FLIT_W)) u_req_q (
    .clk_i, .rst_ni,
    .push_i(rst_ni && req_in_valid_i && !req_q_full), .wdata_i(req_in_flit_i),
    .pop_i(req_q_valid && req_in_ready),
    .valid_o(req_q_valid), .rdata_o(req_q_head), .full_o(req_q_full),
    .count_o(unused_req_q_count)
  );
  t3_fifo #(.DEPTH(IN_DEPTH), .WIDTH(FLIT_W)) u_rsp_q (
    .clk_i, .rst_ni,
    .push_i(rst_ni && rsp_in_valid_i && !rsp_q_full), .wdata_i(rsp_in_flit_i),
    .pop_i(rsp_q_valid && rx_in_ready),
    .valid_o(rsp_q_valid), .rdata_o(rsp_q_head), .full_o(rsp_q_full),
    .count_o(unused_rsp_q_count)
  );
  assign req_in_ready_o = rst_ni && !req_q_full;
  assign rsp_in_ready_o = rst_ni && !rsp_q_full;

  // ------------------------------------------------------------- counters
  // ep_home has one counter port for two kinds of request: its CLEAR goes
  // on port 2, whose grant is the response queue's release (hrel_i), its
  // sweep's READ on port 3, last (the sweep reads when no engine asks).
  // ep_home has no n/limit/len/whole_ok: a READ and a CLEAR read none.
  logic [CNT_PORTS-1:0]        cnt_valid, cnt_whole_ok;
  logic [2*CNT_PORTS-1:0]      cnt_op;
  logic [LINE_W*CNT_PORTS-1:0] cnt_line;
  logic [CNT_W*CNT_PORTS-1:0]  cnt_n, cnt_limit;
  logic [LEN_W*CNT_PORTS-1:0]  cnt_len;
  logic                        home_clear;
  assign home_clear   = home_cnt_op == CNT_CLEAR;
  assign cnt_valid    = {home_cnt_valid && !home_clear, home_cnt_valid && home_clear,
                         req_cnt_valid, rx_cnt_valid};
  assign cnt_op       = {home_cnt_op, home_cnt_op, req_cnt_op, rx_cnt_op};
  assign cnt_line     = {home_cnt_line, home_cnt_line, req_cnt_line, rx_cnt_line};
  assign cnt_n        = {CNT_W'(0), CNT_W'(0), req_cnt_n, rx_cnt_n};
  assign cnt_limit    = {CNT_W'(0), CNT_W'(0), req_cnt_limit, rx_cnt_limit};
  assign cnt_len      = {LEN_W'(0), LEN_W'(0), req_cnt_len, rx_cnt_len};
  assign cnt_whole_ok = {1'b1, 1'b1, req_cnt_whole_ok, rx_cnt_whole_ok};

  // ------------------------------------------------------ the memory ports
  // Port p's request at bit p, [2p +: 2], [48p +: 48], [FLIT_W*p +: FLIT_W],
  // [ARB_TAG_W*p +: ARB_TAG_W]; the buses' padding 0. Reads carry op 0,
  // dtype 0, data 0; writes no tag. A write's op is an add where its engine
  // says so (ep_home's is always a store, of type 0); the tags are widened to
  // the arbiter's and narrowed back on the answers.
  logic [ARB_PORTS-1:0]        arb_valid;
  logic [2*ARB_PORTS-1:0]      arb_op, arb_dtype;
  logic [ADDR_BUS_W-1:0]       arb_addr;
  logic [FLIT_W*ARB_PORTS-1:0] arb_data;
  logic [TAG_BUS_W-1:0]        arb_tag;
  always_comb begin
    arb_valid = '0;
    arb_op    = '0;
    arb_dtype = '0;
    arb_addr  = '0;
    arb_data  = '0;
    arb_tag   = '0;

    arb_valid[P_RX_W]                     = rx_mw_valid;
    arb_op[2*P_RX_W +: 2]                 = rx_mw_add ? MOP_ADD : MOP_STORE;
    arb_dtype[2*P_RX_W +: 2]              = rx_mw_dtype;
    arb_addr[48*P_RX_W +: 48]             = rx_mw_addr;
    arb_data[FLIT_W*P_RX_W +: FLIT_W]     = rx_mw_data;

    arb_valid[P_HOME_R]                   = home_mr_valid;
    arb_op[2*P_HOME_R +: 2]               = MOP_READ;
    arb_addr[48*P_HOME_R +: 48]           = home_mr_addr;
    arb_tag[ARB_TAG_W*P_HOME_R +: ARB_TAG_W] = ARB_TAG_W'(home_mr_tag);

    arb_valid[P_HOME_W]                   = home_mw_valid;
    arb_op[2*P_HOME_W +: 2]               = MOP_STORE;
    arb_addr[48*P_HOME_W +: 48]           = home_mw_addr;
    arb_data[FLIT_W*P_HOME_W +: FLIT_W]   = home_mw_data;

    arb_valid[P_DET_R]                    = det_mr_valid;
    arb_op[2*P_DET_R +: 2]                = MOP_READ;
    arb_addr[48*P_DET_R +: 48]            = det_mr_addr;
    arb_tag[ARB_TAG_W*P_DET_R +: ARB_TAG_W] = ARB_TAG_W'(det_mr_tag);

    arb_valid[P_DET_W]                    = det_mw_valid;
    arb_op[2*P_DET_W +: 2]                = det_mw_add ? MOP_ADD : MOP_STORE;
    arb_dtype[2*P_DET_W +: 2]             = det_mw_dtype;
    arb_addr[48*P_DET_W +: 48]            = det_mw_addr;
    arb_data[FLIT_W*P_DET_W +: FLIT_W]    = det_mw_data;

    arb_valid[P_FIN_R]                    = fin_mr_valid;
    arb_op[2*P_FIN_R +: 2]                = MOP_READ;
    arb_addr[48*P_FIN_R +: 48]            = fin_mr_addr;
    arb_tag[ARB_TAG_W*P_FIN_R +: ARB_TAG_W] = ARB_TAG_W'(fin_mr_tag);

    arb_valid[P_FIN_W]                    = fin_mw_valid;
    arb_op[2*P_FIN_W +: 2]                = fin_mw_add ? MOP_ADD : MOP_STORE;
    arb_dtype[2*P_FIN_W +: 2]             = fin_mw_dtype;
    arb_addr[48*P_FIN_W +: 48]            = fin_mw_addr;
    arb_data[FLIT_W*P_FIN_W +: FLIT_W]    = fin_mw_data;

    // The pull's reads fill the response queue through its own answer port
    // (pmd_*), beside the home's (hmd_*): both may be granted in a cycle.
    arb_valid[P_REQ_R]                    = req_mr_valid;
    arb_op[2*P_REQ_R +: 2]                = MOP_READ;
    arb_addr[48*P_REQ_R +: 48]            = req_mr_addr;
    arb_tag[ARB_TAG_W*P_REQ_R +: ARB_TAG_W] = ARB_TAG_W'(req_mr_tag);

    arb_valid[P_REQ_W]                    = req_mw_valid;
    arb_op[2*P_REQ_W +: 2]                = req_mw_add ? MOP_ADD : MOP_STORE;
    arb_dtype[2*P_REQ_W +: 2]             = req_mw_dtype;
    arb_addr[48*P_REQ_W +: 48]            = req_mw_addr;
    arb_data[FLIT_W*P_REQ_W +: FLIT_W]    = req_mw_data;

    arb_valid[P_TX_R]                     = tx_mr_valid;
    arb_op[2*P_TX_R +: 2]                 = MOP_READ;
    arb_addr[48*P_TX_R +: 48]             = tx_mr_addr;
    arb_tag[ARB_TAG_W*P_TX_R +: ARB_TAG_W] = ARB_TAG_W'(tx_mr_tag);
  end

  // ---------------------------------------------------------------- blocks
  // The blocks' outputs no neighbour reads (their registers show them) are
  // left open, as in the other compositions.
  /* verilator lint_off PINCONNECTEMPTY */
  dma_credit #(
    .CTRS(CTRS), .FLIT_W(FLIT_W), .MAX_LEN(MAX_LEN), .LEN_W(CMD_LEN_W), .RETRY_W(RETRY_W),
    .TIMEOUT_W(TIMEOUT_W), .CMD_DEPTH(CMD_DEPTH), .CPL_DEPTH(CPL_DEPTH), .STAT_W(STAT_W)
  ) u_dc (
    .clk_i, .rst_ni,
    .psel_i(win_sel[W_DC]), .penable_i, .pwrite_i, .paddr_i(paddr_i[11:0]),
    .pwdata_i, .pstrb_i, .prdata_o(prdata[W_DC*32 +: 32]), .pready_o(pready[W_DC]),
    .pslverr_o(pslverr[W_DC]), .intr_o(intr[W_DC]),
    .cmd_valid_i, .cmd_ready_o, .cmd_local_addr_i, .cmd_net_addr_i, .cmd_len_i, .cmd_red_op_i,
    .cmd_dtype_i, .cmd_pull_i, .cmd_src_i, .cmd_dst_i, .cmd_tag_i,
    .pkt_valid_o(dc_pkt_valid), .pkt_ready_i(tx_pkt_ready), .pkt_hdr_o(dc_pkt_hdr),
    .pkt_local_addr_o(dc_pkt_local_addr),
    .res_valid_i(res_valid), .res_ready_o(dc_res_ready), .res_hdr_i(res_hdr),
    .cpl_wr_o, .cpl_status_o, .cpl_ctr_o, .cpl_tag_o,
    .credits_o(), .outstanding_o()
  );

  // The engines find their windows in their own front ends (from tbl_o):
  // the window block's lookup ports are not used.
  ep_window #(
    .WINDOWS(WINDOWS), .FLIT_W(FLIT_W), .COUNT_DEPTH(COUNT_DEPTH), .MEM_BYTES(MEM_BYTES)
  ) u_win (
    .clk_i, .rst_ni,
    .psel_i(win_sel[W_WIN]), .penable_i, .pwrite_i, .paddr_i(paddr_i[11:0]),
    .pwdata_i, .pstrb_i, .prdata_o(prdata[W_WIN*32 +: 32]), .pready_o(pready[W_WIN]),
    .pslverr_o(pslverr[W_WIN]), .intr_o(intr[W_WIN]),
    .la_addr_i('0), .la_len_i('0), .la_hit_o(), .la_win_o(),
    .lb_addr_i('0), .lb_len_i('0), .lb_hit_o(), .lb_win_o(),
    .lc_ctr_i('0), .lc_hit_o(), .lc_win_o(),
    .tbl_o(tbl)
  );

  ep_tx #(
    .FLIT_W(FLIT_W), .MAX_LEN(MAX_LEN), .STAT_W(STAT_W)
  ) u_tx (
    .clk_i, .rst_ni,
    .psel_i(win_sel[W_TX]), .penable_i, .pwrite_i, .paddr_i(paddr_i[11:0]),
    .pwdata_i, .pstrb_i, .prdata_o(prdata[W_TX*32 +: 32]), .pready_o(pready[W_TX]),
    .pslverr_o(pslverr[W_TX]), .intr_o(intr[W_TX]),
    .pkt_valid_i(dc_pkt_valid), .pkt_ready_o(tx_pkt_ready), .pkt_hdr_i(dc_pkt_hdr),
    .pkt_local_addr_i(dc_pkt_local_addr),
    .cp_valid_i, .cp_done_o, .cp_local_i, .cp_net_i, .cp_flits_i, .cp_dst_i,
    .mr_valid_o(tx_mr_valid), .mr_ready_i(arb_ready[P_TX_R]), .mr_addr_o(tx_mr_addr),
    .mr_tag_o(tx_mr_tag),
    .md_valid_i(md_valid[P_TX_R]), .md_tag_i(md_tag[ARB_TAG_W*P_TX_R +: TX_TAG_W]),
    .md_data_i(md_data[FLIT_W*P_TX_R +: FLIT_W]),
    .req_out_valid_o, .req_out_ready_i, .req_out_flit_o,
    .idle_o(tx_idle)
  );

  // Port p's fields at [p*W +: W]; ep_count's req_ready_o is its grant.
  ep_count #(
    .COUNT_DEPTH(COUNT_DEPTH), .PORTS(CNT_PORTS), .CNT_W(CNT_W), .MAX_LEN(MAX_LEN),
    .STAT_W(STAT_W)
  ) u_cnt (
    .clk_i, .rst_ni,
    .psel_i(win_sel[W_CNT]), .penable_i, .pwrite_i, .paddr_i(paddr_i[11:0]),
    .pwdata_i, .pstrb_i, .prdata_o(prdata[W_CNT*32 +: 32]), .pready_o(pready[W_CNT]),
    .pslverr_o(pslverr[W_CNT]), .intr_o(intr[W_CNT]),
    .req_valid_i(cnt_valid), .req_ready_o(cnt_ready), .req_op_i(cnt_op),
    .req_line_i(cnt_line), .req_n_i(cnt_n), .req_limit_i(cnt_limit), .req_len_i(cnt_len),
    .req_whole_ok_i(cnt_whole_ok),
    .rsp_valid_o(cnt_rsp_valid), .rsp_code_o(cnt_rsp_code), .rsp_count_o(cnt_rsp_count),
    .rsp_len_o(cnt_rsp_len), .rsp_whole_o(cnt_rsp_whole), .clearing_o(cnt_clearing)
  );

  ep_rx #(
    .FLIT_W(FLIT_W), .MAX_LEN(MAX_LEN), .WINDOWS(WINDOWS), .COUNT_DEPTH(COUNT_DEPTH),
    .RESQ(RESQ), .FINQ(FINQ), .STAT_W(STAT_W)
  ) u_rx (
    .clk_i, .rst_ni,
    .psel_i(win_sel[W_RX]), .penable_i, .pwrite_i, .paddr_i(paddr_i[11:0]),
    .pwdata_i, .pstrb_i, .prdata_o(prdata[W_RX*32 +: 32]), .pready_o(pready[W_RX]),
    .pslverr_o(pslverr[W_RX]), .intr_o(intr[W_RX]),
    .rsp_in_valid_i(rsp_q_valid), .rsp_in_ready_o(rx_in_ready), .rsp_in_flit_i(rsp_q_head),
    .tbl_i(tbl),
    .cnt_valid_o(rx_cnt_valid), .cnt_ready_i(cnt_ready[0]), .cnt_op_o(rx_cnt_op),
    .cnt_line_o(rx_cnt_line), .cnt_n_o(rx_cnt_n), .cnt_limit_o(rx_cnt_limit),
    .cnt_len_o(rx_cnt_len), .cnt_whole_ok_o(rx_cnt_whole_ok),
    .cnt_rsp_valid_i(cnt_rsp_valid[0]), .cnt_rsp_code_i(cnt_rsp_code),
    .cnt_rsp_count_i(cnt_rsp_count), .cnt_rsp_whole_i(cnt_rsp_whole),
    .mw_valid_o(rx_mw_valid), .mw_ready_i(arb_ready[P_RX_W]), .mw_addr_o(rx_mw_addr),
    .mw_data_o(rx_mw_data), .mw_add_o(rx_mw_add), .mw_dtype_o(rx_mw_dtype),
    .res_valid_o(rx_res_valid), .res_ready_i(res_rx_ready), .res_hdr_o(rx_res_hdr),
    .fin_valid_o(rx_fin_valid), .fin_ready_i(fin_ready), .fin_src_o(rx_fin_src),
    .fin_dst_o(rx_fin_dst), .fin_hdr_o(rx_fin_hdr),
    .home_o(rx_home), .home_win_o(rx_home_win), .home_line_o(rx_home_line),
    .home_len_o(rx_home_len),
    .merging_o(rx_merging), .merge_line_o(rx_merge_line),
    .idle_o(rx_idle)
  );

  ep_final #(
    .FLIT_W(FLIT_W), .MAX_LEN(MAX_LEN), .STAT_W(STAT_W)
  ) u_fin (
    .clk_i, .rst_ni,
    .psel_i(win_sel[W_FIN]), .penable_i, .pwrite_i, .paddr_i(paddr_i[11:0]),
    .pwdata_i, .pstrb_i, .prdata_o(prdata[W_FIN*32 +: 32]), .pready_o(pready[W_FIN]),
    .pslverr_o(pslverr[W_FIN]), .intr_o(intr[W_FIN]),
    .fin_valid_i(rx_fin_valid), .fin_ready_o(fin_ready), .fin_src_i(rx_fin_src),
    .fin_dst_i(rx_fin_dst), .fin_hdr_i(rx_fin_hdr),
    .mr_valid_o(fin_mr_valid), .mr_ready_i(arb_ready[P_FIN_R]), .mr_addr_o(fin_mr_addr),
    .mr_tag_o(fin_mr_tag),
    .md_valid_i(md_valid[P_FIN_R]), .md_tag_i(md_tag[ARB_TAG_W*P_FIN_R +: FIN_TAG_W]),
    .md_data_i(md_data[FLIT_W*P_FIN_R +: FLIT_W]),
    .mw_valid_o(fin_mw_valid), .mw_ready_i(arb_ready[P_FIN_W]), .mw_addr_o(fin_mw_addr),
    .mw_data_o(fin_mw_data), .mw_add_o(fin_mw_add), .mw_dtype_o(fin_mw_dtype),
    .res_valid_o(fin_res_valid), .res_ready_i(res_fin_ready), .res_hdr_o(fin_res_hdr),
    .idle_o(fin_idle)
  );

  ep_req #(
    .FLIT_W(FLIT_W), .MAX_LEN(MAX_LEN), .WINDOWS(WINDOWS), .COUNT_DEPTH(COUNT_DEPTH),
    .SLOTS(SLOTS), .DETQ(DETQ), .STAT_W(STAT_W)
  ) u_req (
    .clk_i, .rst_ni,
    .psel_i(win_sel[W_REQ]), .penable_i, .pwrite_i, .paddr_i(paddr_i[11:0]),
    .pwdata_i, .pstrb_i, .prdata_o(prdata[W_REQ*32 +: 32]), .pready_o(pready[W_REQ]),
    .pslverr_o(pslverr[W_REQ]), .intr_o(intr[W_REQ]),
    .req_in_valid_i(req_q_valid), .req_in_ready_o(req_in_ready), .req_in_flit_i(req_q_head),
    .node_i, .tbl_i(tbl),
    .cnt_valid_o(req_cnt_valid), .cnt_ready_i(cnt_ready[1]), .cnt_op_o(req_cnt_op),
    .cnt_line_o(req_cnt_line), .cnt_n_o(req_cnt_n), .cnt_limit_o(req_cnt_limit),
    .cnt_len_o(req_cnt_len), .cnt_whole_ok_o(req_cnt_whole_ok),
    .cnt_rsp_valid_i(cnt_rsp_valid[1]), .cnt_rsp_code_i(cnt_rsp_code),
    .cnt_rsp_count_i(cnt_rsp_count), .cnt_rsp_whole_i(cnt_rsp_whole),
    .mw_valid_o(req_mw_valid), .mw_ready_i(arb_ready[P_REQ_W]), .mw_addr_o(req_mw_addr),
    .mw_data_o(req_mw_data), .mw_add_o(req_mw_add), .mw_dtype_o(req_mw_dtype),
    .rq_valid_o(req_rq_valid), .rq_ready_i(rspq_prq_ready), .rq_hdr_o(req_rq_hdr),
    .rq_len_o(req_rq_len), .rq_slot_i(rspq_prq_slot),
    .mr_valid_o(req_mr_valid), .mr_ready_i(arb_ready[P_REQ_R]), .mr_addr_o(req_mr_addr),
    .mr_tag_o(req_mr_tag),
    .det_valid_o(req_det_valid), .det_ready_i(det_ready), .det_win_o(req_det_win),
    .det_line_o(req_det_line), .det_len_o(req_det_len),
    .cp_rx_o, .cp_win_o,
    .idle_o(req_idle)
  );

  ep_home #(
    .FLIT_W(FLIT_W), .MAX_LEN(MAX_LEN), .WINDOWS(WINDOWS), .COUNT_DEPTH(COUNT_DEPTH),
    .SLOTS(SLOTS), .HOME_Q(HOME_Q), .RESQ(RESQ), .STAT_W(STAT_W)
  ) u_home (
    .clk_i, .rst_ni,
    .psel_i(win_sel[W_HOME]), .penable_i, .pwrite_i, .paddr_i(paddr_i[11:0]),
    .pwdata_i, .pstrb_i, .prdata_o(prdata[W_HOME*32 +: 32]), .pready_o(pready[W_HOME]),
    .pslverr_o(pslverr[W_HOME]), .intr_o(intr[W_HOME]),
    .node_i, .tbl_i(tbl),
    .home_i(rx_home), .home_win_i(rx_home_win), .home_line_i(rx_home_line),
    .home_len_i(rx_home_len),
    .merging_i(rx_merging), .merge_line_i(rx_merge_line),
    .hq_valid_i(det_hq_valid), .hq_ready_o(home_hq_ready), .hq_win_i(det_hq_win),
    .hq_line_i(det_hq_line), .hq_len_i(det_hq_len),
    .cnt_valid_o(home_cnt_valid), .cnt_ready_i(cnt_ready[2] || cnt_ready[3]),
    .cnt_op_o(home_cnt_op), .cnt_line_o(home_cnt_line),
    .cnt_rsp_valid_i(cnt_rsp_valid[2] || cnt_rsp_valid[3]), .cnt_rsp_code_i(cnt_rsp_code),
    .cnt_rsp_count_i(cnt_rsp_count), .cnt_rsp_len_i(cnt_rsp_len),
    .rq_valid_o(home_rq_valid), .rq_ready_i(rspq_hrq_ready), .rq_hdr_o(home_rq_hdr),
    .rq_len_o(home_rq_len), .rq_slot_i(rspq_hrq_slot),
    .mr_valid_o(home_mr_valid), .mr_ready_i(arb_ready[P_HOME_R]), .mr_addr_o(home_mr_addr),
    .mr_tag_o(home_mr_tag),
    .md_valid_i(md_valid[P_HOME_R]), .md_tag_i(md_tag[ARB_TAG_W*P_HOME_R +: SLOT_W]),
    .md_data_i(md_data[FLIT_W*P_HOME_R +: FLIT_W]),
    .mw_valid_o(home_mw_valid), .mw_ready_i(arb_ready[P_HOME_W]), .mw_addr_o(home_mw_addr),
    .mw_data_o(home_mw_data),
    .res_valid_o(home_res_valid), .res_ready_i(res_home_ready), .res_hdr_o(home_res_hdr),
    .idle_o(home_idle)
  );

  ep_det #(
    .FLIT_W(FLIT_W), .MAX_LEN(MAX_LEN), .WINDOWS(WINDOWS), .COUNT_DEPTH(COUNT_DEPTH),
    .BUF(BUF), .STAT_W(STAT_W)
  ) u_det (
    .clk_i, .rst_ni,
    .psel_i(win_sel[W_DET]), .penable_i, .pwrite_i, .paddr_i(paddr_i[11:0]),
    .pwdata_i, .pstrb_i, .prdata_o(prdata[W_DET*32 +: 32]), .pready_o(pready[W_DET]),
    .pslverr_o(pslverr[W_DET]), .intr_o(intr[W_DET]),
    .tbl_i(tbl),
    .det_valid_i(req_det_valid), .det_ready_o(det_ready), .det_win_i(req_det_win),
    .det_line_i(req_det_line), .det_len_i(req_det_len),
    .mr_valid_o(det_mr_valid), .mr_ready_i(arb_ready[P_DET_R]), .mr_addr_o(det_mr_addr),
    .mr_tag_o(det_mr_tag),
    .md_valid_i(md_valid[P_DET_R]), .md_tag_i(md_tag[ARB_TAG_W*P_DET_R +: DET_TAG_W]),
    .md_data_i(md_data[FLIT_W*P_DET_R +: FLIT_W]),
    .mw_valid_o(det_mw_valid), .mw_ready_i(arb_ready[P_DET_W]), .mw_addr_o(det_mw_addr),
    .mw_data_o(det_mw_data), .mw_add_o(det_mw_add), .mw_dtype_o(det_mw_dtype),
    .hq_valid_o(det_hq_valid), .hq_ready_i(home_hq_ready), .hq_win_o(det_hq_win),
    .hq_line_o(det_hq_line), .hq_len_o(det_hq_len),
    .idle_o(det_idle)
  );

  // The home's reads fill on hmd_* (port 1), the pull's on pmd_* (port 7);
  // a held RESULT is released when the home's CLEAR is granted (port 2).
  ep_rspq #(
    .FLIT_W(FLIT_W), .MAX_LEN(MAX_LEN), .SLOTS(SLOTS), .STAT_W(STAT_W)
  ) u_rspq (
    .clk_i, .rst_ni,
    .psel_i(win_sel[W_RSPQ]), .penable_i, .pwrite_i, .paddr_i(paddr_i[11:0]),
    .pwdata_i, .pstrb_i, .prdata_o(prdata[W_RSPQ*32 +: 32]), .pready_o(pready[W_RSPQ]),
    .pslverr_o(pslverr[W_RSPQ]), .intr_o(intr[W_RSPQ]),
    .hrq_valid_i(home_rq_valid), .hrq_ready_o(rspq_hrq_ready), .hrq_hdr_i(home_rq_hdr),
    .hrq_len_i(home_rq_len), .hrq_slot_o(rspq_hrq_slot),
    .prq_valid_i(req_rq_valid), .prq_ready_o(rspq_prq_ready), .prq_hdr_i(req_rq_hdr),
    .prq_len_i(req_rq_len), .prq_slot_o(rspq_prq_slot),
    .hrel_i(cnt_ready[2]),
    .hmd_valid_i(md_valid[P_HOME_R]), .hmd_tag_i(md_tag[ARB_TAG_W*P_HOME_R +: SLOT_W]),
    .hmd_data_i(md_data[FLIT_W*P_HOME_R +: FLIT_W]),
    .pmd_valid_i(md_valid[P_REQ_R]), .pmd_tag_i(md_tag[ARB_TAG_W*P_REQ_R +: SLOT_W]),
    .pmd_data_i(md_data[FLIT_W*P_REQ_R +: FLIT_W]),
    .rsp_out_valid_o, .rsp_out_ready_i, .rsp_out_flit_o,
    .idle_o(rspq_idle)
  );

  ep_mem_arb #(
    .FLIT_W(FLIT_W), .PORTS(ARB_PORTS), .MEM_OPS(MEM_OPS), .TAG_W(ARB_TAG_W), .STAT_W(STAT_W)
  ) u_arb (
    .clk_i, .rst_ni,
    .psel_i(win_sel[W_ARB]), .penable_i, .pwrite_i, .paddr_i(paddr_i[11:0]),
    .pwdata_i, .pstrb_i, .prdata_o(prdata[W_ARB*32 +: 32]), .pready_o(pready[W_ARB]),
    .pslverr_o(pslverr[W_ARB]), .intr_o(intr[W_ARB]),
    .rq_valid_i(arb_valid), .rq_ready_o(arb_ready), .rq_op_i(arb_op), .rq_dtype_i(arb_dtype),
    .rq_addr_i(arb_addr), .rq_data_i(arb_data), .rq_tag_i(arb_tag),
    .mem_valid_o, .mem_op_o, .mem_dtype_o, .mem_addr_o, .mem_data_o, .mem_tag_o,
    .ans_valid_i, .ans_tag_i, .ans_data_i,
    .md_valid_o(md_valid), .md_tag_o(md_tag), .md_data_o(md_data)
  );

  // The three result-header sources merged into the DMA credit controller's
  // res_*, a RESULT given its counter from the descriptors leaving and the
  // completions written.
  ep_res #(
    .FLIT_W(FLIT_W), .CTRS(CTRS), .STAT_W(STAT_W)
  ) u_res (
    .clk_i, .rst_ni,
    .psel_i(win_sel[W_RES]), .penable_i, .pwrite_i, .paddr_i(paddr_i[11:0]),
    .pwdata_i, .pstrb_i, .prdata_o(prdata[W_RES*32 +: 32]), .pready_o(pready[W_RES]),
    .pslverr_o(pslverr[W_RES]), .intr_o(intr[W_RES]),
    .desc_valid_i(dc_pkt_valid), .desc_ready_i(tx_pkt_ready), .desc_hdr_i(dc_pkt_hdr),
    .cpl_wr_i(cpl_wr_o), .cpl_status_i(cpl_status_o), .cpl_ctr_i(cpl_ctr_o),
    .rx_valid_i(rx_res_valid), .rx_ready_o(res_rx_ready), .rx_hdr_i(rx_res_hdr),
    .home_valid_i(home_res_valid), .home_ready_o(res_home_ready), .home_hdr_i(home_res_hdr),
    .fin_valid_i(fin_res_valid), .fin_ready_o(res_fin_ready), .fin_hdr_i(fin_res_hdr),
    .res_valid_o(res_valid), .res_ready_i(dc_res_ready), .res_hdr_o(res_hdr)
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // ------------------------------------------------------------- outputs
  t3_apb_mux #(.N_WIN(N_WIN)) u_apb_mux (
    .psel_i, .penable_i, .win_hit_i(win_hit), .prdata_i(prdata), .pready_i(pready),
    .pslverr_i(pslverr), .intr_i(intr), .prdata_o, .pready_o, .pslverr_o, .intr_o
  );

  // ------------------------------------------------------------------ idle
  // Every engine idle, no flit waiting in an input queue, and the counters'
  // reset walk over (no count is granted during it).
  assign idle_o = tx_idle && rx_idle && fin_idle && req_idle && home_idle && det_idle &&
                  rspq_idle && !req_q_valid && !rsp_q_valid && !cnt_clearing;

  // The write ports are never answered; a read port's answer tag is wider
  // than its engine's where another engine's is wider, and the tag bus is
  // padded; the queues' counts are not needed (the engines take a flit at a
  // time, not whole packets as the switch's grants do).
  logic unused_x;
  assign unused_x = ^{md_valid[P_RX_W], md_valid[P_HOME_W], md_valid[P_DET_W],
                      md_valid[P_FIN_W], md_valid[P_REQ_W], md_tag,
                      md_data[FLIT_W*P_RX_W +: FLIT_W], md_data[FLIT_W*P_HOME_W +: FLIT_W],
                      md_data[FLIT_W*P_DET_W +: FLIT_W], md_data[FLIT_W*P_FIN_W +: FLIT_W],
                      md_data[FLIT_W*P_REQ_W +: FLIT_W], unused_req_q_count,
                      unused_rsp_q_count};

endmodule
