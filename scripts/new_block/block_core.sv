// @name@ core (stamped by scripts/new_block.py: a one-entry register stage
// with a transfer counter; replace it with the block). The C++ model of the
// same core is hw/@name@/@name@_core.{h,cpp}; the block around it,
// rtl/@name@.sv, is generated from hw/@name@/@name@.yaml.
module @name@_core #(
  parameter int unsigned DATA_W = 32,
  parameter int unsigned STAT_W = 32
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              cfg_enable_i,
  output logic              busy_o,        // the stage holds a word
  output logic              wrap_o,        // a word taken now wraps the counter
  input  logic              in_valid_i,
  output logic              in_ready_o,
  input  logic [DATA_W-1:0] in_data_i,
  output logic              out_valid_o,
  input  logic              out_ready_i,
  output logic [DATA_W-1:0] out_data_o,
  output logic [STAT_W-1:0] stat_count_o
);

  logic              full_q;
  logic [DATA_W-1:0] data_q;
  logic [STAT_W-1:0] count_q;

  // A word leaving frees the stage for one arriving in the same cycle.
  assign in_ready_o   = cfg_enable_i && (!full_q || out_ready_i);
  assign out_valid_o  = full_q;
  assign out_data_o   = data_q;
  assign stat_count_o = count_q;
  assign busy_o       = full_q;
  assign wrap_o       = in_valid_i && in_ready_o && count_q == '1;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      full_q  <= 1'b0;
      data_q  <= '0;
      count_q <= '0;
    end else begin
      if (in_valid_i && in_ready_o) begin
        full_q  <= 1'b1;
        data_q  <= in_data_i;
        count_q <= count_q + 1'b1;
      end else if (full_q && out_ready_i) begin
        full_q <= 1'b0;
      end
    end
  end

endmodule
