// The engines' window lookup on ep_window's table (tbl_o): the lowest window
// holding a packet at network address addr_i of len_i flits whole, and the
// packet's offset in it. Combinational; the engines that read tbl_o (ep_rx,
// ep_req) register what it finds. lookup_window() in
// hw/ep_window/ep_window_core.h is the C++ of the same rule.
module ep_win_lookup #(
  parameter int unsigned FLIT_W  = 128,
  parameter int unsigned WINDOWS = 4,
  localparam int unsigned WIN_W  = (WINDOWS > 1) ? $clog2(WINDOWS) : 1,
  localparam int unsigned REC_W  = ep_window_pkg::REC_W,
  localparam int unsigned TBL_W  = (WINDOWS * REC_W + 127) / 128 * 128
) (
  /* verilator lint_off UNUSEDSIGNAL */  // the record's fields a lookup does not read
  input  logic [TBL_W-1:0] tbl_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [47:0]      addr_i,
  input  logic [7:0]       len_i,
  output logic             hit_o,
  output logic [WIN_W-1:0] win_o,
  output logic [47:0]      off_o
);

  localparam int unsigned FB_LOG = $clog2(FLIT_W / 8);

  always_comb begin
    hit_o = 1'b0;
    win_o = '0;
    off_o = '0;
    for (int w = WINDOWS - 1; w >= 0; w--) begin
      // The record's fields by their places: yosys 0.23 synthesizes a
      // struct variable assigned in a loop wrongly (the lookup came out
      // constant).
      if (ep_window_pkg::holds(tbl_i[w*REC_W + ep_window_pkg::REC_VALID],
                               tbl_i[w*REC_W + ep_window_pkg::REC_NET_BASE +: 48],
                               tbl_i[w*REC_W + ep_window_pkg::REC_BYTES +: 32], addr_i, len_i, FB_LOG)) begin
        hit_o = 1'b1;
        win_o = WIN_W'(w);
        off_o = addr_i - tbl_i[w*REC_W + ep_window_pkg::REC_NET_BASE +: 48];
      end
    end
  end

endmodule
