// The endpoint's contribution counters (docs/blocks/ep_count.md). The C++
// model of the same core is hw/ep_count/ep_count_core.{h,cpp}; the block
// around it, rtl/ep_count.sv, is generated from hw/ep_count/ep_count.yaml.
//
// Two stages: the grant (the array's read of the granted line) and the
// answer (the read word, or the word written at the last edge when that
// write was to the same line, decided on and written back).
module ep_count_core #(
  parameter int unsigned COUNT_DEPTH = 4096,
  parameter int unsigned PORTS       = 4,
  parameter int unsigned CNT_W       = 8,
  parameter int unsigned MAX_LEN     = 4,
  parameter int unsigned STAT_W      = 32,
  // Widths of at least 1 even out of range, so that elaboration reaches the
  // top's range checks.
  localparam int unsigned LINE_W = (COUNT_DEPTH > 1) ? $clog2(COUNT_DEPTH) : 1,
  localparam int unsigned LEN_W  = (MAX_LEN > 0) ? $clog2(MAX_LEN + 1) : 1,
  localparam int unsigned CW     = (CNT_W > 0) ? CNT_W : 1,  // CNT_W
  localparam int unsigned WORD_W = CW + LEN_W,
  localparam int unsigned PORT_W = (PORTS > 1) ? $clog2(PORTS) : 1
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic [PORTS-1:0]          req_valid_i,
  output logic [PORTS-1:0]          req_ready_o,
  input  logic [2*PORTS-1:0]        req_op_i,
  input  logic [LINE_W*PORTS-1:0]   req_line_i,
  input  logic [CW*PORTS-1:0]    req_n_i,
  input  logic [CW*PORTS-1:0]    req_limit_i,
  input  logic [LEN_W*PORTS-1:0]    req_len_i,
  input  logic [PORTS-1:0]          req_whole_ok_i,
  output logic [PORTS-1:0]          rsp_valid_o,
  output logic [1:0]                rsp_code_o,
  output logic [CW-1:0]          rsp_count_o,
  output logic [LEN_W-1:0]          rsp_len_o,
  output logic                      rsp_whole_o,
  output logic                      clearing_o,
  output logic                      over_o,
  output logic                      bad_o,
  output logic [1:0]                last_port_o,
  output logic [1:0]                last_code_o,
  output logic [15:0]               last_line_o,
  output logic [STAT_W-1:0]         stat_ops_o,
  output logic [STAT_W-1:0]         stat_over_o,
  output logic [STAT_W-1:0]         stat_held_o,
  output logic [STAT_W-1:0]         stat_bad_o
);

  // Ops: 0 read, 1 add, 2 clear, 3 none (bad).
  localparam logic [1:0] OpAdd = 2'd1, OpClear = 2'd2;
  localparam logic [1:0] CodeDone = 2'd0, CodeOver = 2'd1, CodeHeld = 2'd2, CodeBad = 2'd3;

  // ---- the grant: the lowest port asking, none while the array clears
  logic              clearing_q;
  logic [LINE_W-1:0] clr_line_q;
  logic              gnt;
  logic [PORT_W-1:0] gnt_port;

  always_comb begin
    gnt      = 1'b0;
    gnt_port = '0;
    for (int i = PORTS - 1; i >= 0; i--) begin
      if (req_valid_i[i]) begin
        gnt      = 1'b1;
        gnt_port = PORT_W'(i);
      end
    end
    gnt = gnt && rst_ni && !clearing_q;
  end

  always_comb begin
    req_ready_o = '0;
    req_ready_o[gnt_port] = gnt;
  end

  logic [1:0]        g_op;
  logic [LINE_W-1:0] g_line;
  logic [CW-1:0]  g_n, g_limit;
  logic [LEN_W-1:0]  g_len;
  logic              g_bad, g_len_big;
  assign g_op    = req_op_i[2*gnt_port +: 2];
  assign g_line  = req_line_i[LINE_W*gnt_port +: LINE_W];
  assign g_n     = req_n_i[CW*gnt_port +: CW];
  assign g_limit = req_limit_i[CW*gnt_port +: CW];
  assign g_len   = req_len_i[LEN_W*gnt_port +: LEN_W];
  // Bad: no such op, no such line, or an ADD of nothing or of a length no
  // packet has.
  assign g_bad = g_op == 2'd3 || 32'(g_line) >= COUNT_DEPTH ||
                 (g_op == OpAdd && (g_n == '0 || g_len == '0 || g_len_big));
  if (MAX_LEN == 2 ** LEN_W - 1) begin : g_len_fits
    assign g_len_big = 1'b0;  // every length the port carries is one
  end else begin : g_len_cut
    assign g_len_big = 32'(g_len) > MAX_LEN;
  end

  // ---- the request taken, answered in the next cycle
  logic              t_valid_q, t_whole_ok_q, t_bad_q;
  logic [PORT_W-1:0] t_port_q;
  logic [1:0]        t_op_q;
  logic [LINE_W-1:0] t_line_q;
  logic [CW-1:0]  t_n_q, t_limit_q;
  logic [LEN_W-1:0]  t_len_q;

  // ---- the array and the word written at the last edge
  logic              fwd_valid_q;
  logic [LINE_W-1:0] fwd_line_q;
  logic [WORD_W-1:0] fwd_word_q;
  logic              we;
  logic [LINE_W-1:0] waddr;
  logic [WORD_W-1:0] wdata, rdata;

  t3_mem #(.DEPTH(COUNT_DEPTH), .WIDTH(WORD_W)) u_counts (
    .clk_i,
    .we_i    (we),
    .waddr_i (waddr),
    .wdata_i (wdata),
    .re_i    (gnt),
    .raddr_i (g_line),
    .rdata_o (rdata)
  );

  // ---- the answer
  logic [WORD_W-1:0] word, a_wword;
  logic [CW-1:0]  cnt, after;
  logic [CW:0]    sum;
  logic [1:0]        code;
  logic              a_write;

  always_comb begin
    word    = (fwd_valid_q && fwd_line_q == t_line_q) ? fwd_word_q : rdata;
    cnt     = word[CW-1:0];
    sum     = {1'b0, cnt} + {1'b0, t_n_q};
    code    = CodeDone;
    after   = cnt;
    a_write = 1'b0;
    a_wword = '0;
    if (t_bad_q) begin
      code = CodeBad;
    end else if (t_op_q == OpAdd) begin
      if (sum > {1'b0, t_limit_q}) begin
        code = CodeOver;
      end else if (sum == {1'b0, t_limit_q} && !t_whole_ok_q) begin
        code = CodeHeld;
      end else begin
        after   = sum[CW-1:0];
        a_write = 1'b1;
        a_wword = {t_len_q, sum[CW-1:0]};
      end
    end else if (t_op_q == OpClear) begin
      after   = '0;
      a_write = 1'b1;
      a_wword = {word[WORD_W-1:CW], CW'(0)};  // the length stays
    end
  end

  always_comb begin
    rsp_valid_o = '0;
    rsp_valid_o[t_port_q] = t_valid_q;
  end
  assign rsp_code_o  = t_valid_q ? code : 2'd0;
  assign rsp_count_o = t_valid_q ? cnt : '0;
  assign rsp_len_o   = t_valid_q ? word[WORD_W-1:CW] : '0;
  assign rsp_whole_o = t_valid_q && code == CodeDone && after == t_limit_q;
  assign over_o      = t_valid_q && code == CodeOver;
  assign bad_o       = t_valid_q && code == CodeBad;
  assign clearing_o  = clearing_q;

  // The reset's clearing writes a line a cycle; no answer is pending then.
  always_comb begin
    we    = 1'b0;
    waddr = t_line_q;
    wdata = a_wword;
    if (rst_ni && clearing_q) begin
      we    = 1'b1;
      waddr = clr_line_q;
      wdata = '0;
    end else if (rst_ni && t_valid_q && a_write) begin
      we = 1'b1;
    end
  end

  // ---- status
  logic [1:0]        last_port_q, last_code_q;
  logic [15:0]       last_line_q;
  logic [STAT_W-1:0] stat_ops_q, stat_over_q, stat_held_q, stat_bad_q;
  assign last_port_o = last_port_q;
  assign last_code_o = last_code_q;
  assign last_line_o = last_line_q;
  assign stat_ops_o  = stat_ops_q;
  assign stat_over_o = stat_over_q;
  assign stat_held_o = stat_held_q;
  assign stat_bad_o  = stat_bad_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      t_valid_q   <= 1'b0;
      fwd_valid_q <= 1'b0;
      clearing_q  <= 1'b1;
      clr_line_q  <= '0;
      last_port_q <= '0;
      last_code_q <= '0;
      last_line_q <= '0;
      stat_ops_q  <= '0;
      stat_over_q <= '0;
      stat_held_q <= '0;
      stat_bad_q  <= '0;
    end else begin
      fwd_valid_q <= !clearing_q && t_valid_q && a_write;
      if (t_valid_q) begin
        stat_ops_q <= stat_ops_q + 1'b1;
        if (code == CodeOver) stat_over_q <= stat_over_q + 1'b1;
        if (code == CodeHeld) stat_held_q <= stat_held_q + 1'b1;
        if (code == CodeBad) stat_bad_q <= stat_bad_q + 1'b1;
        if (code == CodeOver || code == CodeBad) begin
          last_port_q <= 2'(t_port_q);
          last_code_q <= code;
          last_line_q <= 16'(t_line_q);
        end
      end
      if (clearing_q) begin
        if (32'(clr_line_q) == COUNT_DEPTH - 1) clearing_q <= 1'b0;
        else clr_line_q <= clr_line_q + 1'b1;
      end
      t_valid_q <= gnt;
    end
  end

  // The taken request's fields and the forwarded word need no reset: their
  // valids have one.
  always_ff @(posedge clk_i) begin
    fwd_line_q <= t_line_q;
    fwd_word_q <= a_wword;
    if (gnt) begin
      t_port_q     <= gnt_port;
      t_op_q       <= g_op;
      t_line_q     <= g_line;
      t_n_q        <= g_n;
      t_limit_q    <= g_limit;
      t_len_q      <= g_len;
      t_whole_ok_q <= req_whole_ok_i[gnt_port];
      t_bad_q      <= g_bad;
    end
  end

endmodule
