// The endpoint's transmit engine (ISCA 2020 in-network collectives paper,
// §IV). The C++ model of the same core is hw/ep_tx/ep_tx_core.{h,cpp}; the
// block around it, rtl/ep_tx.sv, is generated from hw/ep_tx/ep_tx.yaml.
// The output queue's slots are flops, not rtl/t3_mem.sv: a cycle writes a
// header, up to MAX_LEN empty data slots and a memory answer's flit at
// three places at once (docs/blocks/ep_tx.md).
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
  output logic [5:0]        queued_o,
  output logic [STAT_W-1:0] stat_pushes_o,
  output logic [STAT_W-1:0] stat_pulls_o,
  output logic [STAT_W-1:0] stat_writes_o,
  output logic [STAT_W-1:0] stat_flits_o
);

  localparam int unsigned CW  = $clog2(TXQ + 1);
  localparam int unsigned FB  = FLIT_W / 8;
  localparam logic [31:0] ML  = 32'(MAX_LEN);

  logic [FLIT_W-1:0] flit_q [TXQ];
  logic [TXQ-1:0]    rdy_q;
  logic [TAG_W-1:0]  head_q, seq_q;
  logic [CW-1:0]     count_q;
  logic [4:0]        left_q;
  logic [47:0]       addr_q;
  logic [31:0]       copied_q;
  logic [STAT_W-1:0] pushes_q, pulls_q, writes_q, flits_q;

  // i mod TXQ for i < 2 x TXQ (a slot plus at most TXQ): a subtraction, not
  // a divider.
  function automatic logic [TAG_W-1:0] slot(input logic [TAG_W:0] i);
    slot = (32'(i) >= TXQ) ? TAG_W'(32'(i) - TXQ) : TAG_W'(i);
  endfunction

  logic        take, pop, push_pkt, push_cp, is_push;
  logic [31:0] copy_left, cp_len;
  logic [TAG_W:0] tail;
  logic [7:0]  hdr_len;

  assign take      = left_q == '0 && 32'(TXQ) - 32'(count_q) >= 1 + ML;
  assign copy_left = cp_flits_i - copied_q;
  assign cp_len    = (copy_left < ML) ? copy_left : ML;
  assign tail      = (TAG_W+1)'(slot((TAG_W+1)'(head_q) + (TAG_W+1)'(count_q)));
  // A PUSH's data flits, at most MAX_LEN (docs/blocks/ep_tx.md).
  assign hdr_len   = (32'(pkt_hdr_i[t3_pkt_pkg::LEN_LSB +: t3_pkt_pkg::LEN_W]) > ML)
                     ? 8'(MAX_LEN) : pkt_hdr_i[t3_pkt_pkg::LEN_LSB +: t3_pkt_pkg::LEN_W];
  assign is_push   = pkt_hdr_i[t3_pkt_pkg::OP_LSB +: t3_pkt_pkg::OP_W] == t3_pkt_pkg::OP_PUSH;
  assign push_pkt  = pkt_valid_i && take;
  assign push_cp   = !pkt_valid_i && take && cp_valid_i;

  assign pkt_ready_o     = take;
  assign cp_done_o       = push_cp && copy_left <= ML;
  assign mr_valid_o      = left_q != '0;
  assign mr_addr_o       = (left_q != '0) ? addr_q : '0;
  assign mr_tag_o        = (left_q != '0) ? seq_q : '0;
  assign req_out_valid_o = count_q != '0 && rdy_q[head_q];
  assign req_out_flit_o  = req_out_valid_o ? flit_q[head_q] : '0;
  assign pop             = req_out_valid_o && req_out_ready_i;
  assign idle_o          = count_q == '0 && left_q == '0;
  assign queued_o        = 6'(count_q);
  assign stat_pushes_o   = pushes_q;
  assign stat_pulls_o    = pulls_q;
  assign stat_writes_o   = writes_q;
  assign stat_flits_o    = flits_q;

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

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      for (int i = 0; i < TXQ; i++) flit_q[i] <= '0;
      rdy_q    <= '0;
      head_q   <= '0;
      seq_q    <= '0;
      count_q  <= '0;
      left_q   <= '0;
      addr_q   <= '0;
      copied_q <= '0;
      pushes_q <= '0;
      pulls_q  <= '0;
      writes_q <= '0;
      flits_q  <= '0;
    end else begin
      if (md_valid_i && 32'(md_tag_i) < TXQ) begin
        flit_q[md_tag_i] <= md_data_i;
        rdy_q[md_tag_i]  <= 1'b1;
      end
      if (left_q != '0 && mr_ready_i) begin
        addr_q <= addr_q + 48'(FB);
        seq_q  <= slot((TAG_W+1)'(seq_q) + 1'b1);
        left_q <= left_q - 1'b1;
      end
      if (pop) begin
        head_q  <= slot((TAG_W+1)'(head_q) + 1'b1);
        flits_q <= flits_q + 1'b1;
      end
      if (push_pkt) begin
        flit_q[TAG_W'(tail)] <= pkt_hdr_i;
        rdy_q[TAG_W'(tail)]  <= 1'b1;
        if (is_push) begin
          for (int i = 1; i <= MAX_LEN; i++) begin
            if (i <= 32'(hdr_len)) begin
              flit_q[slot(tail + (TAG_W+1)'(i))] <= '0;
              rdy_q[slot(tail + (TAG_W+1)'(i))]  <= 1'b0;
            end
          end
          left_q   <= 5'(hdr_len);
          addr_q   <= pkt_local_addr_i;
          seq_q    <= slot(tail + 1'b1);
          pushes_q <= pushes_q + 1'b1;
        end else begin
          pulls_q <= pulls_q + 1'b1;
        end
      end else if (push_cp) begin
        if (cp_len != '0) begin
          flit_q[TAG_W'(tail)] <= wr_hdr;
          rdy_q[TAG_W'(tail)]  <= 1'b1;
          for (int i = 1; i <= MAX_LEN; i++) begin
            if (32'(i) <= cp_len) begin
              flit_q[slot(tail + (TAG_W+1)'(i))] <= '0;
              rdy_q[slot(tail + (TAG_W+1)'(i))]  <= 1'b0;
            end
          end
          left_q   <= 5'(cp_len);
          addr_q   <= cp_local_i + 48'(copied_q) * 48'(FB);
          seq_q    <= slot(tail + 1'b1);
          writes_q <= writes_q + 1'b1;
        end
        copied_q <= (copy_left <= ML) ? '0 : copied_q + cp_len;
      end
      count_q <= count_q - CW'(pop) +
                 (push_pkt ? CW'(1) + (is_push ? CW'(hdr_len) : '0) : '0) +
                 (push_cp && cp_len != '0 ? CW'(1) + CW'(cp_len) : '0);
    end
  end

endmodule
