// The endpoint's response queue (ISCA 2020 in-network collectives paper,
// §IV; docs/blocks/ep_rspq.md). The C++ model of the same core is
// hw/ep_rspq/ep_rspq_core.{h,cpp}; the block around it, rtl/ep_rspq.sv, is
// generated from hw/ep_rspq/ep_rspq.yaml. The ring is ep_tx's output queue,
// rtl/ep_outq.sv.
module ep_rspq_core #(
  parameter int unsigned FLIT_W  = 128,
  parameter int unsigned MAX_LEN = 4,
  parameter int unsigned SLOTS   = 10,
  parameter int unsigned STAT_W  = 32,
  localparam int unsigned LEN_W  = $clog2(MAX_LEN + 1),
  localparam int unsigned SLOT_W = $clog2(SLOTS),
  localparam int unsigned CW     = $clog2(SLOTS + 1)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              hrq_valid_i,
  output logic              hrq_ready_o,
  input  logic [FLIT_W-1:0] hrq_hdr_i,
  input  logic [LEN_W-1:0]  hrq_len_i,
  output logic [SLOT_W-1:0] hrq_slot_o,
  input  logic              prq_valid_i,
  output logic              prq_ready_o,
  input  logic [FLIT_W-1:0] prq_hdr_i,
  input  logic [LEN_W-1:0]  prq_len_i,
  output logic [SLOT_W-1:0] prq_slot_o,
  input  logic              hrel_i,
  input  logic              hmd_valid_i,
  input  logic [SLOT_W-1:0] hmd_tag_i,
  input  logic [FLIT_W-1:0] hmd_data_i,
  input  logic              pmd_valid_i,
  input  logic [SLOT_W-1:0] pmd_tag_i,
  input  logic [FLIT_W-1:0] pmd_data_i,
  output logic              rsp_out_valid_o,
  input  logic              rsp_out_ready_i,
  output logic [FLIT_W-1:0] rsp_out_flit_o,
  output logic              idle_o,
  output logic              stray_o,
  output logic              bad_o,
  output logic [CW-1:0]     queued_o,
  output logic [STAT_W-1:0] stat_results_o,
  output logic [STAT_W-1:0] stat_pull_rsps_o,
  output logic [STAT_W-1:0] stat_flits_o,
  output logic [STAT_W-1:0] stat_strays_o,
  output logic [STAT_W-1:0] stat_bad_o
);

  localparam logic [31:0] ML = 32'(MAX_LEN);

  logic              h_over, p_over, h_push, p_push, q_push, pop, rel_stray;
  logic              over_h_q, over_p_q;  // an overlong reservation of the port counted already
  logic [1:0]        strays;
  logic [FLIT_W-1:0] q_hdr;
  logic [LEN_W-1:0]  q_len;
  logic [SLOT_W-1:0] q_first;
  logic [CW-1:0]     q_free, q_count;
  logic [STAT_W-1:0] results_q, pull_rsps_q, flits_q, strays_q, bad_q;

  // A reservation of more than MAX_LEN data slots is never granted: no
  // grant could hold it, and the engine could not tell a refusal from a
  // grant. Constant when MAX_LEN + 1 is a power of two.
  /* verilator lint_off CMPCONST */
  assign h_over      = hrq_valid_i && 32'(hrq_len_i) > ML;
  assign p_over      = prq_valid_i && 32'(prq_len_i) > ML;
  /* verilator lint_on CMPCONST */
  // The home first: its RESULT frees a line's counter and merge area, which
  // the region's next contributions wait for; a pull's answer only delays
  // its requester's final add.
  assign h_push      = hrq_valid_i && !h_over && 32'(q_free) >= 1 + 32'(hrq_len_i);
  assign p_push      = !hrq_valid_i && prq_valid_i && !p_over && 32'(q_free) >= 1 + 32'(prq_len_i);
  assign hrq_ready_o = h_push;
  assign prq_ready_o = p_push;
  assign hrq_slot_o  = q_first;
  assign prq_slot_o  = q_first;
  assign q_push      = h_push || p_push;
  assign q_hdr       = h_push ? hrq_hdr_i : prq_hdr_i;
  assign q_len       = h_push ? hrq_len_i : prq_len_i;
  assign pop         = rsp_out_valid_o && rsp_out_ready_i;
  assign stray_o     = |strays;
  assign bad_o       = (h_over && !over_h_q) || (p_over && !over_p_q) || rel_stray;
  assign idle_o      = q_count == '0;
  assign queued_o    = q_count;

  // A RESULT's last flit waits for the home's release (its counter
  // cleared: docs/blocks/ep_home.md), so that the region's next round
  // cannot reach the home before the line's counter is free.
  ep_outq #(.FLIT_W(FLIT_W), .MAX_LEN(MAX_LEN), .SLOTS(SLOTS), .FILLS(2)) u_outq (
    .clk_i, .rst_ni,
    .push_i     (q_push),
    .push_hdr_i (q_hdr),
    .push_len_i (q_len),
    .push_hold_i(h_push),
    .first_o    (q_first),
    .free_o     (q_free),
    .rel_i      (hrel_i),
    .rel_stray_o(rel_stray),
    .fill_i     ({pmd_valid_i, hmd_valid_i}),
    .fill_tag_i ({pmd_tag_i, hmd_tag_i}),
    .fill_data_i({pmd_data_i, hmd_data_i}),
    .stray_o    (strays),
    .out_valid_o(rsp_out_valid_o),
    .out_ready_i(rsp_out_ready_i),
    .out_flit_o (rsp_out_flit_o),
    .count_o    (q_count)
  );

  assign stat_results_o   = results_q;
  assign stat_pull_rsps_o = pull_rsps_q;
  assign stat_flits_o     = flits_q;
  assign stat_strays_o    = strays_q;
  assign stat_bad_o       = bad_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      results_q   <= '0;
      pull_rsps_q <= '0;
      flits_q     <= '0;
      strays_q    <= '0;
      bad_q       <= '0;
      over_h_q    <= 1'b0;
      over_p_q    <= 1'b0;
    end else begin
      over_h_q <= h_over;
      over_p_q <= p_over;
      if (h_push) results_q <= results_q + 1'b1;
      if (p_push) pull_rsps_q <= pull_rsps_q + 1'b1;
      if (pop) flits_q <= flits_q + 1'b1;
      strays_q <= strays_q + STAT_W'(strays[0]) + STAT_W'(strays[1]);
      bad_q    <= bad_q + STAT_W'(h_over && !over_h_q) + STAT_W'(p_over && !over_p_q) + STAT_W'(rel_stray);
    end
  end

endmodule
