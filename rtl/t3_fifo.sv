// A first-word-fall-through queue of DEPTH words behind t3_mem, for the
// queues of the in-network switch (a port's ingress and egress, per class):
// the head word is on rdata_o in the cycle valid_o is high, from a register,
// so a block can decide on it (a packet's header) without a read cycle.
// hw/common/fifo.h (t3::Fifo) is the same queue for the C++ models; ctest
// fifo holds the two to each other and to a reference queue.
//
// The head is a register; the words behind it are in the array, read one
// cycle ahead: after each edge the array's read port holds the word behind
// the head. The one word the array cannot give in time (written at the same
// edge it would be read: the array was empty behind the head) is kept in a
// register beside it (t3_mem reads the old word then, as an SRAM does).
// - push_i: wdata_i joins the tail at the edge (not when full_o: the word is
//   refused, count_o unchanged; a caller checks full_o or count_o first).
// - pop_i: the head leaves at the edge (not when !valid_o). Push and pop in
//   one cycle work at any count, a full queue's included (the pop frees the
//   place the push takes).
// - count_o: the words held, 0..DEPTH.
// - Reset (synchronous, active low) empties it; the array and the data
//   registers keep their words (rdata_o is the old head until a push).
module t3_fifo #(
  parameter int unsigned DEPTH = 2,   // words, 2..4096
  parameter int unsigned WIDTH = 1,   // bits a word
  localparam int unsigned AW = $clog2(DEPTH),
  localparam int unsigned CW = $clog2(DEPTH + 1)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             push_i,
  input  logic [WIDTH-1:0] wdata_i,
  input  logic             pop_i,
  output logic             valid_o,
  output logic [WIDTH-1:0] rdata_o,
  output logic             full_o,
  output logic [CW-1:0]    count_o
);

  if (DEPTH < 2 || DEPTH > 4096) begin : g_bad_depth
    $error("DEPTH = %0d is out of range; allowed: 2..4096", DEPTH);
  end

  logic [CW-1:0]    cnt_q;
  logic [AW-1:0]    rd_q, wr_q;    // the array's oldest word (behind the head), its next free place
  logic [WIDTH-1:0] hd_q;          // the head
  logic [WIDTH-1:0] byp_q;         // the word behind the head, when the array could not give it
  logic             byp_v_q;
  logic [WIDTH-1:0] ram_rdata;

  function automatic logic [AW-1:0] next_ptr(input logic [AW-1:0] p);
    next_ptr = (32'(p) == DEPTH - 1) ? '0 : p + 1'b1;
  endfunction

  logic             push, pop, to_head, to_ram, from_ram;
  logic [WIDTH-1:0] behind;        // the word behind the head
  logic [AW-1:0]    rd_n;
  always_comb begin
    pop      = pop_i && cnt_q != '0;
    push     = push_i && (32'(cnt_q) < DEPTH || pop);
    behind   = byp_v_q ? byp_q : ram_rdata;
    // The head takes the word behind it (from the array) on a pop when there
    // is one, else the pushed word when the queue is (or becomes) empty.
    from_ram = pop && 32'(cnt_q) >= 2;
    to_head  = push && (cnt_q == '0 || (pop && 32'(cnt_q) == 1));
    to_ram   = push && !to_head;
    rd_n     = from_ram ? next_ptr(rd_q) : rd_q;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      cnt_q   <= '0;
      rd_q    <= '0;
      wr_q    <= '0;
      byp_v_q <= 1'b0;
    end else begin
      cnt_q <= cnt_q + CW'(push) - CW'(pop);
      rd_q  <= rd_n;
      if (to_ram) wr_q <= next_ptr(wr_q);
      // The array read at this edge (address rd_n) gives the old word when
      // that word is written at the same edge: the array holds nothing
      // behind the head but this push.
      byp_v_q <= to_ram && wr_q == rd_n;
      if (from_ram) hd_q <= behind;
      else if (to_head) hd_q <= wdata_i;
      if (to_ram) byp_q <= wdata_i;
    end
  end

  t3_mem #(.DEPTH(DEPTH), .WIDTH(WIDTH)) u_mem (
    .clk_i,
    .we_i(rst_ni && to_ram), .waddr_i(wr_q), .wdata_i,
    .re_i(1'b1), .raddr_i(rd_n), .rdata_o(ram_rdata)
  );

  assign valid_o = cnt_q != '0;
  assign rdata_o = hd_q;
  assign full_o  = 32'(cnt_q) == DEPTH;
  assign count_o = cnt_q;

endmodule
