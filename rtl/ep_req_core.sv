// The endpoint's request receiver (docs/blocks/ep_req.md). The C++ model of
// the same core is hw/ep_req/ep_req_core.{h,cpp}; the block around it,
// rtl/ep_req.sv, is generated from hw/ep_req/ep_req.yaml.
//
// A packet at a time: the header taken into hdr_q (IDLE), its window looked
// up in tbl_i (LOOK) and its record checked (DECODE); then a PULL's answer
// reserved in the response queue (RESERVE) and its line read into the
// reserved slots (READ); a deterministic home's PUSH counted (ASK, WAIT;
// HOLD while the line it would make whole has no room in DETQ) and stored in
// its contributor's stage (DATA); a copy WRITE's flits written or added
// (DATA). A packet refused is dropped whole (DROP).
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

  localparam int unsigned FB_LOG = $clog2(FLIT_W / 8);
  localparam logic [3:0] S_IDLE = 4'd0, S_LOOK = 4'd1, S_DECODE = 4'd2, S_ASK = 4'd3, S_WAIT = 4'd4,
                         S_HOLD = 4'd5, S_DATA = 4'd6, S_RESERVE = 4'd7, S_READ = 4'd8, S_DROP = 4'd9;
  localparam logic [3:0] C_MALFORMED = 4'd1, C_NO_WINDOW = 4'd2, C_WRONG_OP = 4'd3, C_OVERCOUNT = 4'd5,
                         C_WRONG_DTYPE = 4'd6, C_WRONG_SRC = 4'd7, C_COUNTER = 4'd8;
  localparam logic [1:0] CNT_DONE = 2'd0, CNT_OVER = 2'd1, CNT_HELD = 2'd2;
  localparam int unsigned DET_W = WIN_W + LINE_W + LEN_W;

  logic [3:0]        st_q;
  logic [t3_pkt_pkg::HDR_W-1:0] hdr_q;
  logic [WIN_W-1:0]  win_q;
  logic [LINE_W-1:0] line_q;
  logic [7:0]        expected_q, left_q;
  logic [1:0]        dtype_q;
  logic [47:0]       addr_q;
  logic [SLOT_W-1:0] tag_q;
  logic              add_q, whole_q, det_resv_q;
  logic [5:0]        rank_q;
  logic [31:0]       stage_q, bytes_q;

  logic [3:0] h_op;
  logic [1:0] h_dtype;
  logic [7:0] h_len, h_count, h_src;
  logic [47:0] h_addr;
  logic is_pull, is_push, is_write;
  assign h_op     = hdr_q[t3_pkt_pkg::OP_LSB +: t3_pkt_pkg::OP_W];
  assign h_dtype  = hdr_q[t3_pkt_pkg::DTYPE_LSB +: t3_pkt_pkg::DTYPE_W];
  assign h_len    = hdr_q[t3_pkt_pkg::LEN_LSB +: t3_pkt_pkg::LEN_W];
  assign h_count  = hdr_q[t3_pkt_pkg::COUNT_LSB +: t3_pkt_pkg::COUNT_W];
  assign h_src    = hdr_q[t3_pkt_pkg::SRC_LSB +: t3_pkt_pkg::SRC_W];
  assign h_addr   = hdr_q[t3_pkt_pkg::ADDR_LSB +: t3_pkt_pkg::ADDR_W];
  assign is_pull  = h_op == t3_pkt_pkg::OP_PULL;
  assign is_push  = h_op == t3_pkt_pkg::OP_PUSH;
  assign is_write = h_op == t3_pkt_pkg::OP_WRITE;

  // ---- the lookup (S_LOOK), registered for the decode
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
  logic [31:0]       d_full;
  logic              d_contrib;
  logic [5:0]        d_rank;
  logic [47:0]       d_base;

  always_comb begin
    win = tbl_i[32'(win_q)*REC_W +: REC_W];
    d_full = 32'(win.count_base) + 32'(off_q >> FB_LOG);
    d_contrib = h_src < 8'd32 && win.contrib_mask[h_src[4:0]];
    // A deterministic home keeps each contributor's line apart, in the
    // stage of its rank among the contributors.
    d_rank = ep_window_pkg::rank(win.contrib_mask, h_src);
    if (t3_pkt_pkg::pkt_check(hdr_q, 8'(MAX_LEN), FB_LOG) != t3_pkt_pkg::MAL_NONE) d_cause = C_MALFORMED;
    else if (!is_pull && !is_push && !is_write) d_cause = C_WRONG_OP;
    else if (!hit_q) d_cause = C_NO_WINDOW;
    else if (is_write ? win.copy == 2'd0 : win.copy != 2'd0) d_cause = C_WRONG_OP;
    else if (!is_write && h_dtype != win.dtype) d_cause = C_WRONG_DTYPE;
    else if (is_push && !win.det) d_cause = C_WRONG_OP;
    else if (is_push && !d_contrib) d_cause = C_WRONG_SRC;
    else if (is_push && h_count != 8'd1) d_cause = C_OVERCOUNT;
    // The line's counter, whole: a window whose counters run past the array
    // is refused, not wrapped onto another window's lines.
    else if (is_push && d_full >= COUNT_DEPTH) d_cause = C_COUNTER;
    else d_cause = 4'd0;
    d_base = is_write ? 48'(win.dst) : 48'(win.src);  // a PUSH's stage: in S_ASK
  end

  // ---- the staged lines' queue
  logic             det_push, det_full, det_room;
  logic [DET_W-1:0] det_head;
  logic [$clog2(DETQ + 1)-1:0] det_count;

  t3_fifo #(.DEPTH(DETQ), .WIDTH(DET_W)) u_detq (
    .clk_i, .rst_ni, .push_i(det_push), .wdata_i({win_q, line_q, LEN_W'(h_len)}),
    .pop_i(det_valid_o && det_ready_i),
    .valid_o(det_valid_o), .rdata_o(det_head), .full_o(det_full), .count_o(det_count)
  );
  assign det_room   = 32'(det_count) + 32'(det_resv_q) < DETQ;
  assign det_win_o  = det_valid_o ? det_head[DET_W-1 -: WIN_W] : '0;
  assign det_line_o = det_valid_o ? det_head[LEN_W +: LINE_W] : '0;
  assign det_len_o  = det_valid_o ? det_head[LEN_W-1:0] : '0;

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
    rsp_hdr[t3_pkt_pkg::CTR_LSB +: t3_pkt_pkg::CTR_W]     = hdr_q[t3_pkt_pkg::CTR_LSB +: t3_pkt_pkg::CTR_W];
    rsp_hdr[t3_pkt_pkg::ADDR_LSB +: t3_pkt_pkg::ADDR_W]   = h_addr;
  end

  // ---- the outputs of the state
  always_comb begin
    req_in_ready_o = 1'b0;
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
    rq_valid_o     = 1'b0;
    rq_hdr_o       = '0;
    rq_len_o       = '0;
    mr_valid_o     = 1'b0;
    mr_addr_o      = '0;
    mr_tag_o       = '0;
    cp_rx_o        = 1'b0;
    drop_o         = 1'b0;
    case (st_q)
      S_IDLE:   req_in_ready_o = 1'b1;
      S_DECODE: drop_o = d_cause != 4'd0;
      S_ASK: begin
        cnt_valid_o    = 1'b1;
        cnt_op_o       = 2'd1;  // ADD
        cnt_line_o     = line_q;
        cnt_n_o        = h_count;
        cnt_limit_o    = expected_q;
        cnt_len_o      = LEN_W'(h_len);
        cnt_whole_ok_o = det_room;
      end
      S_WAIT: drop_o = cnt_rsp_valid_i && (cnt_rsp_code_i == CNT_OVER || cnt_rsp_code_i == 2'd3);
      S_DATA: begin
        req_in_ready_o = mw_ready_i;
        mw_valid_o     = req_in_valid_i;
        mw_addr_o      = addr_q;
        mw_data_o      = req_in_flit_i;
        mw_add_o       = add_q;
        mw_dtype_o     = dtype_q;
        cp_rx_o        = is_write && req_in_valid_i && mw_ready_i;
      end
      S_RESERVE: begin
        rq_valid_o = 1'b1;
        rq_hdr_o   = FLIT_W'(rsp_hdr);
        rq_len_o   = LEN_W'(h_len);
      end
      S_READ: begin
        mr_valid_o = 1'b1;
        mr_addr_o  = addr_q;
        mr_tag_o   = tag_q;
      end
      S_DROP:   req_in_ready_o = 1'b1;
      default: ;
    endcase
  end
  assign cp_win_o = cp_rx_o ? win_q : '0;
  assign det_push = st_q == S_DATA && req_in_valid_i && mw_ready_i && left_q == 8'd1 && is_push && whole_q;

  // ---- status
  logic [3:0]        cause_q;
  logic [47:0]       drop_addr_q;
  logic [STAT_W-1:0] stat_pulls_q, stat_pushes_q, stat_writes_q, stat_drops_q;
  assign idle_o        = st_q == S_IDLE && !det_valid_o;
  assign cause_o       = cause_q;
  assign drop_addr_o   = drop_addr_q;
  assign stat_pulls_o  = stat_pulls_q;
  assign stat_pushes_o = stat_pushes_q;
  assign stat_writes_o = stat_writes_q;
  assign stat_drops_o  = stat_drops_q;

  logic [7:0] wire_data;  // the data flits a dropped header leaves behind it
  assign wire_data = t3_pkt_pkg::data_flits(hdr_q);

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q          <= S_IDLE;
      det_resv_q    <= 1'b0;
      cause_q       <= '0;
      drop_addr_q   <= '0;
      stat_pulls_q  <= '0;
      stat_pushes_q <= '0;
      stat_writes_q <= '0;
      stat_drops_q  <= '0;
    end else begin
      if (drop_o) begin
        cause_q      <= st_q == S_DECODE ? d_cause : (cnt_rsp_code_i == CNT_OVER ? C_OVERCOUNT : C_COUNTER);
        drop_addr_q  <= h_addr;
        stat_drops_q <= stat_drops_q + 1'b1;
      end
      case (st_q)
        S_IDLE: if (req_in_valid_i) begin
          hdr_q <= req_in_flit_i[t3_pkt_pkg::HDR_W-1:0];
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
            line_q     <= LINE_W'(d_full);
            expected_q <= win.expected;
            dtype_q    <= win.dtype;
            add_q      <= is_write && win.copy == 2'd1;
            addr_q     <= d_base + off_q;
            left_q     <= h_len;
            rank_q     <= d_rank;
            stage_q    <= win.stage;
            bytes_q    <= win.bytes;
            if (is_pull) begin
              st_q <= S_RESERVE;
            end else if (is_push) begin
              st_q <= S_ASK;
            end else begin
              stat_writes_q <= stat_writes_q + 1'b1;
              st_q          <= S_DATA;
            end
          end
        end
        S_ASK: begin
          // The stage's address, a cycle after the rank (the decode's
          // record mux, rank and product in one cycle ran at 54.5 MHz).
          addr_q <= 48'(stage_q) + 48'(rank_q) * 48'(bytes_q) + off_q;
          if (cnt_ready_i) st_q <= S_WAIT;
        end
        S_WAIT: if (cnt_rsp_valid_i) begin
          if (cnt_rsp_code_i == CNT_DONE) begin
            whole_q <= cnt_rsp_whole_i;
            if (cnt_rsp_whole_i) det_resv_q <= 1'b1;
            stat_pushes_q <= stat_pushes_q + 1'b1;
            st_q <= S_DATA;
          end else if (cnt_rsp_code_i == CNT_HELD) begin
            st_q <= S_HOLD;
          end else begin
            left_q <= h_len;
            st_q   <= S_DROP;
          end
        end
        S_HOLD: if (det_room) st_q <= S_ASK;
        S_DATA: if (req_in_valid_i && mw_ready_i) begin
          addr_q <= addr_q + 48'(FLIT_W) / 48'd8;
          left_q <= left_q - 8'd1;
          if (left_q == 8'd1) begin
            st_q <= S_IDLE;
            if (is_push && whole_q) det_resv_q <= 1'b0;
          end
        end
        S_RESERVE: if (rq_ready_i) begin
          tag_q        <= rq_slot_i;
          stat_pulls_q <= stat_pulls_q + 1'b1;
          st_q         <= S_READ;
        end
        S_READ: if (mr_ready_i) begin
          addr_q <= addr_q + 48'(FLIT_W) / 48'd8;
          tag_q  <= 32'(tag_q) == SLOTS - 1 ? '0 : tag_q + 1'b1;
          left_q <= left_q - 8'd1;
          if (left_q == 8'd1) st_q <= S_IDLE;
        end
        S_DROP: if (req_in_valid_i) begin
          left_q <= left_q - 8'd1;
          if (left_q == 8'd1) st_q <= S_IDLE;
        end
        default: st_q <= S_IDLE;
      endcase
    end
  end

  logic unused;
  assign unused = ^{det_full, hdr_q, req_in_flit_i, tbl_i, cnt_rsp_count_i, d_full};

endmodule
