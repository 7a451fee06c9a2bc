// One fp32 lane rounded to a narrower format (fp16: EXP_W=5, MAN_W=10;
// bf16: 8, 7) for an fp32 accumulator of 16-bit data (the reduction table's
// ACC32: rounded once, when the result leaves). Combinational. Round to
// nearest, ties to even; the format's subnormals; overflow to +/-inf; every
// NaN becomes the canonical quiet NaN (sign 0, exponent all ones, fraction
// MSB set), as rtl/fp_add.sv gives. hw/common/fp_convert.h (fp_narrow) is
// the same rule in C++; tests/reduction_table_fp_convert_test.cpp checks
// both against GNU MPFR.
module fp_narrow #(
  parameter int unsigned EXP_W = 5,   // 2..8
  parameter int unsigned MAN_W = 10,  // 1..22
  localparam int unsigned W = 1 + EXP_W + MAN_W
) (
  input  logic [31:0]  a_i,
  output logic [W-1:0] y_o
);

  if (EXP_W < 2 || EXP_W > 8) begin : g_bad_exp_w
    $error("EXP_W = %0d is out of range; allowed: 2..8", EXP_W);
  end
  if (MAN_W < 1 || MAN_W > 22) begin : g_bad_man_w
    $error("MAN_W = %0d is out of range; allowed: 1..22", MAN_W);
  end

  localparam int BIAS = (1 << (EXP_W - 1)) - 1;
  localparam logic [EXP_W-1:0] EXP_ONES = '1;

  logic [7:0]  exp;
  logic [22:0] frac;
  logic [23:0] sig;
  logic [8:0]  exp_eff;
  logic signed [10:0] ef;        // the format's exponent field were the value normal in it
  logic signed [10:0] below;     // 1 - ef: how far below the normal range
  logic [31:0] drop;
  logic [7:0]  shamt;            // fraction bits dropped, at most 26
  logic [49:0] shifted;
  logic [24:0] q;
  logic        round_up;
  logic [31:0] base, bits;

  always_comb begin
    exp     = a_i[30:23];
    frac    = a_i[22:0];
    sig     = {exp != '0, frac};
    exp_eff = (exp != '0) ? {1'b0, exp} : 9'd1;
    ef      = $signed({2'b00, exp_eff}) - 11'sd127 + 11'(BIAS);
    // 23 - MAN_W bits dropped for a normal result; below the normal range
    // (ef < 1) 1 - ef more, the ulp being that of the subnormals. Past 25
    // the value is below half the smallest subnormal: zero.
    below   = 11'sd1 - ef;
    drop    = 32'(23 - MAN_W) + 32'(below);
    if (ef < 11'sd1) begin
      shamt = (drop > 32'd26) ? 8'd26 : 8'(drop);
      base  = '0;
    end else begin
      shamt = 8'(23 - MAN_W);
      base  = 32'(ef) - 32'd1;
    end
    shifted  = {sig, 26'd0} >> shamt;
    round_up = shifted[25] && ((|shifted[24:0]) || shifted[26]);  // ties to even
    q        = {1'b0, shifted[49:26]} + 25'(round_up);
    // q counts ulps of the result's binade; a carry into the implicit bit's
    // place moves the exponent up.
    bits     = (base << MAN_W) + 32'(q);
    if (exp == 8'hFF)
      y_o = (frac != '0) ? {1'b0, EXP_ONES, 1'b1, (MAN_W - 1)'(0)} : {a_i[31], EXP_ONES, MAN_W'(0)};
    else if (bits >= (32'(EXP_ONES) << MAN_W))
      y_o = {a_i[31], EXP_ONES, MAN_W'(0)};
    else
      y_o = {a_i[31], (EXP_W + MAN_W)'(bits)};
  end

endmodule
