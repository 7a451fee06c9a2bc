// A translation window's record (hw/ep_window/ep_window.yaml; EpWin and
// pack_window() in hw/ep_window/ep_window_core.h): the endpoint's engines
// read the table of rtl/ep_window.sv as WINDOWS of these on tbl_o, window w
// in bits w*REC_W +: REC_W. Least significant field last here.
/* verilator lint_off UNUSEDPARAM */  // REC_W: a block that reads no record
package ep_window_pkg;

  typedef struct packed {
    logic [31:0] contrib_mask;  // a deterministic home's contributors (a bit a src)
    logic [31:0] stage;         // a deterministic home's staging area
    logic [31:0] merge;         // a home's merge area
    logic [31:0] dst;           // the reduced buffer
    logic [31:0] src;           // this GPU's contribution
    logic [31:0] bytes;         // the range's size
    logic [47:0] net_base;      // the range's network base
    logic [20:0] count_base;    // its first contribution counter
    logic [7:0]  expected;        // contributors
    logic [1:0]  copy;          // 0 a region's, 1 WRITEs added, 2 WRITEs stored
    logic [1:0]  dtype;         // 0 fp16, 1 bf16, 2 fp32
    logic        det;           // deterministic home
    logic        home;          // the region's home
    logic        valid;
  } ep_win_t;

  // $bits(ep_win_t), written out: yosys 0.23 takes no $bits of a type.
  localparam int unsigned REC_W = 276;
  // Where the lookups' fields sit in a record (the struct above, written
  // out for loops over tbl_o).
  localparam int unsigned REC_VALID = 0, REC_NET_BASE = 36, REC_BYTES = 84;
  // ... and the counter lookup's (ep_home's sweep).
  localparam int unsigned REC_HOME = 1, REC_DET = 2, REC_COPY = 5, REC_EXPECTED = 7, REC_COUNT_BASE = 15;

  // A window (valid, base, bytes) holds a packet at network address a of
  // len flits of 2^fb_log bytes whole: the lookups' rule (find_window() in
  // C++), for ep_window's lookup ports and the engines that read tbl_o.
  function automatic logic holds(input logic valid, input logic [47:0] base, input logic [31:0] bytes,
                                 input logic [47:0] a, input logic [7:0] len, input int unsigned fb_log);
    holds = valid && a >= base && 64'(a) - 64'(base) + (64'(len) << fb_log) <= 64'(bytes);
  endfunction

  // A deterministic home's stage for contributor src: its rank, the
  // contributors in mask below it (src past 31: all of them). An adder tree
  // (a chain of 32 adds ran at 54.5 MHz in ep_req).
  function automatic logic [5:0] rank(input logic [31:0] mask, input logic [7:0] src);
    logic [31:0] v;
    logic [31:0] l1;  // 16 sums of 2 bits
    logic [23:0] l2;  // 8 of 3
    logic [15:0] l3;  // 4 of 4
    logic [9:0]  l4;  // 2 of 5
    v = src >= 8'd32 ? mask : mask & ((32'd1 << src[4:0]) - 32'd1);
    for (int i = 0; i < 16; i++) l1[2*i +: 2] = {1'b0, v[2*i]} + {1'b0, v[2*i+1]};
    for (int i = 0; i < 8; i++) l2[3*i +: 3] = {1'b0, l1[4*i +: 2]} + {1'b0, l1[4*i+2 +: 2]};
    for (int i = 0; i < 4; i++) l3[4*i +: 4] = {1'b0, l2[6*i +: 3]} + {1'b0, l2[6*i+3 +: 3]};
    for (int i = 0; i < 2; i++) l4[5*i +: 5] = {1'b0, l3[8*i +: 4]} + {1'b0, l3[8*i+4 +: 4]};
    rank = {1'b0, l4[4:0]} + {1'b0, l4[9:5]};
  endfunction

  // A line's offset in its window, counter `line` of a window whose
  // counters start at count_base (flits of 2^fb_log bytes): where its
  // flits are in each of the window's buffers (the home's merge area and
  // copy, the in-order add's stages). line_offset() in C++.
  function automatic logic [47:0] line_off(input logic [31:0] line, input logic [31:0] count_base,
                                           input int unsigned fb_log);
    logic [31:0] rel;  // wraps at 32 bits, as in C++
    rel = line - count_base;
    line_off = 48'(rel) << fb_log;
  endfunction

endpackage
/* verilator lint_on UNUSEDPARAM */
