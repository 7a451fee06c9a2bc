// IEEE 754-2008 binary adder, one lane of the near-bank ALU (T3 §4.3), which
// adds fp16 (EXP_W=5, MAN_W=10), bf16 (8, 7) or fp32 (8, 23) lanes of a DRAM
// burst for op-and-store.
//
// Semantics: round to nearest, ties to even; subnormal inputs and results are
// kept (no flush to zero); a result too large for the format becomes +/-inf;
// x + (-x) = +0, (-0) + (-0) = -0; inf + (-inf) and every NaN operand give
// the canonical quiet NaN (sign 0, exponent all ones, fraction MSB 1); no
// exception flags.
//
// Timing: LATENCY = 4. The sum of the operands presented in cycle t is on y_o
// in cycle t+4 (after four rising edges); y_o comes straight from a flop.
// One new operand pair per cycle, flagged by valid_i; each stage's registers
// load only when it holds a pair (an idle adder holds still). No flop has a
// reset: the surrounding block qualifies y_o with its own valid pipeline.
//   stage 1: unpack, classify, compare the magnitudes, both exponent
//            differences (the shift amounts);
//   stage 2: order the operands by magnitude, align the smaller one (guard,
//            round and sticky bits);
//   stage 3: add or subtract the significands, count leading zeros, shift
//            by the count's top bit;
//   stage 4: the rest of the normalization shift, round, pack, substitute
//            inf/NaN.
// Carries, the magnitude comparison and the leading-zero count are written as
// log-depth trees rather than `+`, `>` and a priority loop, which yosys maps
// to a Brent-Kung adder (twice the depth) and chains: at fp32 on sky130 hd
// (scripts/synth.py's flow) the slowest stage went from 3.4 ns to 2.9 ns,
// against the 4 ns of the 250 MHz target. Until 2026-11-24 the adder had 3
// stages (comparison and alignment in one): with the stage registers'
// enables and the near-bank ALU's forwarding in front of stage 1, the block's
// critical path ran through that stage at 5.85 ns. Each stage now takes
// 3.9 ns or less at fp32 (docs/blocks/near_bank_alu.md, Cost).
//
// The C++ cycle model hw/common/fp_add.{h,cpp} is the same algorithm
// step by step; testbench/near_bank_alu checks both against GNU MPFR.
module fp_add #(
  parameter int unsigned EXP_W = 8,  // 2..8
  parameter int unsigned MAN_W = 23, // 1..23: stored fraction bits
  localparam int unsigned W = 1 + EXP_W + MAN_W
) (
  input  logic         clk_i,
  input  logic         valid_i,  // a_i, b_i hold a pair to add in this cycle
  input  logic [W-1:0] a_i,
  input  logic [W-1:0] b_i,
  output logic [W-1:0] y_o   // a_i + b_i of LATENCY cycles earlier, if valid_i was set
);

  // Cycles from a_i/b_i to y_o; the surrounding block's valid pipeline must
  // match. Public so that the Verilator testbench takes its check delay from
  // here (Vfp_add_*_fp_add::LATENCY); Verilator's lint does not count that
  // read as a use.
  /* verilator lint_off UNUSEDPARAM */
  localparam int unsigned LATENCY /* verilator public */ = 4;
  /* verilator lint_on UNUSEDPARAM */

  // Same ranges as the C++ model (t3::check): two exponent bits leave one
  // normal exponent; one fraction bit tells NaN from inf; the upper limits
  // keep a value within 32 bits, as the cycle model stores it.
  if (EXP_W < 2 || EXP_W > 8) begin : g_bad_exp_w
    $error("EXP_W = %0d is out of range; allowed: 2..8", EXP_W);
  end
  if (MAN_W < 1 || MAN_W > 23) begin : g_bad_man_w
    $error("MAN_W = %0d is out of range; allowed: 1..23", MAN_W);
  end

  localparam int unsigned MAG_W = EXP_W + MAN_W;  // a value without its sign
  localparam int unsigned SIG_W = MAN_W + 1;      // significand with the implicit bit
  // Guard and round bits survive the at most two-place normalization an
  // effective subtraction with an exponent difference >= 2 needs; the third
  // collects everything shifted further out (sticky). With a difference <= 1
  // nothing is shifted out at all.
  localparam int unsigned GRS_W = 3;
  localparam int unsigned EXT_W = SIG_W + GRS_W;   // aligned significand
  localparam int unsigned SUM_W = EXT_W + 1;       // plus the carry of an addition
  localparam int unsigned SHAMT_W = $clog2(EXT_W + 1);
  localparam int unsigned LZ_W = $clog2(SUM_W + 1);
  localparam int unsigned LZ_N = 1 << LZ_W;        // LZC tree leaves, > SUM_W
  // One adder width serves every sum: the significands, and the exponents
  // with a sign bit (unused high bits are constant and synthesize away).
  localparam int unsigned ADD_W = SUM_W > EXP_W + 2 ? SUM_W : EXP_W + 2;

  localparam logic [EXP_W-1:0] EXP_ONES = '1;
  localparam logic [W-1:0] QNAN = {1'b0, EXP_ONES, MAN_W'(0)} | W'(1 << (MAN_W - 1));

  // (Functions assign their name rather than `return`: yosys 0.23 lacks it.)

  // Subnormals (exponent field 0) share the scale of exponent field 1.
  function automatic logic [EXP_W-1:0] eff_exp(input logic [EXP_W-1:0] e);
    eff_exp = {e[EXP_W-1:1], e[0] | ~|e};
  endfunction

  // a + b + ci with Kogge-Stone carries. Written on whole vectors (each level
  // one shift, AND and OR): the same prefix network as bit by bit, and a few
  // word operations for Verilator instead of hundreds of single-bit ones.
  function automatic logic [ADD_W-1:0] add(input logic [ADD_W-1:0] a,
                                           input logic [ADD_W-1:0] b, input logic ci);
    logic [ADD_W-1:0] g, p;
    g = (a & b) | (ADD_W'(ci) & (a ^ b));
    p = a ^ b;
    // Bits below d have their final carry already; zeros shifted in keep them.
    for (int d = 1; d < ADD_W; d = d * 2) begin
      g = g | (p & (g << d));
      p = p & (p << d);
    end
    add = a ^ b ^ {g[ADD_W-2:0], ci};
  endfunction

  // a > b for magnitudes: (greater, equal) pairs combined MSB-first,
  // (gt, eq) of a span = (gt_hi | eq_hi & gt_lo, eq_hi & eq_lo). Written as a
  // prefix network on whole vectors (positions below the LSB compare equal:
  // zeros into gt, ones into eq); only the top bit is used, so synthesis
  // keeps just its binary tree, of depth log2(MAG_W).
  function automatic logic mag_gt(input logic [MAG_W-1:0] a, input logic [MAG_W-1:0] b);
    logic [MAG_W-1:0] gt, eq;
    gt = a & ~b;
    eq = ~(a ^ b);
    for (int s = 1; s < MAG_W; s = s * 2) begin
      gt = gt | (eq & (gt << s));
      eq = eq & ((eq << s) | MAG_W'((1 << s) - 1));
    end
    mag_gt = gt[MAG_W-1];
  endfunction

  // Leading zeros of v (SUM_W for v = 0), as a tree: a node counts its upper
  // half's zeros if that half holds a one, else half its width plus the
  // lower half's.
  function automatic logic [LZ_W-1:0] lzc(input logic [SUM_W-1:0] v);
    logic [LZ_N-1:0] one;
    logic [LZ_N*LZ_W-1:0] cnt;  // node j at [j*LZ_W +: LZ_W] (flat: yosys)
    // A one just below v stops the count at SUM_W.
    one = (LZ_N'(v) << (LZ_N - SUM_W)) | (LZ_N'(1) << (LZ_N - SUM_W - 1));
    cnt = '0;
    for (int k = 0; k < LZ_W; k++) begin
      for (int j = 0; j < (LZ_N >> (k + 1)); j++) begin
        cnt[j*LZ_W +: LZ_W] = one[2*j+1] ? cnt[(2*j+1)*LZ_W +: LZ_W]
                                         : cnt[2*j*LZ_W +: LZ_W] | LZ_W'(1 << k);
        one[j] = one[2*j+1] | one[2*j];
      end
    end
    lzc = cnt[LZ_W-1:0];
  endfunction

  // Carries of v + 1: bit i is set when v[i-1:0] is all ones (prefix AND,
  // Kogge-Stone, on whole vectors; ones shifted in keep the finished bits).
  function automatic logic [MAN_W:0] inc_carries(input logic [MAN_W-1:0] v);
    logic [MAN_W:0] all1;
    all1 = {v, 1'b1};
    for (int d = 1; d <= MAN_W; d = d * 2)
      all1 = all1 & ((all1 << d) | (MAN_W + 1)'((1 << d) - 1));
    inc_carries = all1;
  endfunction

  // Beyond EXT_W places every bit of y lands below the sticky position; a
  // narrow exponent never gets that far (and the comparison is skipped).
  localparam bit SHAMT_SAT = (1 << EXP_W) - 1 > EXT_W;

  // Each stage's logic sits inside its registers' enable: an idle adder
  // neither switches (T3 §4.3's ALU adds only for op-and-store commands) nor
  // costs Verilator an evaluation, which made the 40 ungated adders 95 % of
  // the near-bank ALU's simulation time. The temporaries are local to the
  // block and assigned before use, so they synthesize to wires.
  logic v1_q, v2_q, v3_q;  // stage k holds a pair: enables only, the block qualifies y_o

  always_ff @(posedge clk_i) begin
    v1_q <= valid_i;
    v2_q <= v1_q;
    v3_q <= v2_q;
  end

  // ---------------------------------------------------------------------
  // Stage 1: classify, compare the magnitudes, both exponent differences
  // ---------------------------------------------------------------------
  // The operands stay in their order here: the swap multiplexers (the
  // comparison's result fanned out to every significand and exponent bit)
  // are stage 2's, in front of the shifter.
  logic               s1_swap_q, s1_sign_a_q, s1_sign_b_q, s1_sub_q, s1_nan_q, s1_inf_q;
  logic [EXP_W-1:0]   s1_eff_a_q, s1_eff_b_q;
  logic [SIG_W-1:0]   s1_sig_a_q, s1_sig_b_q;
  logic [SHAMT_W-1:0] s1_shamt_ab_q, s1_shamt_ba_q;  // |a| >= |b|, |b| > |a|

  always_ff @(posedge clk_i) begin : s1_regs
    logic [MAG_W-1:0]   mag_a, mag_b;
    logic               sign_a, sign_b, sub;
    logic [EXP_W-1:0]   exp_a, exp_b, eff_a, eff_b, diff_ab, diff_ba;
    logic               a_nan, b_nan, a_inf, b_inf;
    if (valid_i) begin
      mag_a  = a_i[MAG_W-1:0];
      mag_b  = b_i[MAG_W-1:0];
      sign_a = a_i[W-1];
      sign_b = b_i[W-1];
      exp_a  = mag_a[MAG_W-1:MAN_W];
      exp_b  = mag_b[MAG_W-1:MAN_W];
      eff_a  = eff_exp(exp_a);
      eff_b  = eff_exp(exp_b);
      sub    = sign_a ^ sign_b;

      // Classified per operand, off the comparator's path.
      a_nan  = &exp_a & |mag_a[MAN_W-1:0];
      b_nan  = &exp_b & |mag_b[MAN_W-1:0];
      a_inf  = &exp_a & ~|mag_a[MAN_W-1:0];
      b_inf  = &exp_b & ~|mag_b[MAN_W-1:0];

      // Ordering by the whole magnitude (not only the exponent) makes the
      // stage-3 difference non-negative, so no result ever needs negating.
      // Both exponent differences are formed in parallel with the comparison.
      diff_ab = EXP_W'(add(ADD_W'(eff_a), ~(ADD_W'(eff_b)), 1'b1));
      diff_ba = EXP_W'(add(ADD_W'(eff_b), ~(ADD_W'(eff_a)), 1'b1));

      s1_swap_q     <= mag_gt(mag_b, mag_a);
      s1_sign_a_q   <= sign_a;
      s1_sign_b_q   <= sign_b;
      s1_sub_q      <= sub;
      s1_nan_q      <= a_nan | b_nan | (a_inf & b_inf & sub);
      s1_inf_q      <= a_inf | b_inf;
      s1_eff_a_q    <= eff_a;
      s1_eff_b_q    <= eff_b;
      s1_sig_a_q    <= {|exp_a, mag_a[MAN_W-1:0]};
      s1_sig_b_q    <= {|exp_b, mag_b[MAN_W-1:0]};
      s1_shamt_ab_q <= SHAMT_SAT && 32'(diff_ab) > EXT_W ? SHAMT_W'(EXT_W) : SHAMT_W'(diff_ab);
      s1_shamt_ba_q <= SHAMT_SAT && 32'(diff_ba) > EXT_W ? SHAMT_W'(EXT_W) : SHAMT_W'(diff_ba);
    end
  end

  // ---------------------------------------------------------------------
  // Stage 2: order the operands, align the smaller one
  // ---------------------------------------------------------------------
  logic             s2_sign_q, s2_sub_q, s2_zero_sign_q, s2_nan_q, s2_inf_q;
  logic [EXP_W-1:0] s2_exp_q;
  logic [SIG_W-1:0] s2_sig_x_q;
  logic [EXT_W-1:0] s2_al_y_q;  // the aligned y, inverted for a subtraction

  always_ff @(posedge clk_i) begin : s2_regs
    logic [SHAMT_W-1:0] shamt;
    logic [EXT_W-1:0]   ext_y, al_y;
    if (v1_q) begin
      shamt = s1_swap_q ? s1_shamt_ba_q : s1_shamt_ab_q;
      ext_y = {s1_swap_q ? s1_sig_a_q : s1_sig_b_q, GRS_W'(0)};
      s2_sign_q      <= s1_swap_q ? s1_sign_b_q : s1_sign_a_q;
      s2_sub_q       <= s1_sub_q;
      // IEEE 754-2008 §6.3: an exact zero sum is -0 only for (-0) + (-0)
      // (round to nearest); opposite signs give +0.
      s2_zero_sign_q <= s1_sign_a_q & s1_sign_b_q;
      s2_nan_q       <= s1_nan_q;
      s2_inf_q       <= s1_inf_q;
      s2_exp_q       <= s1_swap_q ? s1_eff_b_q : s1_eff_a_q;
      s2_sig_x_q     <= s1_swap_q ? s1_sig_b_q : s1_sig_a_q;
      // The sticky mask comes from shamt alone, in parallel with the shifter.
      al_y           = (ext_y >> shamt) | EXT_W'(|(ext_y & ~({EXT_W{1'b1}} << shamt)));
      // Inverted here, so that stage 3's adder does not wait for sub to
      // reach every bit (a buffer tree of 1.2 ns at fp32).
      s2_al_y_q      <= s1_sub_q ? ~al_y : al_y;
    end
  end

  // ---------------------------------------------------------------------
  // Stage 3: add or subtract, count leading zeros
  // ---------------------------------------------------------------------
  logic             s3_sign_q, s3_nan_q, s3_inf_q;
  logic [EXP_W-1:0] s3_exp_q;
  logic [SUM_W-1:0] s3_sum_q;  // the sum, shifted by lz's top bit already
  logic [LZ_W-2:0]  s3_lz_q;   // the rest of the normalization shift
  logic [LZ_W-1:0]  s3_nlz_q;  // the whole count, inverted, for the exponent

  always_ff @(posedge clk_i) begin : s3_regs
    logic [SUM_W-1:0] ext_x, limit, sum;
    logic [LZ_W-1:0]  lz;
    logic             zero;
    if (v2_q) begin
      ext_x = {1'b0, s2_sig_x_q, GRS_W'(0)};
      // |x| >= |y|: the difference is never negative. For a subtraction y's
      // bits come inverted (its zero extension's ones above) and the carry
      // in is 1.
      sum   = SUM_W'(add(ADD_W'(ext_x), {{(ADD_W - EXT_W){s2_sub_q}}, s2_al_y_q}, s2_sub_q));
      // The exponent may not fall below that of the subnormals: a one at
      // position SUM_W-1-exp (none for exp >= SUM_W) stops the count at exp.
      // The decoder works off the stage-2 register, in parallel with the adder.
      limit = {1'b1, (SUM_W - 1)'(0)} >> s2_exp_q;
      // An exact zero sum, found without waiting for the adder: equal
      // operands when subtracting, or x = 0 (so y = 0) when adding.
      zero  = s2_sub_q ? &(ext_x[EXT_W-1:0] ^ s2_al_y_q) : ~|s2_sig_x_q;

      s3_sign_q <= zero ? s2_zero_sign_q : s2_sign_q;
      s3_nan_q  <= s2_nan_q;
      s3_inf_q  <= s2_inf_q;
      s3_exp_q  <= s2_exp_q;
      lz        = lzc(sum | limit);
      // The normalization shift's first step is taken here: lz's top bit is
      // the root of the count's tree (the upper half of the sum is empty),
      // known before its lower bits. Stage 4 (shift, round, select the
      // exponent) was the adder's slowest; it keeps the rest of the shift.
      s3_sum_q  <= lz[LZ_W-1] ? sum << (1 << (LZ_W - 1)) : sum;
      s3_lz_q   <= lz[LZ_W-2:0];
      // Inverted for the exponent: a register of its own (yosys would merge a
      // plain copy), so that the shifter's shift amount drives the shifter
      // alone.
      s3_nlz_q  <= ~lz;
    end
  end

  // ---------------------------------------------------------------------
  // Stage 4: normalize, round to nearest even, pack
  // ---------------------------------------------------------------------
  logic [W-1:0] y_q;

  always_ff @(posedge clk_i) begin : s4_regs
    logic [SUM_W-1:0] norm;
    logic             hidden, round_up;
    logic [MAN_W-1:0] frac;
    logic [MAN_W:0]   carry;
    logic [EXP_W:0]   exp_base, exp_norm, exp_next;  // one bit more for overflow
    logic [EXP_W-1:0] exp_field;
    logic             ovf_norm, ovf_next, overflow;
    if (v3_q) begin
      // lz never exceeds the leading zeros, so no set bit leaves the top.
      // Below the kept bits [SUM_W-1 -: SIG_W]: the round bit, then GRS_W
      // sticky bits.
      norm     = s3_sum_q << s3_lz_q;  // the rest of the shift by lz
      hidden   = norm[SUM_W-1];
      frac     = norm[SUM_W-2 -: MAN_W];
      round_up = norm[GRS_W] & (|norm[GRS_W-1:0] | norm[GRS_W+1]);  // ties to even
      carry    = inc_carries(frac);

      // In parallel with the shifter: exponent fields for the normalized
      // result (exp + 1 - lz) and for one rounding carry more. lz <= exp, so
      // neither goes negative; a zero sum has hidden = 0.
      exp_base = (EXP_W + 1)'(add(ADD_W'(s3_exp_q), {{(ADD_W - LZ_W){1'b1}}, s3_nlz_q}, 1'b1));
      exp_norm = (EXP_W + 1)'(add(ADD_W'(exp_base), ADD_W'(1), 1'b0));
      exp_next = (EXP_W + 1)'(add(ADD_W'(exp_base), ADD_W'(2), 1'b0));
      // Round to nearest overflows to inf (IEEE 754-2008 §7.4): the field
      // reaches all ones.
      ovf_norm = exp_norm[EXP_W] | &exp_norm[EXP_W-1:0];
      ovf_next = exp_next[EXP_W] | &exp_next[EXP_W-1:0];

      // A subnormal (hidden = 0, lz = exp) has field 0, and 1 once rounding
      // carries into the implicit bit's place; a normal result has exp_norm,
      // or exp_next when rounding carries out of the fraction.
      if (round_up && carry[MAN_W]) begin
        exp_field = hidden ? exp_next[EXP_W-1:0] : EXP_W'(1);
        overflow  = hidden & ovf_next;
      end else begin
        exp_field = hidden ? exp_norm[EXP_W-1:0] : EXP_W'(0);
        overflow  = hidden & ovf_norm;
      end

      if (s3_nan_q)                  y_q <= QNAN;
      else if (s3_inf_q || overflow) y_q <= {s3_sign_q, EXP_ONES, MAN_W'(0)};
      else y_q <= {s3_sign_q, exp_field, frac ^ (carry[MAN_W-1:0] & {MAN_W{round_up}})};
    end
  end

  assign y_o = y_q;

endmodule
