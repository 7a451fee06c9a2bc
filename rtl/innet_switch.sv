// An in-network reduction switch (ISCA 2020 in-network collectives paper,
// §IV): PORTS fabric ports, each with a stream per class (requests,
// responses) in and out, the flits of all ports packed on one pin per class
// and direction ([PORTS-1:0][FLIT_W-1:0]). A port's packets wait in its
// ingress queue (rtl/t3_fifo.sv) until the whole packet is in; per class a
// round robin grants whole packets into the fabric's multicast region table
// (u_mcr_in, rtl/mcr_table.sv), which sends each copy to an egress queue
// or, as port PORTS, to the reduction table (u_rt, rtl/reduction_table.sv).
// The reduction table's output goes through a second region table
// (u_mcr_out, the reduction unit its only source) to the egress queues. An
// egress queue takes a copy only where the whole packet fits, one source's
// packet at a time; the response class's two sources take turns by a token.
// One APB port reaches the three windows (rtl/innet_switch_map_pkg.sv: pages
// 0 mcr_in, 1 reduction_table, 2 mcr_out; page 3 answers PSLVERR); intr_o
// ORs the three interrupts.
//
// The C++ cycle model hw/innet_switch/innet_switch.{h,cpp} is the same
// composition; testbench/innet_switch compares the two every cycle.
// Parameters: the list is hw/innet_switch/innet_switch.yaml; the blocks
// check the ranges of their own.
module innet_switch #(
  parameter int unsigned PORTS     = 8,
  parameter int unsigned FLIT_W    = 128,
  parameter int unsigned MAX_LEN   = 4,
  parameter int unsigned REGIONS   = 8,
  parameter int unsigned SLOTS     = 3,
  parameter int unsigned ENTRIES   = 16,
  parameter int unsigned ACC32     = 0,
  parameter int unsigned TIMEOUT_W = 16,
  parameter int unsigned IN_DEPTH  = 8,
  parameter int unsigned OUT_DEPTH = 8,
  parameter int unsigned STAT_W    = 32,
  localparam int unsigned PORT_W = $clog2(PORTS + 1),
  localparam int unsigned BUS_W  = PORTS * FLIT_W
) (
  input  logic             clk_i,
  input  logic             rst_ni,

  // Registers: the three blocks' windows.
  input  logic             psel_i,
  input  logic             penable_i,
  input  logic             pwrite_i,
  input  logic [13:0]      paddr_i,
  input  logic [31:0]      pwdata_i,
  input  logic [3:0]       pstrb_i,
  output logic [31:0]      prdata_o,
  output logic             pready_o,
  output logic             pslverr_o,
  output logic             intr_o,

  // Per class, a stream in and a stream out for every port: bit p and
  // flit p (bits p*FLIT_W +: FLIT_W) are port p's.
  input  logic [PORTS-1:0] req_in_valid_i,
  output logic [PORTS-1:0] req_in_ready_o,
  input  logic [BUS_W-1:0] req_in_flit_i,
  input  logic [PORTS-1:0] rsp_in_valid_i,
  output logic [PORTS-1:0] rsp_in_ready_o,
  input  logic [BUS_W-1:0] rsp_in_flit_i,
  output logic [PORTS-1:0] req_out_valid_o,
  input  logic [PORTS-1:0] req_out_ready_i,
  output logic [BUS_W-1:0] req_out_flit_o,   // a port's flit is 0 while its valid is low
  output logic [PORTS-1:0] rsp_out_valid_o,
  input  logic [PORTS-1:0] rsp_out_ready_i,
  output logic [BUS_W-1:0] rsp_out_flit_o
);

  // The switch's own parameters (the blocks check the rest, by the same names).
  if (PORTS < 2 || PORTS > 16) begin : g_bad_ports
    $error("PORTS = %0d is out of range; allowed: 2..16", PORTS);
  end
  if (FLIT_W < 128 || FLIT_W > 256 || (FLIT_W & (FLIT_W - 1)) != 0) begin : g_bad_flit_w
    $error("FLIT_W = %0d is out of range; allowed: a power of two from 128 to 256", FLIT_W);
  end
  if (IN_DEPTH < 2 || IN_DEPTH > 64) begin : g_bad_in_depth
    $error("IN_DEPTH = %0d is out of range; allowed: 2..64", IN_DEPTH);
  end else if (IN_DEPTH < 1 + MAX_LEN) begin : g_small_in_depth
    $error("IN_DEPTH = %0d is out of range; allowed: %0d..64 (a whole packet: 1 + MAX_LEN)",
           IN_DEPTH, 1 + MAX_LEN);
  end
  if (OUT_DEPTH < 2 || OUT_DEPTH > 64) begin : g_bad_out_depth
    $error("OUT_DEPTH = %0d is out of range; allowed: 2..64", OUT_DEPTH);
  end else if (OUT_DEPTH < 1 + MAX_LEN) begin : g_small_out_depth
    $error("OUT_DEPTH = %0d is out of range; allowed: %0d..64 (a whole packet: 1 + MAX_LEN)",
           OUT_DEPTH, 1 + MAX_LEN);
  end

  localparam int unsigned HDR_W  = t3_pkt_pkg::HDR_W;
  localparam int unsigned LEN_W  = t3_pkt_pkg::LEN_W;
  localparam int unsigned PIDX_W = $clog2(PORTS);
  localparam int unsigned IC_W   = $clog2(IN_DEPTH + 1);
  localparam int unsigned OC_W   = $clog2(OUT_DEPTH + 1);
  localparam int unsigned PKT_W  = LEN_W + 1;  // a packet's flits, 1..256

  // A packet's flits from its header (docs/packet.md: pkt::wire_flits).
  function automatic logic [PKT_W-1:0] pkt_flits(input logic [HDR_W-1:0] h);
    pkt_flits = PKT_W'(t3_pkt_pkg::data_flits(h)) + 1'b1;
  endfunction
  function automatic logic [PIDX_W-1:0] next_port(input logic [PIDX_W-1:0] p);
    next_port = (32'(p) == PORTS - 1) ? '0 : p + 1'b1;
  endfunction

  // Per class (0 requests, 1 responses) and port, flat: port p of class k is
  // bit k*PORTS + p, flit k*PORTS + p (yosys reads no packed arrays of more
  // than one dimension).
  localparam int unsigned NQ = 2 * PORTS;
  logic [NQ-1:0]        in_valid, out_ready;
  logic [NQ*FLIT_W-1:0] in_flit;
  assign in_valid  = {rsp_in_valid_i, req_in_valid_i};
  assign in_flit   = {rsp_in_flit_i, req_in_flit_i};
  assign out_ready = {rsp_out_ready_i, req_out_ready_i};

  // ------------------------------------------------------------- registers
  localparam int N_WIN = innet_switch_map_pkg::N_WIN;
  localparam int unsigned W_MI = innet_switch_map_pkg::WIN_MCR_IN;
  localparam int unsigned W_RT = innet_switch_map_pkg::WIN_REDUCTION_TABLE;
  localparam int unsigned W_MO = innet_switch_map_pkg::WIN_MCR_OUT;
  logic [N_WIN-1:0] win_hit, win_sel;
  logic [N_WIN*32-1:0] prdata;  // window w's at [w*32 +: 32]
  logic [N_WIN-1:0] pready, pslverr, intr;
  assign win_hit = innet_switch_map_pkg::win_of(paddr_i[13:12]);
  assign win_sel = psel_i ? win_hit : '0;

  // --------------------------------------------------------------- ingress
  logic [NQ-1:0]        iq_valid, iq_full, iq_pop, complete;
  logic [NQ*FLIT_W-1:0] iq_head;
  for (genvar q = 0; q < NQ; q++) begin : g_iq
    logic [IC_W-1:0] count;
    t3_fifo #(.DEPTH(IN_DEPTH), .WIDTH(FLIT_W)) u_q (
      .clk_i, .rst_ni,
      .push_i(rst_ni && in_valid[q] && !iq_full[q]), .wdata_i(in_flit[q*FLIT_W +: FLIT_W]),
      .pop_i(iq_pop[q]),
      .valid_o(iq_valid[q]), .rdata_o(iq_head[q*FLIT_W +: FLIT_W]), .full_o(iq_full[q]),
      .count_o(count)
    );
    // The head packet is all in, or the queue is full (a longer one, which
    // the table drops, goes through as it comes).
    assign complete[q] = iq_valid[q] &&
        (32'(count) >= 32'(pkt_flits(iq_head[q*FLIT_W +: HDR_W])) || iq_full[q]);
  end
  // Nothing taken or given in a reset cycle.
  assign {rsp_in_ready_o, req_in_ready_o} = rst_ni ? ~iq_full : '0;

  // The grants into mcr_in: the locked port, else the first port from rr
  // whose head packet is all in; locked from the header's first offer to the
  // packet's last flit taken (left: its flits not yet taken).
  logic [1:0]          offer, take, mi_in_ready;
  logic [2*PIDX_W-1:0] offer_port;
  logic [2*FLIT_W-1:0] offer_flit;
  for (genvar k = 0; k < 2; k++) begin : g_arb
    logic              lock_q, any;
    logic [PIDX_W-1:0] port_q, rr_q, pick, port;
    logic [PKT_W-1:0]  left_q, len;
    always_comb begin
      any  = 1'b0;
      pick = '0;
      // From the last to the first: the first from rr wins.
      for (int i = PORTS - 1; i >= 0; i--) begin
        if (complete[k*PORTS + (32'(rr_q) + 32'(i)) % PORTS]) begin
          any  = 1'b1;
          pick = PIDX_W'((32'(rr_q) + 32'(i)) % PORTS);
        end
      end
    end
    assign port     = lock_q ? port_q : pick;
    assign offer[k] = lock_q ? iq_valid[k*PORTS + 32'(port_q)] : any;
    assign offer_port[k*PIDX_W +: PIDX_W] = port;
    assign offer_flit[k*FLIT_W +: FLIT_W] =
        offer[k] ? iq_head[(k*PORTS + 32'(port))*FLIT_W +: FLIT_W] : '0;
    assign len     = (offer[k] && !lock_q) ? pkt_flits(offer_flit[k*FLIT_W +: HDR_W]) : '0;
    assign take[k] = offer[k] && mi_in_ready[k];
    for (genvar p = 0; p < PORTS; p++) begin : g_pop
      assign iq_pop[k*PORTS + p] = take[k] && 32'(port) == p;
    end
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        lock_q <= 1'b0;
        port_q <= '0;
        left_q <= '0;
        rr_q   <= '0;
      end else if (!lock_q) begin
        if (offer[k]) begin
          if (len - PKT_W'(take[k]) == '0) begin
            rr_q <= next_port(port);
          end else begin
            lock_q <= 1'b1;
            port_q <= port;
            left_q <= len - PKT_W'(take[k]);
          end
        end
      end else if (take[k]) begin
        left_q <= left_q - 1'b1;
        if (left_q == PKT_W'(1)) begin
          lock_q <= 1'b0;
          rr_q   <= next_port(port_q);
        end
      end
    end
  end

  // ---------------------------------------------------------------- egress
  // Who fills an egress queue: 0 none, 1 mcr_in, 2 mcr_out (responses).
  localparam logic [1:0] S_NONE = 2'd0, S_IN = 2'd1, S_OUT = 2'd2;
  logic [NQ-1:0]        oq_valid, rdy_in;
  logic [PORTS-1:0]     rdy_out;
  logic [NQ*FLIT_W-1:0] oq_head;
  logic [1:0]           mi_valid;
  logic [2*PORT_W-1:0]  mi_port;
  logic [2*FLIT_W-1:0]  mi_flit;
  logic                 mo_valid;
  logic [PORT_W-1:0]    mo_port;
  logic [FLIT_W-1:0]    mo_flit;

  for (genvar k = 0; k < 2; k++) begin : g_eg_class
    for (genvar p = 0; p < PORTS; p++) begin : g_eg
      localparam int unsigned Q = k * PORTS + p;
      logic [1:0]       own_q;
      logic [LEN_W-1:0] left_q;
      logic             tok_q;  // responses: 0 mcr_in's turn, 1 mcr_out's
      logic [OC_W-1:0]  count;
      logic             full, room_hdr, from_in, from_out, push, pop;
      logic [FLIT_W-1:0] wdata;
      // The readies to the two region tables (from registers: a table's
      // copy starts to a port that is ready in the same cycle). A copy starts
      // only where its whole packet fits, from the source whose turn it is;
      // the rest of a packet only from its source.
      assign room_hdr = 32'(OUT_DEPTH) - 32'(count) >= 1 + MAX_LEN;
      assign rdy_in[Q] = (own_q != S_NONE) ? own_q == S_IN && !full
                                           : (k == 0 || !tok_q) && room_hdr;
      if (k == 1) begin : g_out_rdy
        assign rdy_out[p] = (own_q != S_NONE) ? own_q == S_OUT && !full : tok_q && room_hdr;
        assign from_out   = mo_valid && 32'(mo_port) == p && rdy_out[p];
      end else begin : g_no_out
        assign from_out = 1'b0;
      end
      assign from_in = mi_valid[k] && 32'(mi_port[k*PORT_W +: PORT_W]) == p && rdy_in[Q];
      assign push    = from_in || from_out;
      assign wdata   = from_in ? mi_flit[k*FLIT_W +: FLIT_W] : mo_flit;
      assign pop     = rst_ni && oq_valid[Q] && out_ready[Q];
      t3_fifo #(.DEPTH(OUT_DEPTH), .WIDTH(FLIT_W)) u_q (
        .clk_i, .rst_ni,
        .push_i(push), .wdata_i(wdata), .pop_i(pop),
        .valid_o(oq_valid[Q]), .rdata_o(oq_head[Q*FLIT_W +: FLIT_W]), .full_o(full),
        .count_o(count)
      );
      always_ff @(posedge clk_i) begin
        if (!rst_ni) begin
          own_q  <= S_NONE;
          left_q <= '0;
          tok_q  <= 1'b0;
        end else begin
          if (push) begin
            if (own_q == S_NONE) begin
              if (t3_pkt_pkg::data_flits(wdata[HDR_W-1:0]) != '0) begin
                own_q  <= from_in ? S_IN : S_OUT;
                left_q <= t3_pkt_pkg::data_flits(wdata[HDR_W-1:0]);
              end
            end else begin
              left_q <= left_q - 1'b1;
              if (left_q == LEN_W'(1)) own_q <= S_NONE;
            end
          end
          // The response class's sources take turns at starting a packet: the
          // turn passes in every cycle the queue is between packets with room
          // for one (as the model says why).
          if (k == 1 && own_q == S_NONE && room_hdr) tok_q <= !tok_q;
        end
      end
    end
  end
  for (genvar p = 0; p < PORTS; p++) begin : g_out
    assign req_out_flit_o[p*FLIT_W +: FLIT_W] =
        rst_ni && oq_valid[p] ? oq_head[p*FLIT_W +: FLIT_W] : '0;
    assign rsp_out_flit_o[p*FLIT_W +: FLIT_W] =
        rst_ni && oq_valid[PORTS + p] ? oq_head[(PORTS + p)*FLIT_W +: FLIT_W] : '0;
  end
  assign {rsp_out_valid_o, req_out_valid_o} = rst_ni ? oq_valid : '0;

  // ---------------------------------------------------------------- blocks
  logic              rt_req_ready, rt_rsp_ready, rt_out_valid, mo_in_ready;
  logic [FLIT_W-1:0] rt_out_flit;

  /* verilator lint_off PINCONNECTEMPTY */
  mcr_table #(
    .FLIT_W(FLIT_W), .PORTS(PORTS), .REGIONS(REGIONS), .MAX_LEN(MAX_LEN), .SLOTS(SLOTS),
    .STAT_W(STAT_W)
  ) u_mcr_in (
    .clk_i, .rst_ni,
    .psel_i(win_sel[W_MI]), .penable_i, .pwrite_i, .paddr_i(paddr_i[11:0]),
    .pwdata_i, .pstrb_i, .prdata_o(prdata[W_MI*32 +: 32]), .pready_o(pready[W_MI]),
    .pslverr_o(pslverr[W_MI]), .intr_o(intr[W_MI]),
    .req_in_valid_i(offer[0]), .req_in_ready_o(mi_in_ready[0]),
    .req_in_flit_i(offer_flit[0 +: FLIT_W]), .req_in_port_i(PORT_W'(offer_port[0 +: PIDX_W])),
    .rsp_in_valid_i(offer[1]), .rsp_in_ready_o(mi_in_ready[1]),
    .rsp_in_flit_i(offer_flit[FLIT_W +: FLIT_W]), .rsp_in_port_i(PORT_W'(offer_port[PIDX_W +: PIDX_W])),
    .req_out_valid_o(mi_valid[0]), .req_out_ready_i({rt_req_ready, rdy_in[0 +: PORTS]}),
    .req_out_port_o(mi_port[0 +: PORT_W]), .req_out_flit_o(mi_flit[0 +: FLIT_W]),
    .rsp_out_valid_o(mi_valid[1]), .rsp_out_ready_i({rt_rsp_ready, rdy_in[PORTS +: PORTS]}),
    .rsp_out_port_o(mi_port[PORT_W +: PORT_W]), .rsp_out_flit_o(mi_flit[FLIT_W +: FLIT_W]),
    .stat_mcast_o(), .stat_miss_o(), .stat_copies_o(), .stat_stall_o(), .stat_refused_o(),
    .stat_malformed_o(), .stat_noroute_o()
  );

  reduction_table #(
    .FLIT_W(FLIT_W), .ENTRIES(ENTRIES), .MAX_LEN(MAX_LEN), .ACC32(ACC32), .TIMEOUT_W(TIMEOUT_W),
    .STAT_W(STAT_W)
  ) u_rt (
    .clk_i, .rst_ni,
    .psel_i(win_sel[W_RT]), .penable_i, .pwrite_i, .paddr_i(paddr_i[11:0]),
    .pwdata_i, .pstrb_i, .prdata_o(prdata[W_RT*32 +: 32]), .pready_o(pready[W_RT]),
    .pslverr_o(pslverr[W_RT]), .intr_o(intr[W_RT]),
    .req_in_valid_i(mi_valid[0] && 32'(mi_port[0 +: PORT_W]) == PORTS),
    .req_in_ready_o(rt_req_ready), .req_in_flit_i(mi_flit[0 +: FLIT_W]),
    .rsp_in_valid_i(mi_valid[1] && 32'(mi_port[PORT_W +: PORT_W]) == PORTS),
    .rsp_in_ready_o(rt_rsp_ready), .rsp_in_flit_i(mi_flit[FLIT_W +: FLIT_W]),
    .out_valid_o(rt_out_valid), .out_ready_i(mo_in_ready), .out_flit_o(rt_out_flit),
    .stat_alloc_o(), .stat_hits_o(), .stat_completions_o(), .stat_evict_lru_o(),
    .stat_evict_timeout_o(), .stat_stall_req_o(), .stat_stall_rsp_o(), .stat_bypasses_o(),
    .stat_pull_passed_o(), .stat_malformed_o(), .stat_refused_o(), .stat_hwm_o()
  );

  mcr_table #(
    .FLIT_W(FLIT_W), .PORTS(PORTS), .REGIONS(REGIONS), .MAX_LEN(MAX_LEN), .SLOTS(SLOTS),
    .STAT_W(STAT_W)
  ) u_mcr_out (
    .clk_i, .rst_ni,
    .psel_i(win_sel[W_MO]), .penable_i, .pwrite_i, .paddr_i(paddr_i[11:0]),
    .pwdata_i, .pstrb_i, .prdata_o(prdata[W_MO*32 +: 32]), .pready_o(pready[W_MO]),
    .pslverr_o(pslverr[W_MO]), .intr_o(intr[W_MO]),
    .req_in_valid_i(1'b0), .req_in_ready_o(), .req_in_flit_i('0), .req_in_port_i('0),
    .rsp_in_valid_i(rt_out_valid), .rsp_in_ready_o(mo_in_ready), .rsp_in_flit_i(rt_out_flit),
    .rsp_in_port_i(PORT_W'(PORTS)),
    .req_out_valid_o(), .req_out_ready_i('0), .req_out_port_o(), .req_out_flit_o(),
    .rsp_out_valid_o(mo_valid), .rsp_out_ready_i({1'b0, rdy_out}),
    .rsp_out_port_o(mo_port), .rsp_out_flit_o(mo_flit),
    .stat_mcast_o(), .stat_miss_o(), .stat_copies_o(), .stat_stall_o(), .stat_refused_o(),
    .stat_malformed_o(), .stat_noroute_o()
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // ------------------------------------------------------------- outputs
  t3_apb_mux #(.N_WIN(N_WIN)) u_apb_mux (
    .psel_i, .penable_i, .win_hit_i(win_hit), .prdata_i(prdata), .pready_i(pready),
    .pslverr_i(pslverr), .intr_i(intr), .prdata_o, .pready_o, .pslverr_o, .intr_o
  );

endmodule
