// The endpoint's output queue (docs/blocks/innet_endpoint.md, "The output
// queue"): a ring of SLOTS flits in packet order, shared by ep_tx (the
// request class) and ep_rspq (the response class). The C++ model of the
// same logic is hw/ep_tx/ep_outq.{h,cpp}.
//
// A packet is pushed in one cycle: its header, ready at once, and push_len_i
// (at most MAX_LEN, the owner's duty) empty data slots after it; the
// engines read each data flit from the memory tagged with its slot (the
// first is first_o in the push's cycle), and an answer on one of FILLS fill
// ports fills the slot it names if that slot awaits one, in any order. An
// answer for a slot that awaits none, or one a lower fill port filled in
// the cycle, is a stray (stray_o), written nowhere. The head leaves when it
// is there, so a packet's flits leave in order. A packet pushed with
// push_hold_i keeps its last flit until a release (rel_i, one per such
// packet, in order; one with no such packet in the queue is rel_stray_o).
// The slots are flops, not rtl/t3_mem.sv: a cycle writes a header, up to
// MAX_LEN empty data slots and FILLS answers at once.
module ep_outq #(
  parameter int unsigned FLIT_W  = 128,
  parameter int unsigned MAX_LEN = 4,
  parameter int unsigned SLOTS   = 10,
  parameter int unsigned FILLS   = 1,
  localparam int unsigned TAG_W = $clog2(SLOTS),
  localparam int unsigned LEN_W = $clog2(MAX_LEN + 1),
  localparam int unsigned CW    = $clog2(SLOTS + 1)
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  // a packet: its header and push_len_i empty data slots
  input  logic                    push_i,
  input  logic [FLIT_W-1:0]       push_hdr_i,
  input  logic [LEN_W-1:0]        push_len_i,
  input  logic                    push_hold_i,  // its last flit waits for a release
  output logic [TAG_W-1:0]        first_o,      // the slot after the header a push writes now
  output logic [CW-1:0]           free_o,       // a flit leaving now is not counted free
  // a held packet's release
  input  logic                    rel_i,
  output logic                    rel_stray_o,
  // the memory's answers, by slot
  input  logic [FILLS-1:0]        fill_i,
  input  logic [TAG_W*FILLS-1:0]  fill_tag_i,
  input  logic [FLIT_W*FILLS-1:0] fill_data_i,
  output logic [FILLS-1:0]        stray_o,
  // the stream out
  output logic                    out_valid_o,
  input  logic                    out_ready_i,
  output logic [FLIT_W-1:0]       out_flit_o,
  output logic [CW-1:0]           count_o
);

  // A packet of MAX_LEN data flits must fit, or it would never be pushed.
  if (SLOTS < 1 + MAX_LEN || SLOTS > 64) begin : g_bad_slots
    $error("SLOTS = %0d is out of range; allowed: 1 + MAX_LEN (%0d) .. 64", SLOTS, 1 + MAX_LEN);
  end
  if (FILLS < 1 || FILLS > 2) begin : g_bad_fills
    $error("FILLS = %0d is out of range; allowed: 1..2", FILLS);
  end

  logic [FLIT_W-1:0] flit_q [SLOTS];
  logic [SLOTS-1:0]  wait_q;  // a data slot pushed and not yet filled
  logic [SLOTS-1:0]  held_q;  // a held packet's last slot
  logic [TAG_W-1:0]  head_q;
  logic [CW-1:0]     count_q;
  logic [CW-1:0]     held_n_q, rel_n_q;  // held packets in the queue; releases not yet used

  // i mod SLOTS for i < 2 x SLOTS (a slot plus at most SLOTS): a
  // subtraction, not a divider.
  function automatic logic [TAG_W-1:0] slot(input logic [TAG_W:0] i);
    slot = (32'(i) >= SLOTS) ? TAG_W'(32'(i) - SLOTS) : TAG_W'(i);
  endfunction

  logic [TAG_W:0]   tail;
  logic [FILLS-1:0] fill;
  logic             pop, rel_ok, pop_held;

  // An answer fills its slot if the slot awaits one and no lower port
  // fills it in this cycle.
  always_comb begin
    for (int f = 0; f < FILLS; f++) begin
      fill[f] = 1'b0;
      for (int i = 0; i < SLOTS; i++) begin
        if (fill_tag_i[TAG_W*f +: TAG_W] == TAG_W'(i)) fill[f] = fill_i[f] && wait_q[i];
      end
      for (int g = 0; g < f; g++) begin
        if (fill[g] && fill_tag_i[TAG_W*g +: TAG_W] == fill_tag_i[TAG_W*f +: TAG_W]) fill[f] = 1'b0;
      end
    end
  end

  assign tail        = (TAG_W+1)'(slot((TAG_W+1)'(head_q) + (TAG_W+1)'(count_q)));
  assign first_o     = slot(tail + 1'b1);
  assign free_o      = CW'(SLOTS) - count_q;
  assign stray_o     = fill_i & ~fill;
  assign out_valid_o = count_q != '0 && !wait_q[head_q] && (!held_q[head_q] || rel_n_q != '0);
  assign out_flit_o  = out_valid_o ? flit_q[head_q] : '0;
  assign pop         = out_valid_o && out_ready_i;
  assign pop_held    = pop && held_q[head_q];
  assign rel_ok      = rel_i && rel_n_q < held_n_q;
  assign rel_stray_o = rel_i && !rel_ok;
  assign count_o     = count_q;

  // The flits need no reset: a slot is written when pushed, before it is read.
  always_ff @(posedge clk_i) begin
    for (int f = 0; f < FILLS; f++) begin
      if (fill[f]) flit_q[fill_tag_i[TAG_W*f +: TAG_W]] <= fill_data_i[FLIT_W*f +: FLIT_W];
    end
    if (rst_ni && push_i) begin
      flit_q[TAG_W'(tail)] <= push_hdr_i;
      for (int i = 1; i <= MAX_LEN; i++) begin
        if (i <= 32'(push_len_i)) flit_q[slot(tail + (TAG_W+1)'(i))] <= '0;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      wait_q   <= '0;
      held_q   <= '0;
      head_q   <= '0;
      count_q  <= '0;
      held_n_q <= '0;
      rel_n_q  <= '0;
    end else begin
      for (int f = 0; f < FILLS; f++) begin
        if (fill[f]) wait_q[fill_tag_i[TAG_W*f +: TAG_W]] <= 1'b0;
      end
      if (pop) head_q <= slot((TAG_W+1)'(head_q) + 1'b1);
      if (push_i) begin
        wait_q[TAG_W'(tail)] <= 1'b0;
        held_q[TAG_W'(tail)] <= push_hold_i && push_len_i == '0;
        for (int i = 1; i <= MAX_LEN; i++) begin
          if (i <= 32'(push_len_i)) begin
            wait_q[slot(tail + (TAG_W+1)'(i))] <= 1'b1;
            held_q[slot(tail + (TAG_W+1)'(i))] <= push_hold_i && i == 32'(push_len_i);
          end
        end
      end
      count_q  <= count_q - CW'(pop) + (push_i ? CW'(1) + CW'(push_len_i) : '0);
      held_n_q <= held_n_q - CW'(pop_held) + CW'(push_i && push_hold_i);
      rel_n_q  <= rel_n_q - CW'(pop_held) + CW'(rel_ok);
    end
  end

endmodule
