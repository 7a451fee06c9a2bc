// Version 2: the register moves into a submodule Verilator keeps apart,
// which adds and renames its output files; y = a + 2 a clock later.
module sub (
  input  logic       clk_i,
  input  logic [7:0] a_i,
  output logic [7:0] y_o
);
  /* verilator no_inline_module */
  always_ff @(posedge clk_i) y_o <= a_i + 8'd2;
endmodule

module top (
  input  logic       clk_i,
  input  logic [7:0] a_i,
  output logic [7:0] y_o
);
  sub u_sub (.clk_i, .a_i, .y_o);
endmodule
