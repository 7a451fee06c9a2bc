// The endpoint's transmit engine (ISCA 2020 in-network collectives paper,
// §IV). The C++ model of the same core is hw/ep_tx/ep_tx_core.{h,cpp}; the
// block around it, rtl/ep_tx.sv, is generated from hw/ep_tx/ep_tx.yaml.
// Its output queue is rtl/ep_outq.sv, which the response queue shares
// (docs/blocks/ep_tx.md).
module ep_tx_core #(
  parameter int unsigned FLIT_W  = 128,
  parameter int unsigned MAX_LEN = 4,
  parameter int unsigned STAT_W  = 32,
  localparam int unsigned TXQ   = 2 * (1 + MAX_LEN),
  localparam int unsigned TAG_W = $clog2(TXQ)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              pkt_valid_i,
  output logic              pkt_ready_o,
  input  logic [FLIT_W-1:0] pkt_hdr_i,
  input  logic [47:0]       pkt_local_addr_i,
  input  logic              cp_valid_i,
  output logic              cp_done_o,
  input  logic [47:0]       cp_local_i,
  input  logic [47:0]       cp_net_i,
  input  logic [31:0]       cp_flits_i,
  input  logic [7:0]        cp_dst_i,
  output logic              mr_valid_o,
  input  logic              mr_ready_i,
  output logic [47:0]       mr_addr_o,
  output logic [TAG_W-1:0]  mr_tag_o,
  input  logic              md_valid_i,
  input  logic [TAG_W-1:0]  md_tag_i,
  input  logic [FLIT_W-1:0] md_data_i,
  output logic              req_out_valid_o,
  input  logic              req_out_ready_i,
  output logic [FLIT_W-1:0] req_out_flit_o,
  output logic              idle_o,
  input  logic [7:0]        node_i,
  output logic              stray_o,
  output logic [5:0]        queued_o,
  output logic [STAT_W-1:0] stat_pushes_o,
  output logic [STAT_W-1:0] stat_pulls_o,
  output logic [STAT_W-1:0] stat_writes_o,
  output logic [STAT_W-1:0] stat_flits_o,
  output logic [STAT_W-1:0] stat_strays_o
);

  localparam int unsigned CW    = $clog2(TXQ + 1);
  localparam int unsigned LEN_W = $clog2(MAX_LEN + 1);
  localparam int unsigned FB    = FLIT_W / 8;
  localparam logic [31:0] ML    = 32'(MAX_LEN);

  logic [TAG_W-1:0]  seq_q;
  logic [4:0]        left_q;
  logic [47:0]       addr_q;
  logic [31:0]       copied_q;
  logic [STAT_W-1:0] pushes_q, pulls_q, writes_q, flits_q, strays_q;

  logic        take, push_pkt, push_cp, is_push, q_push, pop;
  logic [31:0] copy_left, cp_len;
  logic [LEN_W-1:0] hdr_len;
  logic [FLIT_W-1:0] q_hdr;
  logic [LEN_W-1:0]  q_len;
  logic [TAG_W-1:0]  q_first;
  logic [CW-1:0]     q_free, q_count;

  // A copy's WRITE header (docs/packet.md): src this GPU, the rest 0.
  logic [FLIT_W-1:0] wr_hdr;
  always_comb begin
    wr_hdr = '0;
    wr_hdr[t3_pkt_pkg::OP_LSB +: t3_pkt_pkg::OP_W]     = t3_pkt_pkg::OP_WRITE;
    wr_hdr[t3_pkt_pkg::LEN_LSB +: t3_pkt_pkg::LEN_W]   = cp_len[7:0];
    wr_hdr[t3_pkt_pkg::SRC_LSB +: t3_pkt_pkg::SRC_W]   = node_i;
    wr_hdr[t3_pkt_pkg::DST_LSB +: t3_pkt_pkg::DST_W]   = cp_dst_i;
    wr_hdr[t3_pkt_pkg::ADDR_LSB +: t3_pkt_pkg::ADDR_W] = cp_net_i + 48'(copied_q) * 48'(FB);
  end

  assign take      = left_q == '0 && 32'(q_free) >= 1 + ML;
  assign copy_left = cp_flits_i - copied_q;
  assign cp_len    = (copy_left < ML) ? copy_left : ML;
  // A PUSH's data flits, at most MAX_LEN (docs/blocks/ep_tx.md).
  assign hdr_len   = (32'(pkt_hdr_i[t3_pkt_pkg::LEN_LSB +: t3_pkt_pkg::LEN_W]) > ML)
                     ? LEN_W'(MAX_LEN) : LEN_W'(pkt_hdr_i[t3_pkt_pkg::LEN_LSB +: t3_pkt_pkg::LEN_W]);
  assign is_push   = pkt_hdr_i[t3_pkt_pkg::OP_LSB +: t3_pkt_pkg::OP_W] == t3_pkt_pkg::OP_PUSH;
  assign push_pkt  = pkt_valid_i && take;
  assign push_cp   = !pkt_valid_i && take && cp_valid_i;
  // A copy command with no flits left is taken with no packet.
  assign q_push    = push_pkt || (push_cp && cp_len != '0);
  assign q_hdr     = push_pkt ? pkt_hdr_i : wr_hdr;
  assign q_len     = push_pkt ? (is_push ? hdr_len : '0) : LEN_W'(cp_len);
  assign pop       = req_out_valid_o && req_out_ready_i;

  logic unused_rel_stray;  // no packet is held: requests leave whole
  ep_outq #(.FLIT_W(FLIT_W), .MAX_LEN(MAX_LEN), .SLOTS(TXQ), .FILLS(1)) u_outq (
    .clk_i, .rst_ni,
    .push_i     (q_push),
    .push_hdr_i (q_hdr),
    .push_len_i (q_len),
    .push_hold_i(1'b0),
    .first_o    (q_first),
    .free_o     (q_free),
    .rel_i      (1'b0),
    .rel_stray_o(unused_rel_stray),
    .fill_i     (md_valid_i),
    .fill_tag_i (md_tag_i),
    .fill_data_i(md_data_i),
    .stray_o    (stray_o),
    .out_valid_o(req_out_valid_o),
    .out_ready_i(req_out_ready_i),
    .out_flit_o (req_out_flit_o),
    .count_o    (q_count)
  );

  assign pkt_ready_o   = take;
  assign cp_done_o     = push_cp && copy_left <= ML;
  assign mr_valid_o    = left_q != '0;
  assign mr_addr_o     = (left_q != '0) ? addr_q : '0;
  assign mr_tag_o      = (left_q != '0) ? seq_q : '0;
  assign idle_o        = q_count == '0 && left_q == '0;
  assign queued_o      = 6'(q_count);
  assign stat_pushes_o = pushes_q;
  assign stat_pulls_o  = pulls_q;
  assign stat_writes_o = writes_q;
  assign stat_flits_o  = flits_q;
  assign stat_strays_o = strays_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      seq_q    <= '0;
      left_q   <= '0;
      addr_q   <= '0;
      copied_q <= '0;
      pushes_q <= '0;
      pulls_q  <= '0;
      writes_q <= '0;
      flits_q  <= '0;
      strays_q <= '0;
    end else begin
      if (left_q != '0 && mr_ready_i) begin
        addr_q <= addr_q + 48'(FB);
        seq_q  <= (32'(seq_q) == TXQ - 1) ? '0 : seq_q + 1'b1;
        left_q <= left_q - 1'b1;
      end
      if (pop) flits_q <= flits_q + 1'b1;
      if (stray_o) strays_q <= strays_q + 1'b1;
      if (push_pkt) begin
        if (is_push) begin
          left_q   <= 5'(hdr_len);
          addr_q   <= pkt_local_addr_i;
          seq_q    <= q_first;
          pushes_q <= pushes_q + 1'b1;
        end else begin
          pulls_q <= pulls_q + 1'b1;
        end
      end else if (push_cp) begin
        if (cp_len != '0) begin
          left_q   <= 5'(cp_len);
          addr_q   <= cp_local_i + 48'(copied_q) * 48'(FB);
          seq_q    <= q_first;
          writes_q <= writes_q + 1'b1;
        end
        copied_q <= (copy_left <= ML) ? '0 : copied_q + cp_len;
      end
    end
  end

endmodule
