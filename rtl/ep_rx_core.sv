// The endpoint's response receiver (docs/blocks/ep_rx.md). The C++ model of
// the same core is hw/ep_rx/ep_rx_core.{h,cpp}; the block around it,
// rtl/ep_rx.sv, is generated from hw/ep_rx/ep_rx.yaml.
//
// A packet at a time: the header taken into hdr_q (IDLE), its window looked
// up in tbl_i (LOOK) and its record checked (DECODE), its contributions counted (ASK, WAIT; HOLD while a pulled
// line it would complete has no room), its data flits written or added
// (DATA), then the line's counter cleared after a pulled line (CLEAR); a
// packet refused is dropped whole (DROP).
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

  localparam int unsigned FB_LOG = $clog2(FLIT_W / 8);
  localparam logic [3:0] S_IDLE = 4'd0, S_LOOK = 4'd1, S_DECODE = 4'd2, S_ASK = 4'd3, S_WAIT = 4'd4,
                         S_HOLD = 4'd5, S_DATA = 4'd6, S_CLEAR = 4'd7, S_DROP = 4'd8;
  localparam logic [3:0] C_MALFORMED = 4'd1, C_NO_WINDOW = 4'd2, C_WRONG_OP = 4'd3, C_NOT_HOME = 4'd4,
                         C_OVERCOUNT = 4'd5, C_WRONG_DTYPE = 4'd6, C_COUNTER = 4'd8;
  localparam logic [1:0] CNT_DONE = 2'd0, CNT_OVER = 2'd1, CNT_HELD = 2'd2;
  localparam int unsigned FIN_W = 96 + FLIT_W;

  logic [3:0]        st_q;
  logic [t3_pkt_pkg::HDR_W-1:0]  hdr_q;
  logic [WIN_W-1:0]  win_q;
  logic [LINE_W-1:0] line_q;
  logic [7:0]        need_q, left_q;
  logic [47:0]       addr_q, fsrc_q, fdst_q;
  logic              first_q, whole_q, res_resv_q, fin_resv_q;

  logic [3:0] h_op;
  logic [1:0] h_dtype;
  logic [7:0] h_len, h_count;
  logic [47:0] h_addr;
  logic is_result, is_pull_rsp, is_partial, merges;
  assign h_op        = hdr_q[t3_pkt_pkg::OP_LSB +: t3_pkt_pkg::OP_W];
  assign h_dtype     = hdr_q[t3_pkt_pkg::DTYPE_LSB +: t3_pkt_pkg::DTYPE_W];
  assign h_len       = hdr_q[t3_pkt_pkg::LEN_LSB +: t3_pkt_pkg::LEN_W];
  assign h_count     = hdr_q[t3_pkt_pkg::COUNT_LSB +: t3_pkt_pkg::COUNT_W];
  assign h_addr      = hdr_q[t3_pkt_pkg::ADDR_LSB +: t3_pkt_pkg::ADDR_W];
  assign is_result   = h_op == t3_pkt_pkg::OP_RESULT;
  assign is_pull_rsp = h_op == t3_pkt_pkg::OP_PULL_RSP;
  assign is_partial  = h_op == t3_pkt_pkg::OP_PARTIAL;
  assign merges      = !is_result;

  // ---- the lookup (S_LOOK): the lowest window holding the packet whole,
  // and the packet's offset in it, registered for the decode
  logic              l_hit, hit_q;
  logic [WIN_W-1:0]  l_win;
  logic [47:0]       l_off, off_q;

  ep_win_lookup #(.FLIT_W(FLIT_W), .WINDOWS(WINDOWS)) u_lookup (
    .tbl_i, .addr_i(h_addr), .len_i(h_len), .hit_o(l_hit), .win_o(l_win), .off_o(l_off)
  );

  // ---- the decode (S_DECODE): the window's record, the checks in the
  // endpoint's order
  /* verilator lint_off UNUSEDSIGNAL */  // a record's fields the receiver does not read
  ep_window_pkg::ep_win_t win;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [3:0]        d_cause;
  logic [LINE_W-1:0] d_line;
  logic [31:0]       d_full;
  logic [7:0]        d_need;

  always_comb begin
    win = tbl_i[32'(win_q)*REC_W +: REC_W];
    d_full = 32'(win.count_base) + 32'(off_q >> FB_LOG);
    if (t3_pkt_pkg::pkt_check(hdr_q, 8'(MAX_LEN), FB_LOG) != t3_pkt_pkg::MAL_NONE) d_cause = C_MALFORMED;
    else if (!is_result && !is_pull_rsp && !is_partial) d_cause = C_WRONG_OP;
    else if (!hit_q) d_cause = C_NO_WINDOW;
    else if (win.copy != 2'd0) d_cause = C_WRONG_OP;  // a copy window takes WRITEs only
    else if (h_dtype != win.dtype) d_cause = C_WRONG_DTYPE;
    else if (is_partial && !win.home) d_cause = C_NOT_HOME;
    else if (!is_result && h_count == '0) d_cause = C_OVERCOUNT;
    // The line's counter, whole: a window whose counters run past the array
    // is refused, not wrapped onto another window's lines.
    else if (!is_result && d_full >= COUNT_DEPTH) d_cause = C_COUNTER;
    else d_cause = 4'd0;
    d_line = LINE_W'(d_full);
    // A pull's requester holds its own contribution, a home all of them.
    d_need = is_pull_rsp ? win.expected - 8'd1 : win.expected;
  end

  // ---- the queues: RESULT headers, pulled lines
  logic              res_push, res_full, fin_push, fin_full;
  logic [FLIT_W-1:0] res_head;
  logic [FIN_W-1:0]  fin_head;
  logic [$clog2(RESQ + 1)-1:0] res_count;
  logic [$clog2(FINQ + 1)-1:0] fin_count;
  logic              res_room, fin_room, last_flit;

  t3_fifo #(.DEPTH(RESQ), .WIDTH(FLIT_W)) u_resq (
    .clk_i, .rst_ni, .push_i(res_push), .wdata_i(FLIT_W'(hdr_q)), .pop_i(res_valid_o && res_ready_i),
    .valid_o(res_valid_o), .rdata_o(res_head), .full_o(res_full), .count_o(res_count)
  );
  t3_fifo #(.DEPTH(FINQ), .WIDTH(FIN_W)) u_finq (
    .clk_i, .rst_ni, .push_i(fin_push), .wdata_i({fsrc_q, fdst_q, FLIT_W'(hdr_q)}),
    .pop_i(fin_valid_o && fin_ready_i),
    .valid_o(fin_valid_o), .rdata_o(fin_head), .full_o(fin_full), .count_o(fin_count)
  );
  assign res_room  = 32'(res_count) + 32'(res_resv_q) < RESQ;
  assign fin_room  = 32'(fin_count) + 32'(fin_resv_q) < FINQ;
  assign res_hdr_o = res_valid_o ? res_head : '0;
  assign fin_src_o = fin_valid_o ? fin_head[FIN_W-1 -: 48] : '0;
  assign fin_dst_o = fin_valid_o ? fin_head[FIN_W-49 -: 48] : '0;
  assign fin_hdr_o = fin_valid_o ? fin_head[FLIT_W-1:0] : '0;

  // ---- the outputs of the state
  always_comb begin
    rsp_in_ready_o = 1'b0;
    cnt_valid_o    = 1'b0;
    cnt_op_o       = 2'd0;
    cnt_line_o     = '0;
    cnt_n_o        = '0;
    cnt_limit_o    = '0;
    cnt_len_o      = '0;
    cnt_whole_ok_o = 1'b0;
    mw_valid_o     = 1'b0;
    mw_addr_o      = '0;
    mw_data_o      = '0;
    mw_add_o       = 1'b0;
    mw_dtype_o     = '0;
    drop_o         = 1'b0;
    case (st_q)
      S_IDLE:   rsp_in_ready_o = 1'b1;
      S_DECODE: drop_o = d_cause != 4'd0;
      S_ASK: begin
        cnt_valid_o    = 1'b1;
        cnt_op_o       = 2'd1;  // ADD
        cnt_line_o     = line_q;
        cnt_n_o        = h_count;
        cnt_limit_o    = need_q;
        cnt_len_o      = LEN_W'(h_len);
        cnt_whole_ok_o = is_partial || fin_room;
      end
      S_CLEAR: begin
        cnt_valid_o    = 1'b1;
        cnt_op_o       = 2'd2;  // CLEAR
        cnt_line_o     = line_q;
        cnt_whole_ok_o = 1'b1;
      end
      S_WAIT: drop_o = cnt_rsp_valid_i && (cnt_rsp_code_i == CNT_OVER || cnt_rsp_code_i == 2'd3);
      S_DATA: begin
        rsp_in_ready_o = mw_ready_i;
        mw_valid_o     = rsp_in_valid_i;
        mw_addr_o      = addr_q;
        mw_data_o      = rsp_in_flit_i;
        mw_add_o       = merges && !first_q;
        mw_dtype_o     = h_dtype;
      end
      S_DROP:   rsp_in_ready_o = 1'b1;
      default: ;
    endcase
  end
  assign merging_o    = merges && (st_q == S_ASK || st_q == S_WAIT || st_q == S_HOLD || st_q == S_DATA);
  assign merge_line_o = merging_o ? line_q : '0;
  assign last_flit    = st_q == S_DATA && rsp_in_valid_i && mw_ready_i && left_q == 8'd1;
  assign res_push     = last_flit && is_result;
  assign fin_push     = last_flit && is_pull_rsp && whole_q;

  // ---- status
  logic              home_q;
  logic [WIN_W-1:0]  home_win_q;
  logic [LINE_W-1:0] home_line_q;
  logic [LEN_W-1:0]  home_len_q;
  logic [3:0]        cause_q;
  logic [47:0]       drop_addr_q;
  logic [STAT_W-1:0] stat_results_q, stat_pull_rsps_q, stat_partials_q, stat_drops_q;
  assign home_o           = home_q;
  assign home_win_o       = home_win_q;
  assign home_line_o      = home_line_q;
  assign home_len_o       = home_len_q;
  assign idle_o           = st_q == S_IDLE && !res_valid_o && !fin_valid_o && !home_q;
  assign cause_o          = cause_q;
  assign drop_addr_o      = drop_addr_q;
  assign stat_results_o   = stat_results_q;
  assign stat_pull_rsps_o = stat_pull_rsps_q;
  assign stat_partials_o  = stat_partials_q;
  assign stat_drops_o     = stat_drops_q;

  logic [7:0] wire_data;  // the data flits a dropped header leaves behind it
  assign wire_data = t3_pkt_pkg::data_flits(hdr_q);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q             <= S_IDLE;
      res_resv_q       <= 1'b0;
      fin_resv_q       <= 1'b0;
      home_q           <= 1'b0;
      home_win_q       <= '0;
      home_line_q      <= '0;
      home_len_q       <= '0;
      cause_q          <= '0;
      drop_addr_q      <= '0;
      stat_results_q   <= '0;
      stat_pull_rsps_q <= '0;
      stat_partials_q  <= '0;
      stat_drops_q     <= '0;
    end else begin
      home_q      <= 1'b0;
      home_win_q  <= '0;
      home_line_q <= '0;
      home_len_q  <= '0;
      if (drop_o) begin
        cause_q      <= st_q == S_DECODE ? d_cause : (cnt_rsp_code_i == CNT_OVER ? C_OVERCOUNT : C_COUNTER);
        drop_addr_q  <= h_addr;
        stat_drops_q <= stat_drops_q + 1'b1;
      end
      case (st_q)
        S_IDLE: if (rsp_in_valid_i) begin
          hdr_q <= rsp_in_flit_i[t3_pkt_pkg::HDR_W-1:0];
          st_q  <= S_LOOK;
        end
        S_LOOK: begin
          hit_q <= l_hit;
          win_q <= l_win;
          off_q <= l_off;
          st_q  <= S_DECODE;
        end
        S_DECODE: begin
          if (d_cause != 4'd0) begin
            left_q <= wire_data;
            st_q   <= wire_data != '0 ? S_DROP : S_IDLE;
          end else begin
            line_q <= d_line;
            need_q <= d_need;
            left_q <= h_len;
            fsrc_q <= 48'(win.src) + off_q;
            fdst_q <= 48'(win.dst) + off_q;
            if (is_result) begin
              // Waits for room: the DMA credit controller takes results as it can.
              if (res_room) begin
                res_resv_q     <= 1'b1;
                addr_q         <= 48'(win.dst) + off_q;
                first_q        <= 1'b1;
                stat_results_q <= stat_results_q + 1'b1;
                st_q           <= S_DATA;
              end else begin
                st_q <= S_LOOK;  // waits, looked up again
              end
            end else begin
              addr_q <= (is_pull_rsp ? 48'(win.dst) : 48'(win.merge)) + off_q;
              st_q   <= S_ASK;
            end
          end
        end
        S_ASK: if (cnt_ready_i) st_q <= S_WAIT;
        S_WAIT: if (cnt_rsp_valid_i) begin
          if (cnt_rsp_code_i == CNT_DONE) begin
            first_q <= cnt_rsp_count_i == '0;
            whole_q <= cnt_rsp_whole_i;
            if (is_pull_rsp && cnt_rsp_whole_i) fin_resv_q <= 1'b1;
            if (is_pull_rsp) stat_pull_rsps_q <= stat_pull_rsps_q + 1'b1;
            else stat_partials_q <= stat_partials_q + 1'b1;
            st_q <= S_DATA;
          end else if (cnt_rsp_code_i == CNT_HELD) begin
            st_q <= S_HOLD;
          end else begin
            left_q <= h_len;
            st_q   <= S_DROP;
          end
        end
        S_HOLD: if (fin_room) st_q <= S_ASK;
        S_DATA: if (rsp_in_valid_i && mw_ready_i) begin
          addr_q <= addr_q + 48'(FLIT_W) / 48'd8;
          left_q <= left_q - 8'd1;
          if (left_q == 8'd1) begin
            st_q <= S_IDLE;
            if (is_result) begin
              res_resv_q <= 1'b0;
            end else if (is_pull_rsp && whole_q) begin
              fin_resv_q <= 1'b0;
              st_q       <= S_CLEAR;  // the line's count back to 0 for the next pull
            end else if (is_partial && whole_q) begin
              home_q      <= 1'b1;
              home_win_q  <= win_q;
              home_line_q <= line_q;
              home_len_q  <= LEN_W'(h_len);
            end
          end
        end
        S_CLEAR: if (cnt_ready_i) st_q <= S_IDLE;
        S_DROP: if (rsp_in_valid_i) begin
          left_q <= left_q - 8'd1;
          if (left_q == 8'd1) st_q <= S_IDLE;
        end
        default: st_q <= S_IDLE;
      endcase
    end
  end

  logic unused;
  assign unused = ^{res_full, fin_full, hdr_q, rsp_in_flit_i, tbl_i};

endmodule
