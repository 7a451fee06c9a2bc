// The one storage-array wrapper (issue 14): a block keeps every array of
// state behind this module, so that an implementation flow swaps it for an
// SRAM macro and scripts/synth.py reports its cells as storage apart from
// the logic around it (it keeps the t3_mem hierarchy while synthesizing).
//
// Here it is built from flops: DEPTH words of WIDTH bits, one write port and
// one read port, both synchronous, as an SRAM macro with a write port and a
// read port (OpenRAM's 1rw1r macros, the density scripts/synth.py assumes):
// - Write: with we_i high at a rising clk_i edge, word waddr_i takes wdata_i
//   (all WIDTH bits; no write mask).
// - Read: with re_i high at a rising clk_i edge, rdata_o takes word raddr_i
//   as it was before that edge and holds it until the next read. A read of the
//   word being written at the same edge returns the old word: a block that
//   reads what it has just written forwards the new value itself.
// - An address >= DEPTH (DEPTH not a power of two) writes nothing and reads 0.
// - No reset: the contents, and rdata_o until the first read, are unknown, as
//   in an SRAM; state that needs a reset value (valid bits) stays in the
//   block's own flops. In simulation (Verilator) they start at 0.
// The C++ models hold their arrays in t3::Mem (hw/common/t3_mem.h), the same
// rules, so model and RTL keep the same read latency.
module t3_mem #(
  parameter int unsigned DEPTH = 2,  // words, 1..65536
  parameter int unsigned WIDTH = 1,  // bits a word, 1..4096
  localparam int unsigned AW = (DEPTH > 1) ? $clog2(DEPTH) : 1
) (
  input  logic             clk_i,
  input  logic             we_i,
  input  logic [AW-1:0]    waddr_i,
  input  logic [WIDTH-1:0] wdata_i,
  input  logic             re_i,
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
  logic [WIDTH-1:0] rdata_q;

  always_ff @(posedge clk_i) begin
    if (we_i && 32'(waddr_i) < DEPTH) mem_q[waddr_i] <= wdata_i;
    if (re_i) rdata_q <= (32'(raddr_i) < DEPTH) ? mem_q[raddr_i] : '0;
  end

  assign rdata_o = rdata_q;

endmodule
