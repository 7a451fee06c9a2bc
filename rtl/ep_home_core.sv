// The endpoint's home (docs/blocks/ep_home.md). The C++ model of the same
// core is hw/ep_home/ep_home_core.{h,cpp}; the block around it,
// rtl/ep_home.sv, is generated from hw/ep_home/ep_home.yaml.
//
// Lines merged whole wait in the home queue (u_homeq), or, once it has
// overflowed, in the counters (pending_q of them), found by the sweep
// (SWEEP: a READ of counter sweep_at_q; SWEEP_WAIT: its answer against the
// window that holds it). A line at a time: its RESULT header built and a
// place in the result queue reserved (START), the header and its data slots
// reserved in the response queue (RESERVE), the merge area read into them
// by tag (READ), every answer back and copied to dst (DRAIN, the copy in
// buf_q, flops), the line's counter cleared and the header queued (CLEAR).
module ep_home_core #(
  parameter int unsigned FLIT_W      = 128,
  parameter int unsigned MAX_LEN     = 4,
  parameter int unsigned WINDOWS     = 4,
  parameter int unsigned COUNT_DEPTH = 4096,
  parameter int unsigned SLOTS       = 10,
  parameter int unsigned HOME_Q      = 8,
  parameter int unsigned RESQ        = 4,
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
  input  logic [7:0]        node_i,
  input  logic [TBL_W-1:0]  tbl_i,
  input  logic              home_i,
  input  logic [WIN_W-1:0]  home_win_i,
  input  logic [LINE_W-1:0] home_line_i,
  input  logic [LEN_W-1:0]  home_len_i,
  input  logic              merging_i,
  input  logic [LINE_W-1:0] merge_line_i,
  input  logic              hq_valid_i,
  output logic              hq_ready_o,
  input  logic [WIN_W-1:0]  hq_win_i,
  input  logic [LINE_W-1:0] hq_line_i,
  input  logic [LEN_W-1:0]  hq_len_i,
  output logic              cnt_valid_o,
  input  logic              cnt_ready_i,
  output logic [1:0]        cnt_op_o,
  output logic [LINE_W-1:0] cnt_line_o,
  input  logic              cnt_rsp_valid_i,
  input  logic [1:0]        cnt_rsp_code_i,
  input  logic [7:0]        cnt_rsp_count_i,
  input  logic [LEN_W-1:0]  cnt_rsp_len_i,
  output logic              rq_valid_o,
  input  logic              rq_ready_i,
  output logic [FLIT_W-1:0] rq_hdr_o,
  output logic [LEN_W-1:0]  rq_len_o,
  input  logic [SLOT_W-1:0] rq_slot_i,
  output logic              mr_valid_o,
  input  logic              mr_ready_i,
  output logic [47:0]       mr_addr_o,
  output logic [SLOT_W-1:0] mr_tag_o,
  input  logic              md_valid_i,
  input  logic [SLOT_W-1:0] md_tag_i,
  input  logic [FLIT_W-1:0] md_data_i,
  output logic              mw_valid_o,
  input  logic              mw_ready_i,
  output logic [47:0]       mw_addr_o,
  output logic [FLIT_W-1:0] mw_data_o,
  output logic              res_valid_o,
  input  logic              res_ready_i,
  output logic [FLIT_W-1:0] res_hdr_o,
  output logic              idle_o,
  output logic              stray_o,
  output logic              bad_o,
  output logic              lost_o,
  output logic [16:0]       pending_o,
  output logic [STAT_W-1:0] stat_results_o,
  output logic [STAT_W-1:0] stat_sweeps_o,
  output logic [STAT_W-1:0] stat_strays_o,
  output logic [STAT_W-1:0] stat_bad_o,
  output logic [STAT_W-1:0] stat_lost_o
);

  localparam int unsigned FB_LOG = $clog2(FLIT_W / 8);
  localparam logic [2:0] S_IDLE = 3'd0, S_SWEEP = 3'd1, S_SWEEP_WAIT = 3'd2, S_START = 3'd3,
                         S_RESERVE = 3'd4, S_READ = 3'd5, S_DRAIN = 3'd6, S_CLEAR = 3'd7;
  localparam int unsigned LQ_W = WIN_W + LINE_W + LEN_W;
  localparam int unsigned IW = $clog2(SLOTS + 1);  // a line's flit count, in the slots' arithmetic
  localparam int unsigned BI_W = (MAX_LEN > 1) ? $clog2(MAX_LEN) : 1;  // an index of buf_q, got_q

  logic [2:0]        st_q;
  logic [WIN_W-1:0]  win_q;
  logic [LINE_W-1:0] line_q, sweep_at_q;
  logic [LEN_W-1:0]  len_q;
  logic [t3_pkt_pkg::HDR_W-1:0] hdr_q;
  logic [47:0]       addr_q, echo_addr_q;
  logic              echo_q, res_resv_q;
  logic [SLOT_W-1:0] first_q, tag_q;
  logic [LEN_W-1:0]  issued_q, back_q, eidx_q;
  logic [MAX_LEN-1:0] got_q;
  logic [FLIT_W-1:0] buf_q [MAX_LEN];
  logic [16:0]       pending_q;
  // Sweep answers in a row that found nothing since a line last went to
  // pending (up to COUNT_DEPTH: a round).
  logic [16:0]       miss_q;

  // ---- the home queue and the result queue
  logic              hq_push, hq_pop, hq_full, res_push, res_full, res_room;
  logic [LQ_W-1:0]   hq_in, hq_head;
  logic [FLIT_W-1:0] res_head;
  logic [$clog2(HOME_Q + 1)-1:0] hq_count;
  logic [$clog2(RESQ + 1)-1:0]   res_count;
  logic              hq_valid, hq_room;

  t3_fifo #(.DEPTH(HOME_Q), .WIDTH(LQ_W)) u_homeq (
    .clk_i, .rst_ni, .push_i(hq_push), .wdata_i(hq_in), .pop_i(hq_pop),
    .valid_o(hq_valid), .rdata_o(hq_head), .full_o(hq_full), .count_o(hq_count)
  );
  t3_fifo #(.DEPTH(RESQ), .WIDTH(FLIT_W)) u_resq (
    .clk_i, .rst_ni, .push_i(res_push), .wdata_i(FLIT_W'(hdr_q)), .pop_i(res_valid_o && res_ready_i),
    .valid_o(res_valid_o), .rdata_o(res_head), .full_o(res_full), .count_o(res_count)
  );
  logic              home_ok, hq_ok;  // a line's length in 1..MAX_LEN: else refused (bad_o)
  // The upper check is constant when MAX_LEN + 1 is a power of two (no
  // LEN_W-bit length passes it): the lint says so, and that is right.
  /* verilator lint_off CMPCONST */
  assign home_ok    = home_len_i != '0 && 32'(home_len_i) <= MAX_LEN;
  assign hq_ok      = hq_len_i != '0 && 32'(hq_len_i) <= MAX_LEN;
  /* verilator lint_on CMPCONST */
  assign hq_room    = 32'(hq_count) < HOME_Q;
  assign hq_ready_o = !home_i && hq_room;
  assign bad_o      = home_i ? !home_ok : hq_valid_i && hq_ready_o && !hq_ok;
  // ep_rx's pulse first: into the queue while it has room and no line
  // waits for the sweep (the sweep finds each line once), else pending.
  assign hq_push    = home_i ? home_ok && pending_q == '0 && hq_room : hq_valid_i && hq_ready_o && hq_ok;
  assign hq_in      = home_i ? {home_win_i, home_line_i, home_len_i} : {hq_win_i, hq_line_i, hq_len_i};
  assign hq_pop     = st_q == S_IDLE && hq_valid;
  assign res_room   = 32'(res_count) + 32'(res_resv_q) < RESQ;
  assign res_hdr_o  = res_valid_o ? res_head : '0;

  // ---- the sweep's lookup: the lowest home window (valid, not
  // deterministic) whose counters hold counter sweep_at_q
  logic             s_hit;
  logic [7:0]       s_expected;
  logic [WIN_W-1:0] s_win;
  always_comb begin
    s_hit = 1'b0;
    s_expected = '0;
    s_win = '0;
    for (int w = WINDOWS - 1; w >= 0; w--) begin
      // The record's fields by their places (yosys 0.23: no struct
      // variable assigned in a loop).
      if (tbl_i[w*REC_W + ep_window_pkg::REC_VALID] && tbl_i[w*REC_W + ep_window_pkg::REC_HOME] &&
          !tbl_i[w*REC_W + ep_window_pkg::REC_DET] &&
          32'(sweep_at_q) >= 32'(tbl_i[w*REC_W + ep_window_pkg::REC_COUNT_BASE +: 21]) &&
          32'(sweep_at_q) - 32'(tbl_i[w*REC_W + ep_window_pkg::REC_COUNT_BASE +: 21]) <
              (tbl_i[w*REC_W + ep_window_pkg::REC_BYTES +: 32] >> FB_LOG)) begin
        s_hit = 1'b1;
        s_win = WIN_W'(w);
        s_expected = tbl_i[w*REC_W + ep_window_pkg::REC_EXPECTED +: 8];
      end
    end
  end
  logic s_whole, s_full, s_merging;
  /* verilator lint_off CMPCONST */  // the length's upper check, as home_ok's
  assign s_full    = s_hit && cnt_rsp_code_i == 2'd0 && cnt_rsp_len_i != '0 && 32'(cnt_rsp_len_i) <= MAX_LEN &&
                     cnt_rsp_count_i == s_expected;
  /* verilator lint_on CMPCONST */
  assign s_merging = merging_i && merge_line_i == sweep_at_q;
  assign s_whole   = s_full && !s_merging;

  // ---- the line's window (START): the RESULT, the merge area, the copy
  /* verilator lint_off UNUSEDSIGNAL */  // a record's fields the home does not read
  ep_window_pkg::ep_win_t win;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [47:0] off;  // the line's offset in its window
  logic [t3_pkt_pkg::HDR_W-1:0] res_hdr;
  always_comb begin
    win = tbl_i[32'(win_q)*REC_W +: REC_W];
    off = ep_window_pkg::line_off(32'(line_q), 32'(win.count_base), FB_LOG);
    res_hdr = '0;
    res_hdr[t3_pkt_pkg::OP_LSB +: t3_pkt_pkg::OP_W]       = t3_pkt_pkg::OP_RESULT;
    res_hdr[t3_pkt_pkg::DTYPE_LSB +: t3_pkt_pkg::DTYPE_W] = win.dtype;
    res_hdr[t3_pkt_pkg::LEN_LSB +: t3_pkt_pkg::LEN_W]     = 8'(len_q);
    res_hdr[t3_pkt_pkg::SRC_LSB +: t3_pkt_pkg::SRC_W]     = node_i;
    res_hdr[t3_pkt_pkg::COUNT_LSB +: t3_pkt_pkg::COUNT_W] = win.expected;
    res_hdr[t3_pkt_pkg::ADDR_LSB +: t3_pkt_pkg::ADDR_W]   = win.net_base + off;
  end

  // ---- the answers: the flit of the line a tag is for, if awaited
  logic [IW-1:0] a_idx;
  logic          a_ok, echo_now;
  always_comb begin
    a_idx = md_tag_i >= first_q ? IW'(md_tag_i) - IW'(first_q) : IW'(md_tag_i) + IW'(SLOTS) - IW'(first_q);
    a_ok  = (st_q == S_READ || st_q == S_DRAIN) && 32'(md_tag_i) < SLOTS && 32'(first_q) < SLOTS &&
            32'(a_idx) < 32'(issued_q) &&
            32'(a_idx) < MAX_LEN && !got_q[BI_W'(a_idx)];
  end
  assign stray_o  = md_valid_i && !a_ok;
  assign echo_now = (st_q == S_READ || st_q == S_DRAIN) && echo_q && eidx_q < len_q && 32'(eidx_q) < MAX_LEN &&
                    got_q[BI_W'(eidx_q)];

  // ---- the outputs of the state
  always_comb begin
    cnt_valid_o = 1'b0;
    cnt_op_o    = 2'd0;
    cnt_line_o  = '0;
    rq_valid_o  = 1'b0;
    rq_hdr_o    = '0;
    rq_len_o    = '0;
    mr_valid_o  = 1'b0;
    mr_addr_o   = '0;
    mr_tag_o    = '0;
    case (st_q)
      S_SWEEP: begin
        cnt_valid_o = 1'b1;
        cnt_op_o    = 2'd0;  // READ
        cnt_line_o  = sweep_at_q;
      end
      S_CLEAR: begin
        cnt_valid_o = 1'b1;
        cnt_op_o    = 2'd2;  // CLEAR
        cnt_line_o  = line_q;
      end
      S_RESERVE: begin
        rq_valid_o = 1'b1;
        rq_hdr_o   = FLIT_W'(hdr_q);
        rq_len_o   = len_q;
      end
      S_READ: begin
        mr_valid_o = 1'b1;
        mr_addr_o  = addr_q;
        mr_tag_o   = tag_q;
      end
      default: ;
    endcase
  end
  assign mw_valid_o = echo_now;
  assign mw_addr_o  = echo_now ? echo_addr_q : '0;
  assign mw_data_o  = echo_now ? buf_q[BI_W'(eidx_q)] : '0;
  assign res_push   = st_q == S_CLEAR && cnt_ready_i;

  // ---- status
  logic [STAT_W-1:0] stat_results_q, stat_sweeps_q, stat_strays_q, stat_bad_q, stat_lost_q;
  assign idle_o         = st_q == S_IDLE && !hq_valid && pending_q == '0 && !res_valid_o;
  assign pending_o      = pending_q;
  assign stat_results_o = stat_results_q;
  assign stat_sweeps_o  = stat_sweeps_q;
  assign stat_strays_o  = stat_strays_q;
  assign stat_bad_o     = stat_bad_q;

  logic found;  // the sweep found a whole line this cycle
  assign found = st_q == S_SWEEP_WAIT && cnt_rsp_valid_i && s_whole;
  // A round of the sweep with no line found gives the pending lines up:
  // each one's counter or window changed under it (docs/blocks/ep_home.md,
  // "The sweep gives up"). A line into pending starts the round again; one
  // still merging (whole but for ep_rx's data) ends it.
  logic to_pending, s_miss;
  assign to_pending = home_i && home_ok && !(pending_q == '0 && hq_room);
  assign s_miss     = st_q == S_SWEEP_WAIT && cnt_rsp_valid_i && !s_full;
  assign lost_o     = s_miss && 32'(miss_q) + 1 >= COUNT_DEPTH && !to_pending;
  assign stat_lost_o = stat_lost_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q           <= S_IDLE;
      pending_q      <= '0;
      sweep_at_q     <= '0;
      res_resv_q     <= 1'b0;
      stat_results_q <= '0;
      stat_sweeps_q  <= '0;
      stat_strays_q  <= '0;
      stat_bad_q     <= '0;
      stat_lost_q    <= '0;
      miss_q         <= '0;
    end else begin
      if (lost_o) begin
        pending_q   <= '0;
        miss_q      <= '0;
        stat_lost_q <= stat_lost_q + STAT_W'(pending_q);
      end else begin
        pending_q <= pending_q + 17'(to_pending) - 17'(found);
        if (to_pending || found || (st_q == S_SWEEP_WAIT && cnt_rsp_valid_i && s_full)) miss_q <= '0;
        else if (s_miss) miss_q <= miss_q + 1'b1;
      end
      if (stray_o) stat_strays_q <= stat_strays_q + 1'b1;
      if (bad_o) stat_bad_q <= stat_bad_q + 1'b1;
      if (md_valid_i && a_ok) begin
        got_q[BI_W'(a_idx)] <= 1'b1;
        back_q       <= back_q + 1'b1;
      end
      if (echo_now && mw_ready_i) begin
        eidx_q      <= eidx_q + 1'b1;
        echo_addr_q <= echo_addr_q + 48'(FLIT_W) / 48'd8;
      end
      case (st_q)
        S_IDLE: begin
          if (hq_valid) begin
            {win_q, line_q, len_q} <= hq_head;
            st_q <= S_START;
          end else if (pending_q != '0) begin
            st_q <= S_SWEEP;
          end
        end
        S_SWEEP: if (cnt_ready_i) st_q <= S_SWEEP_WAIT;
        S_SWEEP_WAIT: if (cnt_rsp_valid_i) begin
          sweep_at_q <= 32'(sweep_at_q) + 1 == COUNT_DEPTH ? '0 : sweep_at_q + 1'b1;
          st_q       <= S_IDLE;
          if (s_whole) begin
            win_q         <= s_win;
            line_q        <= sweep_at_q;
            len_q         <= cnt_rsp_len_i;
            stat_sweeps_q <= stat_sweeps_q + 1'b1;
            st_q          <= S_START;
          end
        end
        S_START: if (res_room) begin
          hdr_q       <= res_hdr;
          addr_q      <= 48'(win.merge) + off;
          echo_addr_q <= 48'(win.dst) + off;
          echo_q      <= win.merge != win.dst;
          res_resv_q  <= 1'b1;
          st_q        <= S_RESERVE;
        end
        S_RESERVE: if (rq_ready_i) begin
          first_q  <= rq_slot_i;
          tag_q    <= rq_slot_i;
          issued_q <= '0;
          back_q   <= '0;
          eidx_q   <= '0;
          got_q    <= '0;
          st_q     <= S_READ;
        end
        S_READ: if (mr_ready_i) begin
          addr_q   <= addr_q + 48'(FLIT_W) / 48'd8;
          tag_q    <= 32'(tag_q) == SLOTS - 1 ? '0 : tag_q + 1'b1;
          issued_q <= issued_q + 1'b1;
          if (issued_q + 1'b1 == len_q) st_q <= S_DRAIN;
        end
        S_DRAIN: if (back_q == len_q && (!echo_q || eidx_q == len_q)) st_q <= S_CLEAR;
        S_CLEAR: if (cnt_ready_i) begin
          res_resv_q     <= 1'b0;
          stat_results_q <= stat_results_q + 1'b1;
          st_q           <= S_IDLE;
        end
        default: st_q <= S_IDLE;
      endcase
    end
  end

  // The answers' data: no reset (got_q says which are there).
  always_ff @(posedge clk_i) begin
    if (md_valid_i && a_ok) buf_q[BI_W'(a_idx)] <= md_data_i;
  end

  logic unused;
  assign unused = ^{hq_full, res_full, tbl_i};

endmodule
