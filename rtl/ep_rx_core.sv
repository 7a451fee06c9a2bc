// The endpoint's response receiver (docs/blocks/ep_rx.md). The C++ model of
// the same core is hw/ep_rx/ep_rx_core.{h,cpp}; the block around it,
// rtl/ep_rx.sv, is generated from hw/ep_rx/ep_rx.yaml.
//
// A packet at a time. The front end the request receiver shares
// (rtl/ep_pkt_front.sv) takes its header, looks its window up, makes the
// first checks and drops a packet refused; the receiver adds its own checks
// and, for a PULL_RSP or a PARTIAL, has the front end count its
// contributions (HOLD while a pulled line it would complete has no room).
// Then the packet's body is the receiver's: its data flits written or added
// (B_DATA), then the line's counter cleared after a pulled line (B_CLEAR).
module ep_rx_core #(
  parameter int unsigned FLIT_W      = 128,
  parameter int unsigned MAX_LEN     = 4,
  parameter int unsigned WINDOWS     = 4,
  parameter int unsigned COUNT_DEPTH = 4096,
  parameter int unsigned RESQ        = 4,
  parameter int unsigned FINQ        = 4,
  parameter int unsigned STAT_W      = 32,
  // At least 1 even out of range, so that elaboration reaches the top's checks.
  localparam int unsigned WIN_W  = (WINDOWS > 1) ? $clog2(WINDOWS) : 1,
  localparam int unsigned LINE_W = (COUNT_DEPTH > 1) ? $clog2(COUNT_DEPTH) : 1,
  localparam int unsigned LEN_W  = (MAX_LEN > 0) ? $clog2(MAX_LEN + 1) : 1,
  localparam int unsigned REC_W  = ep_window_pkg::REC_W,
  localparam int unsigned TBL_W  = (WINDOWS * REC_W + 127) / 128 * 128
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              rsp_in_valid_i,
  output logic              rsp_in_ready_o,
  input  logic [FLIT_W-1:0] rsp_in_flit_i,
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
  output logic              res_valid_o,
  input  logic              res_ready_i,
  output logic [FLIT_W-1:0] res_hdr_o,
  output logic              fin_valid_o,
  input  logic              fin_ready_i,
  output logic [47:0]       fin_src_o,
  output logic [47:0]       fin_dst_o,
  output logic [FLIT_W-1:0] fin_hdr_o,
  output logic              home_o,
  output logic [WIN_W-1:0]  home_win_o,
  output logic [LINE_W-1:0] home_line_o,
  output logic [LEN_W-1:0]  home_len_o,
  output logic              merging_o,
  output logic [LINE_W-1:0] merge_line_o,
  output logic              idle_o,
  output logic              drop_o,
  output logic [3:0]        cause_o,
  output logic [47:0]       drop_addr_o,
  output logic [STAT_W-1:0] stat_results_o,
  output logic [STAT_W-1:0] stat_pull_rsps_o,
  output logic [STAT_W-1:0] stat_partials_o,
  output logic [STAT_W-1:0] stat_drops_o
);

  localparam logic [1:0] B_DATA = 2'd0, B_CLEAR = 2'd1;  // the body's steps (ep_pkt_front's BODY)
  localparam logic [3:0] C_WRONG_OP = 4'd3, C_NOT_HOME = 4'd4, C_OVERCOUNT = 4'd5, C_WRONG_DTYPE = 4'd6;
  localparam int unsigned FIN_W = 96 + FLIT_W;

  // ---- the front end: header, lookup, the first checks, the merge's
  // count, drops (rtl/ep_pkt_front.sv)
  logic [t3_pkt_pkg::HDR_W-1:0] hdr;
  logic [REC_W-1:0]  rec;
  logic [WIN_W-1:0]  f_win;
  logic [47:0]       f_off;
  logic [LINE_W-1:0] f_line;
  logic              f_take, f_counting, f_counted, f_body, f_idle;
  logic [3:0]        e_cause;
  logic [7:0]        e_limit;
  logic              e_room, e_body_ready, e_body_done;
  logic              f_cnt_valid, f_cnt_whole_ok;
  logic [LINE_W-1:0] f_cnt_line;
  logic [7:0]        f_cnt_n, f_cnt_limit;
  logic [LEN_W-1:0]  f_cnt_len;
  logic              res_room, fin_room;

  logic [3:0] h_op;
  logic [1:0] h_dtype;
  logic [7:0] h_len, h_count;
  logic is_result, is_pull_rsp, is_partial, merges;
  assign h_op        = hdr[t3_pkt_pkg::OP_LSB +: t3_pkt_pkg::OP_W];
  assign h_dtype     = hdr[t3_pkt_pkg::DTYPE_LSB +: t3_pkt_pkg::DTYPE_W];
  assign h_len       = hdr[t3_pkt_pkg::LEN_LSB +: t3_pkt_pkg::LEN_W];
  assign h_count     = hdr[t3_pkt_pkg::COUNT_LSB +: t3_pkt_pkg::COUNT_W];
  assign is_result   = h_op == t3_pkt_pkg::OP_RESULT;
  assign is_pull_rsp = h_op == t3_pkt_pkg::OP_PULL_RSP;
  assign is_partial  = h_op == t3_pkt_pkg::OP_PARTIAL;
  assign merges      = !is_result;

  ep_pkt_front #(
    .FLIT_W(FLIT_W), .MAX_LEN(MAX_LEN), .WINDOWS(WINDOWS), .COUNT_DEPTH(COUNT_DEPTH), .STAT_W(STAT_W)
  ) u_front (
    .clk_i, .rst_ni, .in_valid_i(rsp_in_valid_i), .in_ready_o(rsp_in_ready_o), .in_flit_i(rsp_in_flit_i), .tbl_i,
    .hdr_o(hdr), .rec_o(rec), .win_o(f_win), .off_o(f_off), .line_o(f_line), .take_o(f_take),
    .counting_o(f_counting), .counted_o(f_counted), .body_o(f_body), .idle_o(f_idle),
    .takes_op_i(is_result || is_pull_rsp || is_partial), .cause_i(e_cause), .count_i(merges),
    .wait_i(is_result && !res_room), .limit_i(e_limit),
    .room_i(e_room), .body_ready_i(e_body_ready), .body_done_i(e_body_done),
    .cnt_valid_o(f_cnt_valid), .cnt_ready_i, .cnt_line_o(f_cnt_line), .cnt_n_o(f_cnt_n), .cnt_limit_o(f_cnt_limit),
    .cnt_len_o(f_cnt_len), .cnt_whole_ok_o(f_cnt_whole_ok), .cnt_rsp_valid_i, .cnt_rsp_code_i,
    .drop_o, .cause_o, .drop_addr_o, .stat_drops_o
  );

  // ---- the receiver's checks (the decode), after the front end's first
  // three, in the endpoint's order
  /* verilator lint_off UNUSEDSIGNAL */  // a record's fields the receiver does not read
  ep_window_pkg::ep_win_t win;
  /* verilator lint_on UNUSEDSIGNAL */
  always_comb begin
    win = rec;
    if (win.copy != 2'd0) e_cause = C_WRONG_OP;  // a copy window takes WRITEs only
    else if (h_dtype != win.dtype) e_cause = C_WRONG_DTYPE;
    else if (is_partial && !win.home) e_cause = C_NOT_HOME;
    else if (merges && h_count == '0) e_cause = C_OVERCOUNT;
    else e_cause = 4'd0;
    // A pull's requester holds its own contribution, a home all of them.
    e_limit = is_pull_rsp ? win.expected - 8'd1 : win.expected;
  end

  logic [1:0]  b_st_q;
  logic [7:0]  left_q;
  logic [47:0] addr_q, fsrc_q, fdst_q;
  logic        first_q, whole_q, res_resv_q, fin_resv_q;
  logic        data, clear, last_flit;
  assign data         = f_body && b_st_q == B_DATA;
  assign clear        = f_body && b_st_q == B_CLEAR;
  assign last_flit    = data && rsp_in_valid_i && mw_ready_i && left_q == 8'd1;
  assign e_room       = is_partial || fin_room;
  assign e_body_ready = data && mw_ready_i;
  // A pulled line whole goes on to clear its counter.
  assign e_body_done  = (last_flit && !(is_pull_rsp && whole_q)) || (clear && cnt_ready_i);

  // ---- the queues: RESULT headers, pulled lines
  logic              res_push, res_full, fin_push, fin_full;
  logic [FLIT_W-1:0] res_head;
  logic [FIN_W-1:0]  fin_head;
  logic [$clog2(RESQ + 1)-1:0] res_count;
  logic [$clog2(FINQ + 1)-1:0] fin_count;

  t3_fifo #(.DEPTH(RESQ), .WIDTH(FLIT_W)) u_resq (
    .clk_i, .rst_ni, .push_i(res_push), .wdata_i(FLIT_W'(hdr)), .pop_i(res_valid_o && res_ready_i),
    .valid_o(res_valid_o), .rdata_o(res_head), .full_o(res_full), .count_o(res_count)
  );
  t3_fifo #(.DEPTH(FINQ), .WIDTH(FIN_W)) u_finq (
    .clk_i, .rst_ni, .push_i(fin_push), .wdata_i({fsrc_q, fdst_q, FLIT_W'(hdr)}),
    .pop_i(fin_valid_o && fin_ready_i),
    .valid_o(fin_valid_o), .rdata_o(fin_head), .full_o(fin_full), .count_o(fin_count)
  );
  assign res_room  = 32'(res_count) + 32'(res_resv_q) < RESQ;
  assign fin_room  = 32'(fin_count) + 32'(fin_resv_q) < FINQ;
  assign res_hdr_o = res_valid_o ? res_head : '0;
  assign fin_src_o = fin_valid_o ? fin_head[FIN_W-1 -: 48] : '0;
  assign fin_dst_o = fin_valid_o ? fin_head[FIN_W-49 -: 48] : '0;
  assign fin_hdr_o = fin_valid_o ? fin_head[FLIT_W-1:0] : '0;
  assign res_push  = last_flit && is_result;
  assign fin_push  = last_flit && is_pull_rsp && whole_q;

  // ---- the ports: the merge's ADD (the front end's), a pulled line's
  // CLEAR, the data flits' writes
  assign cnt_valid_o    = f_cnt_valid || clear;
  assign cnt_op_o       = f_cnt_valid ? 2'd1 : clear ? 2'd2 : 2'd0;  // ADD, CLEAR
  assign cnt_line_o     = clear ? f_line : f_cnt_line;
  assign cnt_n_o        = f_cnt_n;
  assign cnt_limit_o    = f_cnt_limit;
  assign cnt_len_o      = f_cnt_len;
  assign cnt_whole_ok_o = f_cnt_whole_ok || clear;
  assign mw_valid_o     = data && rsp_in_valid_i;
  assign mw_addr_o      = data ? addr_q : '0;
  assign mw_data_o      = data ? rsp_in_flit_i : '0;
  assign mw_add_o       = data && merges && !first_q;
  assign mw_dtype_o     = data ? h_dtype : '0;
  assign merging_o      = merges && (f_counting || data);
  assign merge_line_o   = merging_o ? f_line : '0;

  // ---- status
  logic              home_q;
  logic [WIN_W-1:0]  home_win_q;
  logic [LINE_W-1:0] home_line_q;
  logic [LEN_W-1:0]  home_len_q;
  logic [STAT_W-1:0] stat_results_q, stat_pull_rsps_q, stat_partials_q;
  assign home_o           = home_q;
  assign home_win_o       = home_win_q;
  assign home_line_o      = home_line_q;
  assign home_len_o       = home_len_q;
  assign idle_o           = f_idle && !res_valid_o && !fin_valid_o && !home_q;
  assign stat_results_o   = stat_results_q;
  assign stat_pull_rsps_o = stat_pull_rsps_q;
  assign stat_partials_o  = stat_partials_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      res_resv_q       <= 1'b0;
      fin_resv_q       <= 1'b0;
      home_q           <= 1'b0;
      home_win_q       <= '0;
      home_line_q      <= '0;
      home_len_q       <= '0;
      stat_results_q   <= '0;
      stat_pull_rsps_q <= '0;
      stat_partials_q  <= '0;
    end else begin
      home_q      <= 1'b0;
      home_win_q  <= '0;
      home_line_q <= '0;
      home_len_q  <= '0;
      if (f_take) begin
        left_q <= h_len;
        fsrc_q <= 48'(win.src) + f_off;
        fdst_q <= 48'(win.dst) + f_off;
        addr_q <= (is_result || is_pull_rsp ? 48'(win.dst) : 48'(win.merge)) + f_off;
        b_st_q <= B_DATA;
        if (is_result) begin
          // Taken only with room: the DMA credit controller takes results as it can.
          res_resv_q     <= 1'b1;
          first_q        <= 1'b1;
          stat_results_q <= stat_results_q + 1'b1;
        end
      end
      if (f_counted) begin
        first_q <= cnt_rsp_count_i == '0;
        whole_q <= cnt_rsp_whole_i;
        if (is_pull_rsp && cnt_rsp_whole_i) fin_resv_q <= 1'b1;
        if (is_pull_rsp) stat_pull_rsps_q <= stat_pull_rsps_q + 1'b1;
        else stat_partials_q <= stat_partials_q + 1'b1;
      end
      if (data && rsp_in_valid_i && mw_ready_i) begin
        addr_q <= addr_q + 48'(FLIT_W) / 48'd8;
        left_q <= left_q - 8'd1;
      end
      if (last_flit) begin
        if (is_result) begin
          res_resv_q <= 1'b0;
        end else if (is_pull_rsp && whole_q) begin
          fin_resv_q <= 1'b0;
          b_st_q     <= B_CLEAR;  // the line's count back to 0 for the next pull
        end else if (is_partial && whole_q) begin
          home_q      <= 1'b1;
          home_win_q  <= f_win;
          home_line_q <= f_line;
          home_len_q  <= LEN_W'(h_len);
        end
      end
    end
  end

  logic unused;
  assign unused = ^{res_full, fin_full, hdr};

endmodule
