// One lane of a 16-bit format (fp16: EXP_W=5, MAN_W=10; bf16: 8, 7) widened
// to fp32, exactly, for an fp32 accumulator of 16-bit data (the reduction
// table's ACC32). Combinational. hw/common/fp_convert.h (fp_widen) is the
// same rule in C++; tests/reduction_table_fp_convert_test.cpp checks both
// against GNU MPFR.
//   zeros keep their sign; subnormals become normal fp32 values (or stay
//   subnormal when the format has fp32's exponent range, as bf16);
//   infinities stay; a NaN stays a NaN, its fraction bits moved up.
module fp_widen #(
  parameter int unsigned EXP_W = 5,   // 2..8
  parameter int unsigned MAN_W = 10,  // 1..23
  localparam int unsigned W = 1 + EXP_W + MAN_W
) (
  input  logic [W-1:0] a_i,
  output logic [31:0]  y_o
);

  if (EXP_W < 2 || EXP_W > 8) begin : g_bad_exp_w
    $error("EXP_W = %0d is out of range; allowed: 2..8", EXP_W);
  end
  if (MAN_W < 1 || MAN_W > 23) begin : g_bad_man_w
    $error("MAN_W = %0d is out of range; allowed: 1..23", MAN_W);
  end

  localparam int BIAS = (1 << (EXP_W - 1)) - 1;
  localparam int unsigned LZ_W = $clog2(MAN_W + 1);

  logic             sign;
  logic [EXP_W-1:0] exp;
  logic [MAN_W-1:0] frac;
  assign sign = a_i[W-1];
  assign exp  = a_i[MAN_W +: EXP_W];
  assign frac = a_i[MAN_W-1:0];

  if (EXP_W == 8) begin : g_same_range
    // fp32's exponent range: the fields move as they are.
    assign y_o = {sign, exp, frac, (23 - MAN_W)'(0)};
  end else begin : g_normalize
    // The leading one of a subnormal's fraction (bit k) becomes the
    // implicit bit: exponent k + 1 - BIAS - MAN_W, fraction shifted up.
    logic [LZ_W-1:0] k;
    logic [7:0]      e_sub, e_norm;
    logic [22:0]     f_sub;
    always_comb begin
      k = '0;
      for (int i = 0; i < MAN_W; i++)
        if (frac[i]) k = LZ_W'(i);
      e_sub  = 8'(32'(k) + 32'(128 - BIAS) - 32'(MAN_W));
      e_norm = 8'(32'(exp) + 32'(127 - BIAS));
      f_sub  = 23'({frac, (23 - MAN_W)'(0)} << (32'(MAN_W) - 32'(k)));
      if (&exp)            y_o = {sign, 8'hFF, frac, (23 - MAN_W)'(0)};
      else if (exp != '0)  y_o = {sign, e_norm, frac, (23 - MAN_W)'(0)};
      else if (frac != '0) y_o = {sign, e_sub, f_sub};
      else                 y_o = {sign, 31'(0)};
    end
  end

endmodule
