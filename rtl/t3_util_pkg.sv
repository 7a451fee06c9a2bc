// Helpers the blocks' RTL shares.
package t3_util_pkg;

  // c + 1 (up) or c - 1, modulo 2^16, written as gates: a count's +1 and
  // -1 made from its register and picked by a late select stay two circuits
  // before the select. As `+` and `-`, yosys shares them behind the select
  // (one adder of a muxed operand), which puts the carries after it.
  function automatic logic [15:0] inc_dec(input logic [15:0] c, input logic up);
    logic carry;
    carry = 1'b1;
    for (int bit_i = 0; bit_i < 16; bit_i++) begin
      inc_dec[bit_i] = c[bit_i] ^ carry;
      carry          = carry & (up ? c[bit_i] : !c[bit_i]);
    end
  endfunction

endpackage
