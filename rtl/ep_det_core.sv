// The endpoint's in-order add for the deterministic mode
// (docs/blocks/ep_det.md). The C++ model of the same core is
// hw/ep_det/ep_det_core.{h,cpp}; the block around it, rtl/ep_det.sv, is
// generated from hw/ep_det/ep_det.yaml.
//
// A line at a time: taken (IDLE), its window's record read (START), its
// expected x len contributions read from the stages in rank order while
// fewer than BUF are outstanding (tag: the read's place in the ring buf_q,
// flops) and written into the merge area in that order as their answers are
// there, the first contributor's stored and the others added (RUN), then
// handed to the home (DONE).
module ep_det_core #(
  parameter int unsigned FLIT_W      = 128,
  parameter int unsigned MAX_LEN     = 4,
  parameter int unsigned WINDOWS     = 4,
  parameter int unsigned COUNT_DEPTH = 4096,
  parameter int unsigned BUF         = 8,
  parameter int unsigned STAT_W      = 32,
  // At least 1 even out of range, so that elaboration reaches the top's checks.
  localparam int unsigned WIN_W  = (WINDOWS > 1) ? $clog2(WINDOWS) : 1,
  localparam int unsigned LINE_W = (COUNT_DEPTH > 1) ? $clog2(COUNT_DEPTH) : 1,
  localparam int unsigned LEN_W  = (MAX_LEN > 0) ? $clog2(MAX_LEN + 1) : 1,
  localparam int unsigned TAG_W  = (BUF > 1) ? $clog2(BUF) : 1,
  localparam int unsigned REC_W  = ep_window_pkg::REC_W,
  localparam int unsigned TBL_W  = (WINDOWS * REC_W + 127) / 128 * 128
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic [TBL_W-1:0]  tbl_i,
  input  logic              det_valid_i,
  output logic              det_ready_o,
  input  logic [WIN_W-1:0]  det_win_i,
  input  logic [LINE_W-1:0] det_line_i,
  input  logic [LEN_W-1:0]  det_len_i,
  output logic              mr_valid_o,
  input  logic              mr_ready_i,
  output logic [47:0]       mr_addr_o,
  output logic [TAG_W-1:0]  mr_tag_o,
  input  logic              md_valid_i,
  input  logic [TAG_W-1:0]  md_tag_i,
  input  logic [FLIT_W-1:0] md_data_i,
  output logic              mw_valid_o,
  input  logic              mw_ready_i,
  output logic [47:0]       mw_addr_o,
  output logic [FLIT_W-1:0] mw_data_o,
  output logic              mw_add_o,
  output logic [1:0]        mw_dtype_o,
  output logic              hq_valid_o,
  input  logic              hq_ready_i,
  output logic [WIN_W-1:0]  hq_win_o,
  output logic [LINE_W-1:0] hq_line_o,
  output logic [LEN_W-1:0]  hq_len_o,
  output logic              idle_o,
  output logic              stray_o,
  output logic [STAT_W-1:0] stat_lines_o,
  output logic [STAT_W-1:0] stat_flits_o,
  output logic [STAT_W-1:0] stat_strays_o
);

  localparam int unsigned FB_LOG = $clog2(FLIT_W / 8);
  localparam logic [1:0] S_IDLE = 2'd0, S_START = 2'd1, S_RUN = 2'd2, S_DONE = 2'd3;
  localparam int unsigned FB_BYTES = FLIT_W / 8;
  localparam logic [47:0] FB = 48'(FB_BYTES);

  logic [1:0]        st_q;
  logic [WIN_W-1:0]  win_q;
  logic [LINE_W-1:0] line_q;
  logic [LEN_W-1:0]  len_q, ri_q, ui_q;
  logic [1:0]        dtype_q;
  logic [15:0]       total_q, rn_q, un_q;  // flits to add (at most 255 x 16); read; written
  logic [TAG_W-1:0]  rslot_q, uslot_q;
  logic [31:0]       bytes_q;
  logic [47:0]       rbase_q, raddr_q, wbase_q, waddr_q;
  logic [BUF-1:0]    pend_q, got_q;  // a ring place: read and not answered; answered and not written
  logic [FLIT_W-1:0] buf_q [BUF];
  logic [STAT_W-1:0] stat_lines_q, stat_flits_q, stat_strays_q;

  // ---- the line's window (START)
  /* verilator lint_off UNUSEDSIGNAL */  // a record's fields the add does not read
  ep_window_pkg::ep_win_t win;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [47:0] off;  // the line's offset in its window
  always_comb begin
    win = tbl_i[32'(win_q)*REC_W +: REC_W];
    off = ep_window_pkg::line_off(32'(line_q), 32'(win.count_base), FB_LOG);
  end

  logic rd, wr, ans;
  assign rd  = st_q == S_RUN && rn_q < total_q && rn_q - un_q < 16'(BUF);
  assign wr  = st_q == S_RUN && got_q[uslot_q];
  assign ans = md_valid_i && 32'(md_tag_i) < BUF && pend_q[md_tag_i];

  assign det_ready_o   = st_q == S_IDLE;
  assign mr_valid_o    = rd;
  assign mr_addr_o     = rd ? raddr_q : '0;
  assign mr_tag_o      = rd ? rslot_q : '0;
  assign mw_valid_o    = wr;
  assign mw_addr_o     = wr ? waddr_q : '0;
  assign mw_data_o     = wr ? buf_q[uslot_q] : '0;
  // The first contributor's flits stored, every other's added.
  assign mw_add_o      = wr && un_q >= 16'(len_q);
  assign mw_dtype_o    = wr ? dtype_q : '0;
  assign hq_valid_o    = st_q == S_DONE;
  assign hq_win_o      = hq_valid_o ? win_q : '0;
  assign hq_line_o     = hq_valid_o ? line_q : '0;
  assign hq_len_o      = hq_valid_o ? len_q : '0;
  assign idle_o        = st_q == S_IDLE;
  assign stray_o       = md_valid_i && !ans;
  assign stat_lines_o  = stat_lines_q;
  assign stat_flits_o  = stat_flits_q;
  assign stat_strays_o = stat_strays_q;

  function automatic logic [TAG_W-1:0] next_slot(input logic [TAG_W-1:0] s);
    next_slot = 32'(s) + 1 == BUF ? '0 : s + 1'b1;
  endfunction

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q          <= S_IDLE;
      pend_q        <= '0;
      got_q         <= '0;
      stat_lines_q  <= '0;
      stat_flits_q  <= '0;
      stat_strays_q <= '0;
    end else begin
      if (stray_o) stat_strays_q <= stat_strays_q + 1'b1;
      case (st_q)
        S_IDLE: if (det_valid_i) begin
          win_q  <= det_win_i;
          line_q <= det_line_i;
          len_q  <= det_len_i;
          st_q   <= S_START;
        end
        S_START: begin
          dtype_q <= win.dtype;
          total_q <= 16'(win.expected) * 16'(len_q);
          bytes_q <= win.bytes;
          rbase_q <= 48'(win.stage) + off;
          raddr_q <= 48'(win.stage) + off;
          wbase_q <= 48'(win.merge) + off;
          waddr_q <= 48'(win.merge) + off;
          rn_q    <= '0;
          un_q    <= '0;
          rslot_q <= '0;
          uslot_q <= '0;
          ri_q    <= '0;
          ui_q    <= '0;
          st_q    <= win.expected == '0 || len_q == '0 ? S_DONE : S_RUN;
        end
        S_RUN: begin
          if (rd && mr_ready_i) begin
            rn_q    <= rn_q + 1'b1;
            rslot_q <= next_slot(rslot_q);
            if (ri_q + 1'b1 == len_q) begin  // the next contributor's stage
              ri_q    <= '0;
              rbase_q <= rbase_q + 48'(bytes_q);
              raddr_q <= rbase_q + 48'(bytes_q);
            end else begin
              ri_q    <= ri_q + 1'b1;
              raddr_q <= raddr_q + FB;
            end
          end
          if (wr && mw_ready_i) begin
            stat_flits_q <= stat_flits_q + 1'b1;
            uslot_q      <= next_slot(uslot_q);
            un_q         <= un_q + 1'b1;
            if (ui_q + 1'b1 == len_q) begin
              ui_q    <= '0;
              waddr_q <= wbase_q;
            end else begin
              ui_q    <= ui_q + 1'b1;
              waddr_q <= waddr_q + FB;
            end
            if (un_q + 1'b1 == total_q) st_q <= S_DONE;
          end
        end
        S_DONE: if (hq_ready_i) begin
          stat_lines_q <= stat_lines_q + 1'b1;
          st_q         <= S_IDLE;
        end
        default: st_q <= S_IDLE;
      endcase
      // The ring: a place read, answered, written.
      if (rd && mr_ready_i) pend_q[rslot_q] <= 1'b1;
      if (ans) begin
        pend_q[md_tag_i] <= 1'b0;
        got_q[md_tag_i]  <= 1'b1;
      end
      if (wr && mw_ready_i) got_q[uslot_q] <= 1'b0;
    end
  end

  // The answers' data: no reset (got_q says which are there).
  always_ff @(posedge clk_i) begin
    if (ans) buf_q[md_tag_i] <= md_data_i;
  end

  logic unused;
  assign unused = ^{tbl_i};

endmodule
