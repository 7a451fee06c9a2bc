// Version 1: one module, y = a + 1 a clock later.
module top (
  input  logic       clk_i,
  input  logic [7:0] a_i,
  output logic [7:0] y_o
);
  always_ff @(posedge clk_i) y_o <= a_i + 8'd1;
endmodule
