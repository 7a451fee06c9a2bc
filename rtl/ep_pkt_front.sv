// The front end the endpoint's packet-taking engines share (ep_rx, ep_req;
// docs/blocks/innet_endpoint.md, "The packet front end"). The C++ model of
// the same logic is hw/ep_window/ep_pkt_front.{h,cpp}.
//
// A packet at a time: the header taken into hdr_q (IDLE), its window looked
// up in tbl_i (LOOK), its record and the checks every engine makes first
// shown to the engine, whose verdict it acts on (DECODE); a merge's
// contribution counted with ep_count's ADD (ASK, WAIT; HOLD while the
// engine has no room for the line it would make whole); then the packet is
// the engine's until the engine says it is done (BODY). A packet refused,
// at its decode or by the counter, is dropped whole (DROP), its cause and
// address kept for the registers.
module ep_pkt_front #(
  parameter int unsigned FLIT_W      = 128,
  parameter int unsigned MAX_LEN     = 4,
  parameter int unsigned WINDOWS     = 4,
  parameter int unsigned COUNT_DEPTH = 4096,
  parameter int unsigned STAT_W      = 32,
  localparam int unsigned WIN_W  = (WINDOWS > 1) ? $clog2(WINDOWS) : 1,
  localparam int unsigned LINE_W = (COUNT_DEPTH > 1) ? $clog2(COUNT_DEPTH) : 1,
  localparam int unsigned LEN_W  = (MAX_LEN > 0) ? $clog2(MAX_LEN + 1) : 1,
  localparam int unsigned REC_W  = ep_window_pkg::REC_W,
  localparam int unsigned TBL_W  = (WINDOWS * REC_W + 127) / 128 * 128,
  localparam int unsigned HDR_W  = t3_pkt_pkg::HDR_W
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              in_valid_i,
  output logic              in_ready_o,
  input  logic [FLIT_W-1:0] in_flit_i,
  input  logic [TBL_W-1:0]  tbl_i,
  // the packet, for the engine
  output logic [HDR_W-1:0]  hdr_o,
  output logic [REC_W-1:0]  rec_o,       // the record of the window found
  output logic [WIN_W-1:0]  win_o,
  output logic [47:0]       off_o,       // the packet's offset in it
  output logic [LINE_W-1:0] line_o,      // its line's counter, from the engine's take
  output logic              take_o,      // the engine takes the packet (at its decode)
  output logic              counting_o,  // ASK, WAIT or HOLD
  output logic              counted_o,   // the ADD answered DONE: the body begins
  output logic              body_o,
  output logic              idle_o,
  // the engine's verdict, read at the decode
  input  logic              takes_op_i,  // an opcode the engine takes
  input  logic [3:0]        cause_i,     // its own checks' cause, after the first three
  input  logic              count_i,     // a merge: its contribution counted before the body
  input  logic              wait_i,      // neither taken nor refused: looked up again
  input  logic [7:0]        limit_i,     // the count the line is whole at
  // the engine's body
  input  logic              room_i,      // room for the line a count would make whole
  input  logic              body_ready_i,
  input  logic              body_done_i,
  // ep_count's port: the merge's ADD
  output logic              cnt_valid_o,
  input  logic              cnt_ready_i,
  output logic [LINE_W-1:0] cnt_line_o,
  output logic [7:0]        cnt_n_o,
  output logic [7:0]        cnt_limit_o,
  output logic [LEN_W-1:0]  cnt_len_o,
  output logic              cnt_whole_ok_o,
  input  logic              cnt_rsp_valid_i,
  input  logic [1:0]        cnt_rsp_code_i,
  // the drops
  output logic              drop_o,
  output logic [3:0]        cause_o,
  output logic [47:0]       drop_addr_o,
  output logic [STAT_W-1:0] stat_drops_o
);

  localparam int unsigned FB_LOG = $clog2(FLIT_W / 8);
  localparam logic [2:0] S_IDLE = 3'd0, S_LOOK = 3'd1, S_DECODE = 3'd2, S_ASK = 3'd3, S_WAIT = 3'd4,
                         S_HOLD = 3'd5, S_BODY = 3'd6, S_DROP = 3'd7;
  localparam logic [3:0] C_MALFORMED = 4'd1, C_NO_WINDOW = 4'd2, C_WRONG_OP = 4'd3, C_OVERCOUNT = 4'd5,
                         C_COUNTER = 4'd8;
  localparam logic [1:0] CNT_DONE = 2'd0, CNT_OVER = 2'd1, CNT_HELD = 2'd2;

  logic [2:0]        st_q;
  logic [HDR_W-1:0]  hdr_q;
  logic              hit_q;
  logic [WIN_W-1:0]  win_q;
  logic [47:0]       off_q;
  logic [LINE_W-1:0] line_q;
  logic [7:0]        limit_q, left_q;

  logic [7:0]  h_len, h_count;
  logic [47:0] h_addr;
  assign h_len   = hdr_q[t3_pkt_pkg::LEN_LSB +: t3_pkt_pkg::LEN_W];
  assign h_count = hdr_q[t3_pkt_pkg::COUNT_LSB +: t3_pkt_pkg::COUNT_W];
  assign h_addr  = hdr_q[t3_pkt_pkg::ADDR_LSB +: t3_pkt_pkg::ADDR_W];

  // ---- the lookup (S_LOOK): the lowest window holding the packet whole,
  // and the packet's offset in it, registered for the decode
  logic              l_hit;
  logic [WIN_W-1:0]  l_win;
  logic [47:0]       l_off;

  ep_win_lookup #(.FLIT_W(FLIT_W), .WINDOWS(WINDOWS)) u_lookup (
    .tbl_i, .addr_i(h_addr), .len_i(h_len), .hit_o(l_hit), .win_o(l_win), .off_o(l_off)
  );

  // ---- the decode (S_DECODE): the checks every engine makes first, the
  // engine's, then the line's counter, whole: a window whose counters run
  // past the array is refused, not wrapped onto another window's lines
  /* verilator lint_off UNUSEDSIGNAL */  // a record's fields the front end does not read
  ep_window_pkg::ep_win_t win;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [31:0] d_full;
  logic [3:0]  d_cause;

  // The record apart from the verdict: the engine's checks read it and
  // feed the verdict.
  assign win    = tbl_i[32'(win_q)*REC_W +: REC_W];
  assign d_full = 32'(win.count_base) + 32'(off_q >> FB_LOG);
  always_comb begin
    if (t3_pkt_pkg::pkt_check(hdr_q, 8'(MAX_LEN), FB_LOG) != t3_pkt_pkg::MAL_NONE) d_cause = C_MALFORMED;
    else if (!takes_op_i) d_cause = C_WRONG_OP;
    else if (!hit_q) d_cause = C_NO_WINDOW;
    else if (cause_i != 4'd0) d_cause = cause_i;
    else if (count_i && d_full >= COUNT_DEPTH) d_cause = C_COUNTER;
    else d_cause = 4'd0;
  end

  assign hdr_o      = hdr_q;
  assign rec_o      = win;
  assign win_o      = win_q;
  assign off_o      = off_q;
  assign line_o     = line_q;
  assign take_o     = st_q == S_DECODE && d_cause == 4'd0 && !wait_i;
  assign counting_o = st_q == S_ASK || st_q == S_WAIT || st_q == S_HOLD;
  assign counted_o  = st_q == S_WAIT && cnt_rsp_valid_i && cnt_rsp_code_i == CNT_DONE;
  assign body_o     = st_q == S_BODY;
  assign idle_o     = st_q == S_IDLE;
  assign in_ready_o = st_q == S_IDLE || st_q == S_DROP || (st_q == S_BODY && body_ready_i);

  assign cnt_valid_o    = st_q == S_ASK;
  assign cnt_line_o     = cnt_valid_o ? line_q : '0;
  assign cnt_n_o        = cnt_valid_o ? h_count : '0;
  assign cnt_limit_o    = cnt_valid_o ? limit_q : '0;
  assign cnt_len_o      = cnt_valid_o ? LEN_W'(h_len) : '0;
  assign cnt_whole_ok_o = cnt_valid_o && room_i;

  assign drop_o = (st_q == S_DECODE && d_cause != 4'd0) ||
                  (st_q == S_WAIT && cnt_rsp_valid_i && (cnt_rsp_code_i == CNT_OVER || cnt_rsp_code_i == 2'd3));

  // ---- status
  logic [3:0]        cause_q;
  logic [47:0]       drop_addr_q;
  logic [STAT_W-1:0] stat_drops_q;
  assign cause_o      = cause_q;
  assign drop_addr_o  = drop_addr_q;
  assign stat_drops_o = stat_drops_q;

  logic [7:0] wire_data;  // the data flits a dropped header leaves behind it
  assign wire_data = t3_pkt_pkg::data_flits(hdr_q);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q         <= S_IDLE;
      cause_q      <= '0;
      drop_addr_q  <= '0;
      stat_drops_q <= '0;
    end else begin
      if (drop_o) begin
        cause_q      <= st_q == S_DECODE ? d_cause : (cnt_rsp_code_i == CNT_OVER ? C_OVERCOUNT : C_COUNTER);
        drop_addr_q  <= h_addr;
        stat_drops_q <= stat_drops_q + 1'b1;
      end
      case (st_q)
        S_IDLE: if (in_valid_i) begin
          hdr_q <= in_flit_i[HDR_W-1:0];
          st_q  <= S_LOOK;
        end
        S_LOOK: begin
          hit_q <= l_hit;
          win_q <= l_win;
          off_q <= l_off;
          st_q  <= S_DECODE;
        end
        S_DECODE: begin
          // Loaded whatever the verdict (read only in DROP): the verdict's
          // path kept off it.
          left_q <= wire_data;
          if (d_cause != 4'd0) begin
            st_q <= wire_data != '0 ? S_DROP : S_IDLE;
          end else if (wait_i) begin
            st_q <= S_LOOK;  // looked up again
          end else begin
            line_q  <= LINE_W'(d_full);
            limit_q <= limit_i;
            st_q    <= count_i ? S_ASK : S_BODY;
          end
        end
        S_ASK: if (cnt_ready_i) st_q <= S_WAIT;
        S_WAIT: if (cnt_rsp_valid_i) begin
          if (cnt_rsp_code_i == CNT_DONE) begin
            st_q <= S_BODY;
          end else if (cnt_rsp_code_i == CNT_HELD) begin
            st_q <= S_HOLD;
          end else begin
            left_q <= h_len;
            st_q   <= S_DROP;
          end
        end
        S_HOLD: if (room_i) st_q <= S_ASK;
        S_BODY: if (body_done_i) st_q <= S_IDLE;
        S_DROP: if (in_valid_i) begin
          left_q <= left_q - 8'd1;
          if (left_q == 8'd1) st_q <= S_IDLE;
        end
        default: st_q <= S_IDLE;
      endcase
    end
  end

  logic unused;
  assign unused = ^{in_flit_i, tbl_i};

endmodule
