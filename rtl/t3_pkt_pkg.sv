// The in-network packet format (ISCA 2020 in-network collectives paper): a
// header flit, then `len` data flits when the opcode carries data. The same
// layout as hw/common/packet.h (the C++ models and testbenches); the field
// table and the rules are on docs/packet.md. The header's fields sit in the
// low 128 bits of a flit; FLIT_W (128, 256 or 512) is each block's parameter.
/* verilator lint_off UNUSEDPARAM */  // a format's constants: each block uses some
/* verilator lint_off UNUSEDSIGNAL */  // a function reads the header fields it needs
package t3_pkt_pkg;

  localparam int unsigned HDR_W = 128;

  // Field positions (lsb) and widths.
  localparam int unsigned OP_LSB     = 0,   OP_W     = 4;
  localparam int unsigned RED_OP_LSB = 4,   RED_OP_W = 2;
  localparam int unsigned DTYPE_LSB  = 6,   DTYPE_W  = 2;
  localparam int unsigned LEN_LSB    = 8,   LEN_W    = 8;
  localparam int unsigned SRC_LSB    = 16,  SRC_W    = 8;
  localparam int unsigned DST_LSB    = 24,  DST_W    = 8;
  localparam int unsigned COUNT_LSB  = 32,  COUNT_W  = 8;
  localparam int unsigned CTR_LSB    = 40,  CTR_W    = 8;
  localparam int unsigned ADDR_LSB   = 48,  ADDR_W   = 48;
  localparam int unsigned RGN_LSB    = 96,  RGN_W    = 8;
  localparam int unsigned EXPECT_LSB = 104, EXPECT_W = 8;
  localparam int unsigned HOME_LSB   = 112, HOME_W   = 8;
  localparam int unsigned HIT_LSB    = 120;

  // Opcodes; op[3] is the class (0 request, 1 response).
  localparam logic [3:0] OP_WRITE    = 4'h1;
  localparam logic [3:0] OP_READ     = 4'h2;
  localparam logic [3:0] OP_PUSH     = 4'h3;
  localparam logic [3:0] OP_PULL     = 4'h4;
  localparam logic [3:0] OP_ACK      = 4'h8;
  localparam logic [3:0] OP_READ_RSP = 4'h9;
  localparam logic [3:0] OP_PULL_RSP = 4'hA;
  localparam logic [3:0] OP_RESULT   = 4'hB;
  localparam logic [3:0] OP_PARTIAL  = 4'hC;

  localparam logic [1:0] RED_ADD = 2'd0;
  localparam logic [1:0] DT_FP16 = 2'd0;
  localparam logic [1:0] DT_BF16 = 2'd1;
  localparam logic [1:0] DT_FP32 = 2'd2;

  // Why a header is malformed (hw/common/packet.h, Malformed), in the order
  // checked.
  localparam logic [2:0] MAL_NONE       = 3'd0;
  localparam logic [2:0] MAL_UNKNOWN_OP = 3'd1;
  localparam logic [2:0] MAL_BAD_LEN    = 3'd2;
  localparam logic [2:0] MAL_BAD_RED_OP = 3'd3;
  localparam logic [2:0] MAL_BAD_DTYPE  = 3'd4;
  localparam logic [2:0] MAL_MISALIGNED = 3'd5;

  function automatic logic known_op(input logic [3:0] op);
    known_op = (op >= 4'h1 && op <= 4'h4) || (op >= 4'h8 && op <= 4'hC);
  endfunction

  function automatic logic has_data(input logic [3:0] op);
    has_data = op == OP_WRITE || op == OP_PUSH || (op >= 4'h9 && op <= 4'hC);
  endfunction

  function automatic logic is_reduction(input logic [3:0] op);
    is_reduction = op == OP_PUSH || op == OP_PULL || op == OP_PULL_RSP || op == OP_RESULT ||
                   op == OP_PARTIAL;
  endfunction

  // Data flits after the header on the wire: len for data opcodes and for
  // unknown ones (a receiver drops the whole packet), 0 otherwise.
  function automatic logic [LEN_W-1:0] data_flits(input logic [HDR_W-1:0] h);
    data_flits = (has_data(h[OP_LSB +: OP_W]) || !known_op(h[OP_LSB +: OP_W])) ? h[LEN_LSB +: LEN_W]
                                                                             : '0;
  endfunction

  // The checks every receiver makes: at most max_len data flits, addresses
  // aligned to a flit of flit_bytes_log2.
  function automatic logic [2:0] pkt_check(input logic [HDR_W-1:0] h, input logic [LEN_W-1:0] max_len,
                                           input int unsigned flit_bytes_log2);
    logic [3:0] op;
    logic [ADDR_W-1:0] addr, amask;
    op    = h[OP_LSB +: OP_W];
    addr  = h[ADDR_LSB +: ADDR_W];
    amask = (ADDR_W'(1) << flit_bytes_log2) - 1'b1;
    if (!known_op(op)) pkt_check = MAL_UNKNOWN_OP;
    else if (h[LEN_LSB +: LEN_W] == '0 || h[LEN_LSB +: LEN_W] > max_len) pkt_check = MAL_BAD_LEN;
    else if (is_reduction(op) && h[RED_OP_LSB +: RED_OP_W] != RED_ADD) pkt_check = MAL_BAD_RED_OP;
    else if (is_reduction(op) && h[DTYPE_LSB +: DTYPE_W] > DT_FP32) pkt_check = MAL_BAD_DTYPE;
    else if ((addr & amask) != '0) pkt_check = MAL_MISALIGNED;
    else pkt_check = MAL_NONE;
  endfunction

endpackage
/* verilator lint_on UNUSEDSIGNAL */
/* verilator lint_on UNUSEDPARAM */
