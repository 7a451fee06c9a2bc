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
  input  logic              md_valid_i,
  input  logic [SLOT_W-1:0] md_tag_i,
  input  logic [FLIT_W-1:0] md_data_i,
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

  logic              h_bad, p_bad, h_push, p_push, q_push, pop;
  logic [FLIT_W-1:0] q_hdr;
  logic [LEN_W-1:0]  q_len;
  logic [SLOT_W-1:0] q_first;
  logic [CW-1:0]     q_free, q_count;
  logic [STAT_W-1:0] results_q, pull_rsps_q, flits_q, strays_q, bad_q;

  // The home first: its RESULT frees a line's counter and merge area, which
  // the region's next contributions wait for; a pull's answer only delays
  // its requester's final add. A reservation of more than MAX_LEN data
  // slots could never be granted: it is refused (taken and counted).
  // Constant when MAX_LEN + 1 is a power of two (no length is too long).
  /* verilator lint_off CMPCONST */
  assign h_bad       = hrq_valid_i && 32'(hrq_len_i) > ML;
  assign p_bad       = !hrq_valid_i && prq_valid_i && 32'(prq_len_i) > ML;
  /* verilator lint_on CMPCONST */
  assign h_push      = hrq_valid_i && !h_bad && 32'(q_free) >= 1 + 32'(hrq_len_i);
  assign p_push      = !hrq_valid_i && prq_valid_i && !p_bad && 32'(q_free) >= 1 + 32'(prq_len_i);
  assign hrq_ready_o = h_bad || h_push;
  assign prq_ready_o = p_bad || p_push;
  assign hrq_slot_o  = q_first;
  assign prq_slot_o  = q_first;
  assign q_push      = h_push || p_push;
  assign q_hdr       = h_push ? hrq_hdr_i : prq_hdr_i;
  assign q_len       = h_push ? hrq_len_i : prq_len_i;
  assign pop         = rsp_out_valid_o && rsp_out_ready_i;
  assign bad_o       = h_bad || p_bad;
  assign idle_o      = q_count == '0;
  assign queued_o    = q_count;

  ep_outq #(.FLIT_W(FLIT_W), .MAX_LEN(MAX_LEN), .SLOTS(SLOTS)) u_outq (
    .clk_i, .rst_ni,
    .push_i     (q_push),
    .push_hdr_i (q_hdr),
    .push_len_i (q_len),
    .first_o    (q_first),
    .free_o     (q_free),
    .fill_i     (md_valid_i),
    .fill_tag_i (md_tag_i),
    .fill_data_i(md_data_i),
    .stray_o    (stray_o),
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
    end else begin
      if (h_push) results_q <= results_q + 1'b1;
      if (p_push) pull_rsps_q <= pull_rsps_q + 1'b1;
      if (pop) flits_q <= flits_q + 1'b1;
      if (stray_o) strays_q <= strays_q + 1'b1;
      if (bad_o) bad_q <= bad_q + 1'b1;
    end
  end

endmodule
