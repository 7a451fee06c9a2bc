// One class path of the multicast region table (requests or responses: each
// class has its own, so that a stalled request class never blocks a
// response; ISCA 2020 in-network collectives paper, §IV, deadlock
// avoidance): the switch's ingress replication engine for that class.
//
// Intake: a packet (a header, then its data flits) takes the next of SLOTS
// packet slots, in order: the header's fields (its copies' header, stamped
// with the region the lookup found) into the slot's flops, its data flits
// into the path's buffer (rtl/t3_mem.sv, SLOTS packets of MAX_LEN flits;
// flits past MAX_LEN, a malformed packet's, are taken and not kept). A
// header needs its slot free (in_ready_o low otherwise); the flits after it
// are taken as they come.
//
// Fate: the lookup of a header (lk_*_i, on in_flit_i in the cycle it is
// taken) is registered; in the next cycle the packet's fate is decided from
// it: a drop cause, or the ports it owes a copy (docs/blocks/mcr_table.md,
// "Routing", "Drops"). The register splits the block's longest path: the
// address compares and the region's route in one cycle, the choice between
// the routes, the drop and the slot's and counters' updates in the next.
//
// Output: once the oldest packet is whole and its fate known, it sends one
// whole unicast copy per port it owes, one after the other ("ingress
// replication ... inject[ed] sequentially [into the] crossbar", §IV): a copy
// starts in a cycle where one of the ports still owed is ready (round robin
// after the last port a copy started to: "the arbiter considers the
// remaining outputs", §IV) with its header, taken in that cycle, and its
// data flits follow to the same port as it takes them. A blocked port holds
// back only its own copy. A dropped packet is retired in one cycle, nothing
// sent. out_valid_o and out_port_o at a copy's start depend on out_ready_i
// in the same cycle (the crossbar's grant); nothing else does.
//
// hw/mcr_table/mcr_table_core.cpp (decide_path, fate, apply_path) is the
// C++ model of the same cycle.
module mcr_table_path #(
  parameter int unsigned FLIT_W  = 128,
  parameter int unsigned PORTS   = 8,
  parameter int unsigned REGIONS = 8,
  parameter int unsigned MAX_LEN = 4,
  parameter int unsigned SLOTS   = 3,
  parameter bit          CLASS   = 1'b0,  // op[3] of the path's opcodes: 0 requests, 1 responses
  localparam int unsigned PORT_W  = $clog2(PORTS + 1),
  localparam int unsigned NOUT    = PORTS + 1,
  localparam int unsigned RIDX_W  = (REGIONS > 1) ? $clog2(REGIONS) : 1,
  // at least 1 bit: an out-of-range MAX_LEN = 0 reaches the top's range check
  localparam int unsigned FLITS_W = (MAX_LEN > 0) ? $clog2(MAX_LEN + 1) : 1,
  localparam int unsigned SIDX_W  = $clog2(SLOTS),
  localparam int unsigned DEPTH   = SLOTS * MAX_LEN,
  localparam int unsigned AW      = (DEPTH > 1) ? $clog2(DEPTH) : 1
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              in_valid_i,
  output logic              in_ready_o,
  input  logic [FLIT_W-1:0] in_flit_i,
  input  logic [PORT_W-1:0] in_port_i,
  output logic              out_valid_o,
  input  logic [NOUT-1:0]   out_ready_i,
  output logic [PORT_W-1:0] out_port_o,
  output logic [FLIT_W-1:0] out_flit_o,
  // The region lookup of the header on in_flit_i, in this cycle
  // (rtl/mcr_table_lookup.sv: the region it falls in and that region's route).
  input  logic              lk_hit_i,
  input  logic [RIDX_W-1:0] lk_idx_i,
  input  logic [7:0]        lk_expect_i,
  input  logic [PORT_W-1:0] lk_home_i,
  input  logic [NOUT-1:0]   lk_dest_i,
  input  logic              lk_dtype_bad_i,
  // This cycle's events, for the counters and the status: the fate of the
  // header taken in the last cycle.
  output logic              fate_o,      // decided in this cycle
  output logic [3:0]        drop_o,      // ... a drop, why (mcr::Drop); 0 kept
  output logic              hit_o,       // ... its address is in a region
  output logic [PORT_W-1:0] port_o,      // ... its ingress port
  output logic              copy_o,      // a copy starts (its header is taken)
  output logic              stall_o      // copies owed, none of their ports ready
);

  // docs/packet.md's fields and opcodes (rtl/t3_pkt_pkg.sv; named here in
  // full, as yosys takes no import into a module).
  localparam int unsigned HDR_W = t3_pkt_pkg::HDR_W;
  localparam int unsigned OP_LSB = t3_pkt_pkg::OP_LSB, OP_W = t3_pkt_pkg::OP_W;
  localparam int unsigned DST_LSB = t3_pkt_pkg::DST_LSB, DST_W = t3_pkt_pkg::DST_W;
  localparam int unsigned RGN_LSB = t3_pkt_pkg::RGN_LSB, RGN_W = t3_pkt_pkg::RGN_W;
  localparam int unsigned EXPECT_LSB = t3_pkt_pkg::EXPECT_LSB, EXPECT_W = t3_pkt_pkg::EXPECT_W;
  localparam int unsigned HOME_LSB = t3_pkt_pkg::HOME_LSB, HOME_W = t3_pkt_pkg::HOME_W;
  localparam int unsigned HIT_LSB = t3_pkt_pkg::HIT_LSB;
  localparam logic [3:0] OP_WRITE = t3_pkt_pkg::OP_WRITE, OP_READ = t3_pkt_pkg::OP_READ,
                         OP_PUSH = t3_pkt_pkg::OP_PUSH, OP_PULL = t3_pkt_pkg::OP_PULL,
                         OP_PULL_RSP = t3_pkt_pkg::OP_PULL_RSP, OP_RESULT = t3_pkt_pkg::OP_RESULT,
                         OP_PARTIAL = t3_pkt_pkg::OP_PARTIAL;
  localparam logic [2:0] MAL_NONE = t3_pkt_pkg::MAL_NONE;
  localparam logic [3:0] D_NONE = 4'd0, D_WRONG_CLASS = 4'd6, D_BAD_PORT = 4'd7,
                         D_RGN_DTYPE = 4'd8, D_NO_ROUTE = 4'd9, D_NO_DEST = 4'd10;

  // ---------------------------------------------------------------- state
  // Per slot s, at [s*W +: W] of each vector:
  logic [SLOTS-1:0]          busy_q;   // holds a packet
  logic [SLOTS-1:0]          done_q;   // all its flits are in
  logic [SLOTS-1:0]          known_q;  // its fate is decided
  logic [SLOTS*96-1:0]       hdr_q;    // its header's bits 95:0, as taken
  logic [SLOTS*RIDX_W-1:0]   rgn_q;    // the stamps (0 on a miss)
  logic [SLOTS*8-1:0]        exp_q;
  logic [SLOTS*PORT_W-1:0]   home_q;
  logic [SLOTS-1:0]          hit_q;
  logic [SLOTS*NOUT-1:0]     owed_q;   // ports owed a copy, as its fate set them (0: dropped)
  logic [NOUT-1:0]           howed_q;  // the ports slot rd_q still owes (its owed_q less the copies sent)
  logic [SLOTS*FLITS_W-1:0]  len_q;    // data flits
  logic [SIDX_W-1:0]         wr_q, rd_q;
  logic [SLOTS-1:0]          rd_oh_q;  // rd_q one-hot
  logic [SLOTS-1:0]          pend_oh_q;  // pend_slot_q one-hot
  logic [7:0]                left_q;   // data flits of the packet coming in still to come
  logic [7:0]                fill_q;   // ... taken so far
  // The lookup of the header taken in the last cycle (its fate is decided in this one).
  logic                      pend_q;
  logic [SIDX_W-1:0]         pend_slot_q;
  logic [3:0]                pk_early_q;   // docs/packet.md's checks, class, port
  logic                      pk_hit_q, pk_by_dst_q, pk_dtype_bad_q;
  logic [NOUT-1:0]           pk_rdest_q, pk_ddest_q;
  logic [PORT_W-1:0]         pk_port_q;
  // Output.
  logic                      mid_q;    // a copy's data flits are going out
  logic [PORT_W-1:0]         port_q;   // ... to this port
  logic [FLITS_W-1:0]        oidx_q;   // the data flit on the pins
  logic [PORT_W-1:0]         last_q;   // the port the last copy started to

  function automatic logic [SIDX_W-1:0] next_slot(input logic [SIDX_W-1:0] s);
    next_slot = (32'(s) == SLOTS - 1) ? '0 : s + 1'b1;
  endfunction

  // ---------------------------------------------------------------- intake
  logic at_header, take, hdr_take, data_take;
  always_comb begin
    at_header  = left_q == '0;
    in_ready_o = rst_ni && (!at_header || !busy_q[wr_q]);
    take       = in_valid_i && in_ready_o;
    hdr_take   = take && at_header;
    data_take  = take && !at_header;
  end

  // The header's checks on itself (docs/packet.md's, class, port), its data
  // flits, its route by dst.
  logic [HDR_W-1:0] h;
  logic [3:0]       op, early;
  logic [2:0]       mal;
  logic [7:0]       nflits, dst;
  logic             by_dst;
  always_comb begin
    h      = in_flit_i[HDR_W-1:0];
    op     = h[OP_LSB +: OP_W];
    dst    = h[DST_LSB +: DST_W];
    mal    = t3_pkt_pkg::pkt_check(h, 8'(MAX_LEN), $clog2(FLIT_W / 8));
    nflits = t3_pkt_pkg::data_flits(h);
    if (mal != MAL_NONE)             early = {1'b0, mal};
    else if (op[3] != CLASS)         early = D_WRONG_CLASS;
    /* verilator lint_off CMPCONST */  // constant where PORTS + 1 is a power of two
    else if (32'(in_port_i) > PORTS) early = D_BAD_PORT;
    /* verilator lint_on CMPCONST */
    else                             early = D_NONE;
    // ACK and READ_RSP go by dst in a region too; so does everything outside
    // one, and a PULL_RSP the reduction unit has reduced (to its requester).
    by_dst = !lk_hit_i || !(op == OP_WRITE || op == OP_READ || op == OP_PUSH || op == OP_PULL ||
                            op == OP_PULL_RSP || op == OP_RESULT || op == OP_PARTIAL) ||
             (op == OP_PULL_RSP && 32'(in_port_i) == PORTS);
  end

  // ---------------------------------------------------------------- fate
  logic [NOUT-1:0] dest;
  logic [3:0]      cause;
  always_comb begin
    dest = pk_by_dst_q ? pk_ddest_q : pk_rdest_q;
    if (pk_early_q != D_NONE) cause = pk_early_q;
    else if (pk_dtype_bad_q)  cause = D_RGN_DTYPE;
    else if (dest == '0)      cause = pk_by_dst_q ? D_NO_ROUTE : D_NO_DEST;
    else                      cause = D_NONE;
  end
  logic [NOUT-1:0] fate_owed;
  assign fate_owed = (cause == D_NONE) ? dest : '0;
  assign fate_o = pend_q;
  assign drop_o = pend_q ? cause : D_NONE;
  assign hit_o  = pk_hit_q;
  assign port_o = pk_port_q;

  // ---------------------------------------------------------------- output
  logic              head, retire, out_take, copy_start, head_leaves, owed_one, last_flit;
  logic [NOUT-1:0]   owed_r, cand, above, pool, lower, grant, owed_next, owed_nx;
  logic [PORT_W-1:0] pick;
  logic [FLITS_W-1:0] len_r;
  // The oldest packet's owed ports are a register of their own (howed_q),
  // not slot rd_q's read through a mux, and the small per-slot values it
  // needs are read with a one-hot copy of rd_q (rd_oh_q, few loads): the
  // copy's start, the round robin and the owed ports' update are the
  // block's longest path after the lookup.
  always_comb begin
    owed_r  = howed_q;
    len_r   = '0;
    owed_nx = '0;  // the next slot's owed ports
    head    = 1'b0;
    for (int i = 0; i < SLOTS; i++) begin
      len_r   = len_r | ({FLITS_W{rd_oh_q[i]}} & len_q[FLITS_W*i +: FLITS_W]);
      owed_nx = owed_nx | ({NOUT{rd_oh_q[i]}} & owed_q[NOUT*((i + 1) % SLOTS) +: NOUT]);
      head    = head | (rd_oh_q[i] && busy_q[i] && done_q[i] && known_q[i]);
    end
    head = head && !mid_q;
    cand = head ? owed_r & out_ready_i : '0;
    // Round robin: the first candidate after the last port served, else the
    // first; as a one-hot grant (the owed ports lose it without a decode),
    // and its number for the pins.
    for (int i = 0; i < NOUT; i++) above[i] = cand[i] && PORT_W'(i) > last_q;
    pool  = (above != '0) ? above : cand;
    lower = '0;
    for (int i = 1; i < NOUT; i++) lower[i] = lower[i-1] | pool[i-1];
    grant = pool & ~lower;
    pick  = '0;
    for (int i = 0; i < NOUT; i++) pick = pick | ({PORT_W{grant[i]}} & PORT_W'(i));
    owed_next = owed_r & ~grant;
    // One port owed: the copy that starts is the last (without the grant).
    owed_one  = owed_r != '0 && (owed_r & (owed_r - 1'b1)) == '0;
    last_flit = 32'(oidx_q) + 1 == 32'(len_r);
    retire    = rst_ni && head && owed_r == '0;
    if (mid_q) begin
      out_valid_o = rst_ni;
      out_port_o  = port_q;
      out_take    = rst_ni && out_ready_i[port_q];
    end else begin
      out_valid_o = rst_ni && cand != '0;
      out_port_o  = out_valid_o ? pick : '0;
      out_take    = out_valid_o;
    end
    copy_start = head && out_valid_o;
    stall_o    = rst_ni && head && owed_r != '0 && cand == '0;
    // The oldest packet leaves its slot at this edge.
    head_leaves = retire || (copy_start && len_r == '0 && owed_one) ||
                  (mid_q && out_take && last_flit && owed_r == '0);
  end
  assign copy_o = copy_start;

  // The buffer: slot s's data flit i at s * MAX_LEN + i.
  logic              mem_we, mem_re;
  logic [AW-1:0]     mem_waddr, mem_raddr;
  logic [FLIT_W-1:0] mem_rdata;
  always_comb begin
    mem_we    = data_take && 32'(fill_q) < MAX_LEN;
    mem_waddr = AW'(32'(wr_q) * MAX_LEN + 32'(fill_q));
    mem_re    = (copy_start && len_r != '0) || (mid_q && out_take && 32'(oidx_q) + 1 != 32'(len_r));
    mem_raddr = AW'(32'(rd_q) * MAX_LEN + (mid_q ? 32'(oidx_q) + 1 : 0));
  end
  t3_mem #(.DEPTH(DEPTH), .WIDTH(FLIT_W)) u_buf (
    .clk_i,
    .we_i    (mem_we),
    .waddr_i (mem_waddr),
    .wdata_i (in_flit_i),
    .re_i    (mem_re),
    .raddr_i (mem_raddr),
    .rdata_o (mem_rdata)
  );

  // A copy's header: bits 95:0 as taken, the switch-internal fields stamped
  // (docs/packet.md), the rest 0.
  logic [HDR_W-1:0] copy_hdr;
  always_comb begin
    copy_hdr = '0;
    copy_hdr[95:0]                   = hdr_q[96*rd_q +: 96];
    copy_hdr[RGN_LSB +: RGN_W]       = RGN_W'(rgn_q[RIDX_W*rd_q +: RIDX_W]);
    copy_hdr[EXPECT_LSB +: EXPECT_W] = exp_q[8*rd_q +: 8];
    copy_hdr[HOME_LSB +: HOME_W]     = HOME_W'(home_q[PORT_W*rd_q +: PORT_W]);
    copy_hdr[HIT_LSB]                = hit_q[rd_q];
    if (mid_q)     out_flit_o = mem_rdata;
    else if (head) out_flit_o = FLIT_W'(copy_hdr);
    else           out_flit_o = '0;
  end

  // ---------------------------------------------------------------- state
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      busy_q      <= '0;
      done_q      <= '0;
      known_q     <= '0;
      wr_q        <= '0;
      rd_q        <= '0;
      left_q      <= '0;
      fill_q      <= '0;
      pend_q      <= 1'b0;
      pend_slot_q <= '0;
      pend_oh_q   <= '0;
      rd_oh_q     <= SLOTS'(1);
      mid_q       <= 1'b0;
      port_q      <= '0;
      oidx_q      <= '0;
      howed_q     <= '0;
      last_q      <= PORT_W'(PORTS);  // port 0 first after reset
    end else begin
      // The fate of the header taken in the last cycle.
      if (pend_q) begin
        owed_q[NOUT*pend_slot_q +: NOUT] <= fate_owed;
        known_q[pend_slot_q]             <= 1'b1;
      end
      // The oldest packet's owed ports: the next slot's when the oldest
      // leaves (its fate, when that is decided in this cycle), its fate when
      // the oldest's is decided, less each copy started.
      if (head_leaves) begin
        howed_q <= (pend_q && (pend_oh_q & {rd_oh_q[SLOTS-2:0], rd_oh_q[SLOTS-1]}) != '0) ? fate_owed
                                                                                         : owed_nx;
      end else if (pend_q && (pend_oh_q & rd_oh_q) != '0) begin
        howed_q <= fate_owed;
      end else if (copy_start) begin
        howed_q <= owed_next;
      end
      // Intake.
      pend_q <= hdr_take;
      if (hdr_take) begin
        busy_q[wr_q]                   <= 1'b1;
        done_q[wr_q]                   <= nflits == '0;
        known_q[wr_q]                  <= 1'b0;
        hdr_q[96*wr_q +: 96]           <= h[95:0];
        rgn_q[RIDX_W*wr_q +: RIDX_W]   <= lk_idx_i;
        exp_q[8*wr_q +: 8]             <= lk_expect_i;
        home_q[PORT_W*wr_q +: PORT_W]  <= lk_home_i;
        hit_q[wr_q]                    <= lk_hit_i;
        len_q[FLITS_W*wr_q +: FLITS_W] <= FLITS_W'(nflits);
        pend_slot_q                    <= wr_q;
        pend_oh_q                      <= SLOTS'(1) << wr_q;
        pk_early_q                     <= early;
        pk_hit_q                       <= lk_hit_i;
        pk_by_dst_q                    <= by_dst;
        pk_dtype_bad_q                 <= lk_dtype_bad_i;
        pk_rdest_q                     <= lk_dest_i;
        pk_ddest_q                     <= (32'(dst) < PORTS) ? NOUT'(1) << dst[PORT_W-1:0] : '0;
        pk_port_q                      <= in_port_i;
        left_q                         <= nflits;
        fill_q                         <= '0;
        if (nflits == '0) wr_q <= next_slot(wr_q);
      end else if (data_take) begin
        fill_q <= fill_q + 1'b1;
        left_q <= left_q - 1'b1;
        if (left_q == 8'd1) begin
          done_q[wr_q] <= 1'b1;
          wr_q         <= next_slot(wr_q);
        end
      end
      // Output.
      if (head_leaves) begin
        busy_q[rd_q] <= 1'b0;
        rd_q         <= next_slot(rd_q);
        rd_oh_q      <= {rd_oh_q[SLOTS-2:0], rd_oh_q[SLOTS-1]};
      end
      if (copy_start) begin
        last_q <= pick;
        if (len_r != '0) begin
          mid_q  <= 1'b1;
          port_q <= pick;
          oidx_q <= '0;
        end
      end else if (mid_q && out_take) begin
        if (last_flit) mid_q <= 1'b0;
        else           oidx_q <= oidx_q + 1'b1;
      end
    end
  end

endmodule
