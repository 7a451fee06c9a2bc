// Prints what the Verilated top makes of 40 after one clock edge.
#include <cstdio>

#include "Vtop.h"

int main() {
  Vtop top;
  top.a_i = 40;
  top.clk_i = 0;
  top.eval();
  top.clk_i = 1;
  top.eval();
  std::printf("%d\n", int(top.y_o));
  return 0;
}
