// The endpoint's final add (docs/blocks/ep_final.md). The C++ model of the
// same core is hw/ep_final/ep_final_core.{h,cpp}; the block around it,
// rtl/ep_final.sv, is generated from hw/ep_final/ep_final.yaml.
//
// A line at a time: taken from fin_*, its flits read from src one a cycle
// (tag = the flit's number), each answer kept in its place (buf_q, flops:
// answers land anywhere while the adds read in order), the flits added to
// dst in order as their answers are there, then the header on res_*.
module ep_final_core #(
  parameter int unsigned FLIT_W  = 128,
  parameter int unsigned MAX_LEN = 4,
  parameter int unsigned STAT_W  = 32,
  localparam int unsigned TAG_W = (MAX_LEN > 1) ? $clog2(MAX_LEN) : 1,
  localparam int unsigned ML    = (MAX_LEN > 0) ? MAX_LEN : 1  // MAX_LEN, at least 1 to reach the top's checks
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              fin_valid_i,
  output logic              fin_ready_o,
  input  logic [47:0]       fin_src_i,
  input  logic [47:0]       fin_dst_i,
  input  logic [FLIT_W-1:0] fin_hdr_i,
  output logic              mr_valid_o,
  input  logic              mr_ready_i,
  output logic [47:0]       mr_addr_o,
  output logic [TAG_W-1:0]  mr_tag_o,
  input  logic              md_valid_i,
  input  logic [TAG_W-1:0]  md_tag_i,
  input  logic [FLIT_W-1:0] md_data_i,
  output logic              mw_valid_o,
  input  logic              mw_ready_i,
  output logic [47:0]       mw_addr_o,
  output logic [FLIT_W-1:0] mw_data_o,
  output logic              mw_add_o,
  output logic [1:0]        mw_dtype_o,
  output logic              res_valid_o,
  input  logic              res_ready_i,
  output logic [FLIT_W-1:0] res_hdr_o,
  output logic              idle_o,
  output logic              stray_o,
  output logic [STAT_W-1:0] stat_lines_o,
  output logic [STAT_W-1:0] stat_flits_o,
  output logic [STAT_W-1:0] stat_stray_o
);

  localparam int unsigned CW = $clog2(ML + 1);  // a flit count, 0..MAX_LEN
  localparam int unsigned FB_BYTES = FLIT_W / 8;
  localparam logic [47:0] FB = 48'(FB_BYTES);

  logic              busy_q;
  logic [47:0]       src_q, dst_q;
  logic [t3_pkt_pkg::HDR_W-1:0] hdr_q;
  logic [CW-1:0]     len_q, issued_q, added_q;
  logic [1:0]        dtype_q;
  logic [ML-1:0]     pending_q, got_q;
  logic [FLIT_W-1:0] buf_q [ML];
  logic [STAT_W-1:0] stat_lines_q, stat_flits_q, stat_stray_q;

  logic [7:0] in_len;
  logic [CW-1:0] take_len;
  assign in_len = fin_hdr_i[t3_pkt_pkg::LEN_LSB +: t3_pkt_pkg::LEN_W];
  // ep_rx hands on checked headers (1..MAX_LEN flits); a longer one is cut
  // to MAX_LEN, as ep_tx cuts a descriptor's.
  assign take_len = 32'(in_len) > ML ? CW'(ML) : CW'(in_len);

  logic got_next;
  assign got_next = 32'(added_q) < ML && got_q[TAG_W'(added_q)];

  assign fin_ready_o  = !busy_q;
  assign mr_valid_o   = busy_q && issued_q < len_q;
  assign mr_addr_o    = mr_valid_o ? src_q + 48'(issued_q) * FB : '0;
  assign mr_tag_o     = mr_valid_o ? TAG_W'(issued_q) : '0;
  assign mw_valid_o   = busy_q && added_q < len_q && got_next;
  assign mw_addr_o    = mw_valid_o ? dst_q + 48'(added_q) * FB : '0;
  assign mw_data_o    = mw_valid_o ? buf_q[TAG_W'(added_q)] : '0;
  assign mw_add_o     = mw_valid_o;
  assign mw_dtype_o   = mw_valid_o ? dtype_q : '0;
  assign res_valid_o  = busy_q && added_q == len_q;
  assign res_hdr_o    = res_valid_o ? FLIT_W'(hdr_q) : '0;
  assign idle_o       = !busy_q;
  assign stray_o      = md_valid_i && !(32'(md_tag_i) < 32'(len_q) && pending_q[md_tag_i]);
  assign stat_lines_o = stat_lines_q;
  assign stat_flits_o = stat_flits_q;
  assign stat_stray_o = stat_stray_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      busy_q       <= 1'b0;
      pending_q    <= '0;
      got_q        <= '0;
      issued_q     <= '0;
      added_q      <= '0;
      len_q        <= '0;
      stat_lines_q <= '0;
      stat_flits_q <= '0;
      stat_stray_q <= '0;
    end else begin
      logic [ML-1:0] pending, got;
      pending = pending_q;
      got     = got_q;
      if (stray_o) begin
        stat_stray_q <= stat_stray_q + 1'b1;
      end else if (md_valid_i) begin
        got[md_tag_i]     = 1'b1;
        pending[md_tag_i] = 1'b0;
      end
      if (mr_valid_o && mr_ready_i) begin
        pending[TAG_W'(issued_q)] = 1'b1;
        issued_q <= issued_q + 1'b1;
      end
      if (mw_valid_o && mw_ready_i) begin
        added_q      <= added_q + 1'b1;
        stat_flits_q <= stat_flits_q + 1'b1;
      end
      if (res_valid_o && res_ready_i) begin
        busy_q       <= 1'b0;
        stat_lines_q <= stat_lines_q + 1'b1;
      end
      if (fin_ready_o && fin_valid_i) begin
        busy_q   <= 1'b1;
        src_q    <= fin_src_i;
        dst_q    <= fin_dst_i;
        hdr_q    <= fin_hdr_i[t3_pkt_pkg::HDR_W-1:0];
        len_q    <= take_len;
        dtype_q  <= fin_hdr_i[t3_pkt_pkg::DTYPE_LSB +: t3_pkt_pkg::DTYPE_W];
        issued_q <= '0;
        added_q  <= '0;
        pending = '0;
        got     = '0;
      end
      pending_q <= pending;
      got_q     <= got;
    end
  end

  // The answers' data: no reset (their valid bits have one).
  always_ff @(posedge clk_i) begin
    if (md_valid_i && !stray_o) buf_q[md_tag_i] <= md_data_i;
  end

  logic unused;
  assign unused = ^fin_hdr_i;  // a header's bits past its 128

endmodule
