// The one storage-array wrapper (issue 14): a block keeps every array of
// state behind this module, so that an implementation flow swaps it for an
// SRAM macro and scripts/synth.py reports its cells as storage apart from
// the logic around it (it keeps the t3_mem hierarchy while synthesizing).
//
// Here it is built from flops: DEPTH words of WIDTH bits, one write port and
// one read port.
// - Write: synchronous. With we_i high at a rising clk_i edge, word waddr_i
//   takes wdata_i (all WIDTH bits; no write mask).
// - Read: combinational (asynchronous). rdata_o is word raddr_i as it is in
//   this cycle, so a word written at an edge reads as its new value from that
//   edge on, and a read of the word being written in the same cycle returns
//   the old value. This is what the blocks' flop arrays do today.
// - An address >= DEPTH (DEPTH not a power of two) writes nothing and reads 0.
// - No reset: the contents are unknown until written, as in an SRAM. State
//   that needs a reset value (valid bits) stays in the block's own flops.
//
// An SRAM macro reads synchronously (the address registered at an edge, the
// data after it): swapping one in gives the read one cycle of latency, which
// the block's pipeline has to absorb. The flop form is what simulation,
// co-simulation and this flow's area and timing see.
module t3_mem #(
  parameter int unsigned DEPTH = 2,  // words, 1..65536
  parameter int unsigned WIDTH = 1,  // bits a word, 1..4096
  localparam int unsigned AW = (DEPTH > 1) ? $clog2(DEPTH) : 1
) (
  input  logic             clk_i,
  input  logic             we_i,
  input  logic [AW-1:0]    waddr_i,
  input  logic [WIDTH-1:0] wdata_i,
  input  logic [AW-1:0]    raddr_i,
  output logic [WIDTH-1:0] rdata_o
);

  if (DEPTH < 1 || DEPTH > 65536) begin : g_bad_depth
    $error("DEPTH = %0d is out of range; allowed: 1..65536", DEPTH);
  end
  if (WIDTH < 1 || WIDTH > 4096) begin : g_bad_width
    $error("WIDTH = %0d is out of range; allowed: 1..4096", WIDTH);
  end

  logic [WIDTH-1:0] mem_q [DEPTH];

  always_ff @(posedge clk_i) begin
    if (we_i && 32'(waddr_i) < DEPTH) mem_q[waddr_i] <= wdata_i;
  end

  assign rdata_o = (32'(raddr_i) < DEPTH) ? mem_q[raddr_i] : '0;

endmodule
