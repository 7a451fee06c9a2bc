// The endpoint's request receiver (docs/blocks/ep_req.md). The C++ model of
// the same core is hw/ep_req/ep_req_core.{h,cpp}; the block around it,
// rtl/ep_req.sv, is generated from hw/ep_req/ep_req.yaml.
//
// A packet at a time. The front end the response receiver shares
// (rtl/ep_pkt_front.sv) takes its header, looks its window up, makes the
// first checks and drops a packet refused; the request receiver adds its
// own checks. Then a PULL's answer is reserved in the response queue
// (B_RESERVE) and its line read into the reserved slots (B_READ); a
// deterministic home's PUSH is counted by the front end (HOLD while the
// line it would make whole has no room in DETQ) and stored in its
// contributor's stage (B_DATA); a copy WRITE's flits are written or added
// (B_DATA).
module ep_req_core #(
  parameter int unsigned FLIT_W      = 128,
  parameter int unsigned MAX_LEN     = 4,
  parameter int unsigned WINDOWS     = 4,
  parameter int unsigned COUNT_DEPTH = 4096,
  parameter int unsigned SLOTS       = 10,
  parameter int unsigned DETQ        = 8,
  parameter int unsigned STAT_W      = 32,
  // At least 1 even out of range, so that elaboration reaches the top's checks.
  localparam int unsigned WIN_W  = (WINDOWS > 1) ? $clog2(WINDOWS) : 1,
  localparam int unsigned LINE_W = (COUNT_DEPTH > 1) ? $clog2(COUNT_DEPTH) : 1,
  localparam int unsigned LEN_W  = (MAX_LEN > 0) ? $clog2(MAX_LEN + 1) : 1,
  localparam int unsigned SLOT_W = (SLOTS > 1) ? $clog2(SLOTS) : 1,
  localparam int unsigned REC_W  = ep_window_pkg::REC_W,
  localparam int unsigned TBL_W  = (WINDOWS * REC_W + 127) / 128 * 128
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              req_in_valid_i,
  output logic              req_in_ready_o,
  input  logic [FLIT_W-1:0] req_in_flit_i,
  input  logic [7:0]        node_i,
  input  logic [TBL_W-1:0]  tbl_i,
  output logic              cnt_valid_o,
  input  logic              cnt_ready_i,
  output logic [1:0]        cnt_op_o,
  output logic [LINE_W-1:0] cnt_line_o,
  output logic [7:0]        cnt_n_o,
  output logic [7:0]        cnt_limit_o,
  output logic [LEN_W-1:0]  cnt_len_o,
  output logic              cnt_whole_ok_o,
  input  logic              cnt_rsp_valid_i,
  input  logic [1:0]        cnt_rsp_code_i,
  input  logic [7:0]        cnt_rsp_count_i,
  input  logic              cnt_rsp_whole_i,
  output logic              mw_valid_o,
  input  logic              mw_ready_i,
  output logic [47:0]       mw_addr_o,
  output logic [FLIT_W-1:0] mw_data_o,
  output logic              mw_add_o,
  output logic [1:0]        mw_dtype_o,
  output logic              rq_valid_o,
  input  logic              rq_ready_i,
  output logic [FLIT_W-1:0] rq_hdr_o,
  output logic [LEN_W-1:0]  rq_len_o,
  input  logic [SLOT_W-1:0] rq_slot_i,
  output logic              mr_valid_o,
  input  logic              mr_ready_i,
  output logic [47:0]       mr_addr_o,
  output logic [SLOT_W-1:0] mr_tag_o,
  output logic              det_valid_o,
  input  logic              det_ready_i,
  output logic [WIN_W-1:0]  det_win_o,
  output logic [LINE_W-1:0] det_line_o,
  output logic [LEN_W-1:0]  det_len_o,
  output logic              cp_rx_o,
  output logic [WIN_W-1:0]  cp_win_o,
  output logic              idle_o,
  output logic              drop_o,
  output logic [3:0]        cause_o,
  output logic [47:0]       drop_addr_o,
  output logic [STAT_W-1:0] stat_pulls_o,
  output logic [STAT_W-1:0] stat_pushes_o,
  output logic [STAT_W-1:0] stat_writes_o,
  output logic [STAT_W-1:0] stat_drops_o
);

  localparam logic [1:0] B_DATA = 2'd0, B_RESERVE = 2'd1, B_READ = 2'd2;  // the body's steps
  localparam logic [3:0] C_WRONG_OP = 4'd3, C_OVERCOUNT = 4'd5, C_WRONG_DTYPE = 4'd6, C_WRONG_SRC = 4'd7;
  localparam int unsigned DET_W = WIN_W + LINE_W + LEN_W;

  // ---- the front end: header, lookup, the first checks, the PUSH's
  // count, drops (rtl/ep_pkt_front.sv)
  logic [t3_pkt_pkg::HDR_W-1:0] hdr;
  logic [REC_W-1:0]  rec;
  logic [WIN_W-1:0]  f_win;
  logic [47:0]       f_off;
  logic [LINE_W-1:0] f_line;
  logic              f_take, f_counting, f_counted, f_body, f_idle;
  logic [3:0]        e_cause;
  logic              e_body_ready, e_body_done;
  logic              det_room;

  logic [3:0] h_op;
  logic [1:0] h_dtype;
  logic [7:0] h_len, h_count, h_src;
  logic [47:0] h_addr;
  logic is_pull, is_push, is_write;
  assign h_op     = hdr[t3_pkt_pkg::OP_LSB +: t3_pkt_pkg::OP_W];
  assign h_dtype  = hdr[t3_pkt_pkg::DTYPE_LSB +: t3_pkt_pkg::DTYPE_W];
  assign h_len    = hdr[t3_pkt_pkg::LEN_LSB +: t3_pkt_pkg::LEN_W];
  assign h_count  = hdr[t3_pkt_pkg::COUNT_LSB +: t3_pkt_pkg::COUNT_W];
  assign h_src    = hdr[t3_pkt_pkg::SRC_LSB +: t3_pkt_pkg::SRC_W];
  assign h_addr   = hdr[t3_pkt_pkg::ADDR_LSB +: t3_pkt_pkg::ADDR_W];
  assign is_pull  = h_op == t3_pkt_pkg::OP_PULL;
  assign is_push  = h_op == t3_pkt_pkg::OP_PUSH;
  assign is_write = h_op == t3_pkt_pkg::OP_WRITE;

  /* verilator lint_off UNUSEDSIGNAL */  // a record's fields the receiver does not read
  ep_window_pkg::ep_win_t win;
  /* verilator lint_on UNUSEDSIGNAL */
  assign win = rec;

  ep_pkt_front #(
    .FLIT_W(FLIT_W), .MAX_LEN(MAX_LEN), .WINDOWS(WINDOWS), .COUNT_DEPTH(COUNT_DEPTH), .STAT_W(STAT_W)
  ) u_front (
    .clk_i, .rst_ni, .in_valid_i(req_in_valid_i), .in_ready_o(req_in_ready_o), .in_flit_i(req_in_flit_i), .tbl_i,
    .hdr_o(hdr), .rec_o(rec), .win_o(f_win), .off_o(f_off), .line_o(f_line), .take_o(f_take),
    .counting_o(f_counting), .counted_o(f_counted), .body_o(f_body), .idle_o(f_idle),
    .takes_op_i(is_pull || is_push || is_write), .cause_i(e_cause), .count_i(is_push), .wait_i(1'b0),
    .limit_i(win.expected),
    .room_i(det_room), .body_ready_i(e_body_ready), .body_done_i(e_body_done),
    .cnt_valid_o, .cnt_ready_i, .cnt_line_o, .cnt_n_o, .cnt_limit_o, .cnt_len_o, .cnt_whole_ok_o,
    .cnt_rsp_valid_i, .cnt_rsp_code_i,
    .drop_o, .cause_o, .drop_addr_o, .stat_drops_o
  );
  assign cnt_op_o = cnt_valid_o ? 2'd1 : 2'd0;  // ADD

  // ---- the request receiver's checks (the decode), after the front end's
  // first three, in the endpoint's order
  logic       d_contrib;
  logic [5:0] d_rank;
  always_comb begin
    d_contrib = h_src < 8'd32 && win.contrib_mask[h_src[4:0]];
    // A deterministic home keeps each contributor's line apart, in the
    // stage of its rank among the contributors.
    d_rank = ep_window_pkg::rank(win.contrib_mask, h_src);
    if (is_write ? win.copy == 2'd0 : win.copy != 2'd0) e_cause = C_WRONG_OP;
    else if (!is_write && h_dtype != win.dtype) e_cause = C_WRONG_DTYPE;
    else if (is_push && !win.det) e_cause = C_WRONG_OP;
    else if (is_push && !d_contrib) e_cause = C_WRONG_SRC;
    else if (is_push && h_count != 8'd1) e_cause = C_OVERCOUNT;
    else e_cause = 4'd0;
  end

  logic [1:0]        b_st_q;
  logic [7:0]        left_q;
  logic [1:0]        dtype_q;
  logic [47:0]       addr_q;
  logic [SLOT_W-1:0] tag_q;
  logic              add_q, whole_q, det_resv_q;
  logic [5:0]        rank_q;
  logic [31:0]       stage_q, bytes_q;
  logic              data, reserve, read, last_flit, last_read;
  assign data         = f_body && b_st_q == B_DATA;
  assign reserve      = f_body && b_st_q == B_RESERVE;
  assign read         = f_body && b_st_q == B_READ;
  assign last_flit    = data && req_in_valid_i && mw_ready_i && left_q == 8'd1;
  assign last_read    = read && mr_ready_i && left_q == 8'd1;
  assign e_body_ready = data && mw_ready_i;
  assign e_body_done  = last_flit || last_read;

  // ---- the staged lines' queue
  logic             det_push, det_full;
  logic [DET_W-1:0] det_head;
  logic [$clog2(DETQ + 1)-1:0] det_count;

  t3_fifo #(.DEPTH(DETQ), .WIDTH(DET_W)) u_detq (
    .clk_i, .rst_ni, .push_i(det_push), .wdata_i({f_win, f_line, LEN_W'(h_len)}),
    .pop_i(det_valid_o && det_ready_i),
    .valid_o(det_valid_o), .rdata_o(det_head), .full_o(det_full), .count_o(det_count)
  );
  assign det_room   = 32'(det_count) + 32'(det_resv_q) < DETQ;
  assign det_win_o  = det_valid_o ? det_head[DET_W-1 -: WIN_W] : '0;
  assign det_line_o = det_valid_o ? det_head[LEN_W +: LINE_W] : '0;
  assign det_len_o  = det_valid_o ? det_head[LEN_W-1:0] : '0;
  assign det_push   = last_flit && is_push && whole_q;

  // ---- the PULL's answer (docs/blocks/dma_credit.md: the requester's counter echoed)
  logic [t3_pkt_pkg::HDR_W-1:0] rsp_hdr;
  always_comb begin
    rsp_hdr = '0;
    rsp_hdr[t3_pkt_pkg::OP_LSB +: t3_pkt_pkg::OP_W]       = t3_pkt_pkg::OP_PULL_RSP;
    rsp_hdr[t3_pkt_pkg::DTYPE_LSB +: t3_pkt_pkg::DTYPE_W] = h_dtype;
    rsp_hdr[t3_pkt_pkg::LEN_LSB +: t3_pkt_pkg::LEN_W]     = h_len;
    rsp_hdr[t3_pkt_pkg::SRC_LSB +: t3_pkt_pkg::SRC_W]     = node_i;
    rsp_hdr[t3_pkt_pkg::DST_LSB +: t3_pkt_pkg::DST_W]     = h_src;
    rsp_hdr[t3_pkt_pkg::COUNT_LSB +: t3_pkt_pkg::COUNT_W] = 8'd1;  // the answering GPU's own contribution
    rsp_hdr[t3_pkt_pkg::CTR_LSB +: t3_pkt_pkg::CTR_W]     = hdr[t3_pkt_pkg::CTR_LSB +: t3_pkt_pkg::CTR_W];
    rsp_hdr[t3_pkt_pkg::ADDR_LSB +: t3_pkt_pkg::ADDR_W]   = h_addr;
  end

  // ---- the ports of the body
  assign mw_valid_o = data && req_in_valid_i;
  assign mw_addr_o  = data ? addr_q : '0;
  assign mw_data_o  = data ? req_in_flit_i : '0;
  assign mw_add_o   = data && add_q;
  assign mw_dtype_o = data ? dtype_q : '0;
  assign cp_rx_o    = data && is_write && req_in_valid_i && mw_ready_i;
  assign cp_win_o   = cp_rx_o ? f_win : '0;
  assign rq_valid_o = reserve;
  assign rq_hdr_o   = reserve ? FLIT_W'(rsp_hdr) : '0;
  assign rq_len_o   = reserve ? LEN_W'(h_len) : '0;
  assign mr_valid_o = read;
  assign mr_addr_o  = read ? addr_q : '0;
  assign mr_tag_o   = read ? tag_q : '0;

  // ---- status
  logic [STAT_W-1:0] stat_pulls_q, stat_pushes_q, stat_writes_q;
  assign idle_o        = f_idle && !det_valid_o;
  assign stat_pulls_o  = stat_pulls_q;
  assign stat_pushes_o = stat_pushes_q;
  assign stat_writes_o = stat_writes_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      det_resv_q    <= 1'b0;
      stat_pulls_q  <= '0;
      stat_pushes_q <= '0;
      stat_writes_q <= '0;
    end else begin
      if (f_take) begin
        dtype_q <= win.dtype;
        add_q   <= is_write && win.copy == 2'd1;
        addr_q  <= (is_write ? 48'(win.dst) : 48'(win.src)) + f_off;  // a PUSH's stage: while counted
        left_q  <= h_len;
        rank_q  <= d_rank;
        stage_q <= win.stage;
        bytes_q <= win.bytes;
        b_st_q  <= is_pull ? B_RESERVE : B_DATA;
        if (is_write) stat_writes_q <= stat_writes_q + 1'b1;
      end
      // The stage's address, a cycle after the rank (the decode's record
      // mux, rank and product in one cycle ran at 54.5 MHz).
      if (f_counting) addr_q <= 48'(stage_q) + 48'(rank_q) * 48'(bytes_q) + f_off;
      if (f_counted) begin
        whole_q <= cnt_rsp_whole_i;
        if (cnt_rsp_whole_i) det_resv_q <= 1'b1;
        stat_pushes_q <= stat_pushes_q + 1'b1;
      end
      if (data && req_in_valid_i && mw_ready_i) begin
        addr_q <= addr_q + 48'(FLIT_W) / 48'd8;
        left_q <= left_q - 8'd1;
      end
      if (last_flit && is_push && whole_q) det_resv_q <= 1'b0;
      if (reserve && rq_ready_i) begin
        tag_q        <= rq_slot_i;
        stat_pulls_q <= stat_pulls_q + 1'b1;
        b_st_q       <= B_READ;
      end
      if (read && mr_ready_i) begin
        addr_q <= addr_q + 48'(FLIT_W) / 48'd8;
        tag_q  <= 32'(tag_q) == SLOTS - 1 ? '0 : tag_q + 1'b1;
        left_q <= left_q - 8'd1;
      end
    end
  end

  logic unused;
  assign unused = ^{det_full, hdr, cnt_rsp_count_i};

endmodule
