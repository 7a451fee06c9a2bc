// The packet package's functions (rtl/t3_pkt_pkg.sv) on pins, for
// testbench/common/pkt_pkg_rtl_test.cpp, which holds them to hw/common/packet.h.
module t3_pkt_pkg_tb #(
  parameter int unsigned FLIT_BYTES_LOG2 = 4
) (
  input  logic [t3_pkt_pkg::HDR_W-1:0] hdr_i,
  input  logic [t3_pkt_pkg::LEN_W-1:0] max_len_i,
  output logic [2:0]                   malformed_o,
  output logic [t3_pkt_pkg::LEN_W-1:0] data_flits_o,
  output logic                         known_op_o,
  output logic                         has_data_o,
  output logic                         is_reduction_o
);
  import t3_pkt_pkg::*;
  assign malformed_o    = pkt_check(hdr_i, max_len_i, FLIT_BYTES_LOG2);
  assign data_flits_o   = data_flits(hdr_i);
  assign known_op_o     = known_op(hdr_i[OP_LSB +: OP_W]);
  assign has_data_o     = has_data(hdr_i[OP_LSB +: OP_W]);
  assign is_reduction_o = is_reduction(hdr_i[OP_LSB +: OP_W]);
endmodule
