// Pins wider than a t3::Wide (512 bits), packed one flit per port as a
// switch's are ([PORTS-1:0][FLIT_W-1:0]), for testbench/common/wide_pin_test.cpp:
// q_o is d_i of the last cycle turned by one port (port p out = port p+1 in),
// pick_o is port sel_i of d_i in this cycle.
module t3_wide_pin_tb #(
  parameter int unsigned PORTS  = 8,
  parameter int unsigned FLIT_W = 128
) (
  input  logic                           clk_i,
  input  logic                           rst_ni,
  input  logic [$clog2(PORTS)-1:0]       sel_i,
  input  logic [PORTS-1:0][FLIT_W-1:0]   d_i,
  output logic [PORTS-1:0][FLIT_W-1:0]   q_o,
  output logic [FLIT_W-1:0]              pick_o
);
  logic [PORTS-1:0][FLIT_W-1:0] q_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) q_q <= '0;
    else for (int unsigned p = 0; p < PORTS; p++) q_q[p] <= d_i[(p + 1) % PORTS];
  end

  assign q_o    = q_q;
  assign pick_o = d_i[sel_i];
endmodule
