// The endpoint's result path (ISCA 2020 in-network collectives paper, §IV;
// docs/blocks/ep_res.md). The C++ model of the same core is
// hw/ep_res/ep_res_core.{h,cpp}; the block around it, rtl/ep_res.sv, is
// generated from hw/ep_res/ep_res.yaml. The ranges are flops: every one is
// compared with a RESULT's address in the cycle it is handed on.
module ep_res_core #(
  parameter int unsigned FLIT_W = 128,
  parameter int unsigned CTRS   = 8,
  parameter int unsigned STAT_W = 32,
  localparam int unsigned CTR_W = (CTRS > 1) ? $clog2(CTRS) : 1
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              desc_valid_i,
  input  logic              desc_ready_i,
  /* verilator lint_off UNUSEDSIGNAL */  // a descriptor's fields the ranges do not read
  input  logic [FLIT_W-1:0] desc_hdr_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic              cpl_wr_i,
  input  logic [2:0]        cpl_status_i,
  input  logic [CTR_W-1:0]  cpl_ctr_i,
  input  logic              rx_valid_i,
  output logic              rx_ready_o,
  input  logic [FLIT_W-1:0] rx_hdr_i,
  input  logic              home_valid_i,
  output logic              home_ready_o,
  input  logic [FLIT_W-1:0] home_hdr_i,
  input  logic              fin_valid_i,
  output logic              fin_ready_o,
  input  logic [FLIT_W-1:0] fin_hdr_i,
  output logic              res_valid_o,
  input  logic              res_ready_i,
  output logic [FLIT_W-1:0] res_hdr_o,
  output logic              unmatched_o,
  output logic [63:0]       live_o,
  output logic [STAT_W-1:0] stat_results_o,
  output logic [STAT_W-1:0] stat_unmatched_o
);

  localparam int unsigned FB       = FLIT_W / 8;
  localparam int unsigned ADDR_LSB = t3_pkt_pkg::ADDR_LSB;
  localparam int unsigned CTR_LSB  = t3_pkt_pkg::CTR_LSB;
  localparam int unsigned LEN_LSB  = t3_pkt_pkg::LEN_LSB;

  logic [CTRS-1:0] live_q;
  logic [47:0]     lo_q [CTRS];
  logic [48:0]     hi_q [CTRS];  // up to 2^48 + 255 x FB
  logic [STAT_W-1:0] results_q, unmatched_q;

  // The engines in the model's order: the response receiver frees the
  // network's responses, the home a region's next round, the final add a
  // pulled line.
  logic              use_ctr;
  logic [FLIT_W-1:0] pick;
  logic [7:0]        ctr;
  always_comb begin
    pick    = rx_valid_i ? rx_hdr_i : home_valid_i ? home_hdr_i : fin_valid_i ? fin_hdr_i : '0;
    use_ctr = rx_valid_i || home_valid_i;
    ctr     = 8'hFF;  // past CTRS: the DMA credit controller counts a stray
    for (int c = CTRS - 1; c >= 0; c--) begin  // the lowest counter that matches
      if (live_q[c] && pick[ADDR_LSB +: 48] >= lo_q[c] && 49'(pick[ADDR_LSB +: 48]) < hi_q[c]) ctr = 8'(c);
    end
  end

  assign res_valid_o  = rx_valid_i || home_valid_i || fin_valid_i;
  assign rx_ready_o   = rx_valid_i && res_ready_i;
  assign home_ready_o = !rx_valid_i && home_valid_i && res_ready_i;
  assign fin_ready_o  = !rx_valid_i && !home_valid_i && fin_valid_i && res_ready_i;
  always_comb begin
    res_hdr_o = pick;
    if (use_ctr) res_hdr_o[CTR_LSB +: 8] = ctr;
  end
  assign unmatched_o      = use_ctr && ctr == 8'hFF && res_ready_i;
  assign live_o           = 64'(live_q);
  assign stat_results_o   = results_q;
  assign stat_unmatched_o = unmatched_q;

  // A descriptor's range: addr to addr + len x FB.
  logic [7:0]  d_ctr;
  logic [47:0] d_lo;
  logic [48:0] d_hi;
  assign d_ctr = desc_hdr_i[CTR_LSB +: 8];
  assign d_lo  = desc_hdr_i[ADDR_LSB +: 48];
  assign d_hi  = 49'(d_lo) + 49'(desc_hdr_i[LEN_LSB +: 8]) * 49'(FB);
  logic ending, d_fresh;  // a completion ends a range now; the descriptor's counter has none after it
  assign ending  = cpl_wr_i && cpl_status_i <= 3'd1 && 32'(cpl_ctr_i) < CTRS;
  assign d_fresh = !live_q[CTR_W'(d_ctr)] || (ending && 32'(cpl_ctr_i) == 32'(d_ctr));

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      live_q      <= '0;
      for (int c = 0; c < CTRS; c++) begin
        lo_q[c] <= '0;
        hi_q[c] <= '0;
      end
      results_q   <= '0;
      unmatched_q <= '0;
    end else begin
      if (res_valid_o && res_ready_i) results_q <= results_q + 1'b1;
      if (unmatched_o) unmatched_q <= unmatched_q + 1'b1;
      // A completion ends its range; a descriptor in the same cycle begins
      // the counter's next one.
      if (ending) live_q[cpl_ctr_i] <= 1'b0;
      if (desc_valid_i && desc_ready_i && 32'(d_ctr) < CTRS) begin
        live_q[CTR_W'(d_ctr)] <= 1'b1;
        if (d_fresh) begin
          lo_q[CTR_W'(d_ctr)] <= d_lo;
          hi_q[CTR_W'(d_ctr)] <= d_hi;
        end else begin
          if (d_lo < lo_q[CTR_W'(d_ctr)]) lo_q[CTR_W'(d_ctr)] <= d_lo;
          if (d_hi > hi_q[CTR_W'(d_ctr)]) hi_q[CTR_W'(d_ctr)] <= d_hi;
        end
      end
    end
  end

endmodule
