// The endpoint's output queue (docs/blocks/innet_endpoint.md, "The output
// queue"): a ring of SLOTS flits in packet order, shared by ep_tx (the
// request class) and the response queue. The C++ model of the same logic
// is hw/ep_tx/ep_outq.{h,cpp}.
//
// A packet is pushed in one cycle: its header, ready at once, and push_len_i
// empty data slots after it; the engine reads each data flit from the memory
// tagged with its slot (the first is first_o in the push's cycle), and an
// answer fills the slot it names if that slot awaits one, in any order. An
// answer for a slot that awaits none is a stray (stray_o), written nowhere.
// The head leaves when it is there, so a packet's flits leave in order. The
// slots are flops, not rtl/t3_mem.sv: a cycle writes a header, up to MAX_LEN
// empty data slots and an answer at three places at once.
module ep_outq #(
  parameter int unsigned FLIT_W  = 128,
  parameter int unsigned MAX_LEN = 4,
  parameter int unsigned SLOTS   = 10,
  localparam int unsigned TAG_W = $clog2(SLOTS),
  localparam int unsigned LEN_W = $clog2(MAX_LEN + 1),
  localparam int unsigned CW    = $clog2(SLOTS + 1)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // a packet: its header and push_len_i (at most MAX_LEN) empty data slots
  input  logic              push_i,
  input  logic [FLIT_W-1:0] push_hdr_i,
  input  logic [LEN_W-1:0]  push_len_i,
  output logic [TAG_W-1:0]  first_o,  // the slot after the header a push writes now
  output logic [CW-1:0]     free_o,
  // the memory's answers, by slot
  input  logic              fill_i,
  input  logic [TAG_W-1:0]  fill_tag_i,
  input  logic [FLIT_W-1:0] fill_data_i,
  output logic              stray_o,
  // the stream out
  output logic              out_valid_o,
  input  logic              out_ready_i,
  output logic [FLIT_W-1:0] out_flit_o,
  output logic [CW-1:0]     count_o
);

  // A packet of MAX_LEN data flits must fit, or it would never be pushed.
  if (SLOTS < 1 + MAX_LEN || SLOTS > 64) begin : g_bad_slots
    $error("SLOTS = %0d is out of range; allowed: 1 + MAX_LEN (%0d) .. 64", SLOTS, 1 + MAX_LEN);
  end

  logic [FLIT_W-1:0] flit_q [SLOTS];
  logic [SLOTS-1:0]  wait_q;  // a data slot pushed and not yet filled
  logic [TAG_W-1:0]  head_q;
  logic [CW-1:0]     count_q;

  // i mod SLOTS for i < 2 x SLOTS (a slot plus at most SLOTS): a
  // subtraction, not a divider.
  function automatic logic [TAG_W-1:0] slot(input logic [TAG_W:0] i);
    slot = (32'(i) >= SLOTS) ? TAG_W'(32'(i) - SLOTS) : TAG_W'(i);
  endfunction

  logic [TAG_W:0] tail;
  logic           awaited, fill, pop;

  always_comb begin
    awaited = 1'b0;
    for (int i = 0; i < SLOTS; i++) begin
      if (fill_tag_i == TAG_W'(i)) awaited = wait_q[i];
    end
  end

  assign tail        = (TAG_W+1)'(slot((TAG_W+1)'(head_q) + (TAG_W+1)'(count_q)));
  assign first_o     = slot(tail + 1'b1);
  assign free_o      = CW'(SLOTS) - count_q;
  assign fill        = fill_i && awaited;
  assign stray_o     = fill_i && !awaited;
  assign out_valid_o = count_q != '0 && !wait_q[head_q];
  assign out_flit_o  = out_valid_o ? flit_q[head_q] : '0;
  assign pop         = out_valid_o && out_ready_i;
  assign count_o     = count_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      for (int i = 0; i < SLOTS; i++) flit_q[i] <= '0;
      wait_q  <= '0;
      head_q  <= '0;
      count_q <= '0;
    end else begin
      if (fill) begin
        flit_q[fill_tag_i] <= fill_data_i;
        wait_q[fill_tag_i] <= 1'b0;
      end
      if (pop) head_q <= slot((TAG_W+1)'(head_q) + 1'b1);
      if (push_i) begin
        flit_q[TAG_W'(tail)] <= push_hdr_i;
        wait_q[TAG_W'(tail)] <= 1'b0;
        for (int i = 1; i <= MAX_LEN; i++) begin
          if (i <= 32'(push_len_i)) begin
            flit_q[slot(tail + (TAG_W+1)'(i))] <= '0;
            wait_q[slot(tail + (TAG_W+1)'(i))] <= 1'b1;
          end
        end
      end
      count_q <= count_q - CW'(pop) + (push_i ? CW'(1) + CW'(push_len_i) : '0);
    end
  end

endmodule
