// One class path of the multicast region table (requests or responses: each
// class has its own, so that a stalled request class never blocks a
// response; ISCA 2020 in-network collectives paper, §IV, deadlock
// avoidance): the switch's ingress replication engine for that class.
//
// Intake: a packet (a header, then its data flits) goes into one of two
// packet slots: the header's fields into the slot's flops, the data flits
// into the path's buffer (rtl/t3_mem.sv, two packets of MAX_LEN flits). The
// header's fate is decided in the cycle it is taken, on this cycle's lookup
// of its address (lk_*_i): a malformed packet or one with no destination is
// dropped whole (its flits taken and not stored), any other gets its slot,
// its destination ports and its copies' stamped header. A header needs a
// free slot (in_ready_o low otherwise); the flits after it are taken as they
// come.
//
// Output: once a slot holds its whole packet (store and forward), it sends
// one whole unicast copy per destination port, one after the other ("ingress
// replication ... inject[ed] sequentially [into the] crossbar", §IV): a copy
// starts in a cycle where one of the ports still owed is ready (round robin
// after the last port a copy started to: "the arbiter considers the
// remaining outputs", §IV) with its header, taken in that cycle, and its
// data flits follow to the same port as it takes them. A blocked port holds
// back only its own copy: the others go first. out_valid_o and out_port_o at
// a copy's start depend on out_ready_i in the same cycle (the crossbar's
// grant); nothing else on the output side does.
//
// hw/mcr_table/mcr_table_core.cpp (decide_path, classify, apply_path) is the
// C++ model of the same cycle.
module mcr_table_path
  import t3_pkt_pkg::*;
#(
  parameter int unsigned FLIT_W  = 128,
  parameter int unsigned PORTS   = 8,
  parameter int unsigned REGIONS = 8,
  parameter int unsigned MAX_LEN = 4,
  parameter bit          CLASS   = 1'b0,  // op[3] of the path's opcodes: 0 requests, 1 responses
  localparam int unsigned PORT_W = $clog2(PORTS + 1),
  localparam int unsigned NOUT   = PORTS + 1,
  localparam int unsigned RIDX_W = (REGIONS > 1) ? $clog2(REGIONS) : 1,
  localparam int unsigned FLITS_W  = $clog2(MAX_LEN + 1),
  localparam int unsigned DEPTH  = 2 * MAX_LEN,
  localparam int unsigned AW     = (DEPTH > 1) ? $clog2(DEPTH) : 1
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
  // The region lookup of in_flit_i's address (a header's), in this cycle.
  input  logic              lk_hit_i,
  input  logic [RIDX_W-1:0] lk_idx_i,
  input  logic [PORTS-1:0]  lk_ports_i,
  input  logic [7:0]        lk_expect_i,
  input  logic [PORT_W-1:0] lk_home_i,
  input  logic              lk_root_i,
  input  logic [1:0]        lk_dtype_i,
  // This cycle's events, for the counters and the status.
  output logic              hdr_o,    // a header is taken
  output logic [3:0]        drop_o,   // ... and dropped, why (mcr::Drop); 0 kept
  output logic              hit_o,    // ... its address is in a region
  output logic              copy_o,   // a copy starts (its header is taken)
  output logic              stall_o   // copies owed, none of their ports ready
);

  localparam logic [1:0] S_FREE = 2'd0, S_FILL = 2'd1, S_FULL = 2'd2;
  localparam logic [3:0] D_NONE = 4'd0, D_WRONG_CLASS = 4'd6, D_BAD_PORT = 4'd7,
                         D_RGN_DTYPE = 4'd8, D_NO_ROUTE = 4'd9, D_NO_DEST = 4'd10;
  localparam logic [NOUT-1:0] UNIT = NOUT'(1) << PORTS;  // the reduction unit

  // ---------------------------------------------------------------- state
  logic [1:0][1:0]        st_q;     // per slot: free, filling, full
  logic [1:0][95:0]       hdr_q;    // the header's bits 95:0, as taken
  logic [1:0][RIDX_W-1:0] rgn_q;    // the stamps (0 on a miss)
  logic [1:0][7:0]        exp_q;
  logic [1:0][PORT_W-1:0] home_q;
  logic [1:0]             hit_q;
  logic [1:0][NOUT-1:0]   owed_q;   // ports still owed a copy
  logic [1:0][FLITS_W-1:0]  len_q;    // data flits
  logic                   wr_q, rd_q;
  logic                   disc_q;   // dropping a packet's data flits
  logic [7:0]             disc_left_q;
  logic [FLITS_W-1:0]       fill_q;   // data flits of slot wr_q taken
  logic                   mid_q;    // a copy's data flits are going out
  logic [PORT_W-1:0]      port_q;   // ... to this port
  logic [FLITS_W-1:0]       oidx_q;   // the data flit on the pins
  logic [PORT_W-1:0]      last_q;   // the port the last copy started to

  // ---------------------------------------------------------------- intake
  logic take, disc_take, hdr_take, data_take;
  always_comb begin
    in_ready_o = rst_ni && (disc_q || st_q[wr_q] != S_FULL);
    take       = in_valid_i && in_ready_o;
    disc_take  = take && disc_q;
    hdr_take   = take && !disc_q && st_q[wr_q] == S_FREE;
    data_take  = take && !disc_q && st_q[wr_q] == S_FILL;
  end

  // The header's fate (docs/blocks/mcr_table.md, "Routing" and "Drops"):
  // docs/packet.md's checks, then the block's own, then the routing rules.
  logic [HDR_W-1:0] h;
  logic [3:0]       op;
  logic [2:0]       mal;
  logic [7:0]       nflits, dst;
  logic [NOUT-1:0]  self, dest;
  logic             by_dst;
  logic [3:0]       cause;
  always_comb begin
    h      = in_flit_i[HDR_W-1:0];
    op     = h[OP_LSB +: OP_W];
    dst    = h[DST_LSB +: DST_W];
    mal    = pkt_check(h, 8'(MAX_LEN), $clog2(FLIT_W / 8));
    nflits = data_flits(h);
    self   = NOUT'(1) << in_port_i;
    by_dst = !lk_hit_i;
    dest   = '0;
    if (lk_hit_i) begin
      case (op)
        OP_WRITE, OP_RESULT: dest = {1'b0, lk_ports_i} & ~self;  // every participant but the source
        OP_READ:             dest = self;                         // the local GPU's memory (§IV)
        OP_PUSH:             dest = lk_root_i ? UNIT : NOUT'(1) << lk_home_i;
        OP_PULL:             dest = ({1'b0, lk_ports_i} & ~self) | UNIT;
        OP_PULL_RSP:         dest = UNIT;                         // reduced on its way back
        OP_PARTIAL:          dest = NOUT'(1) << lk_home_i;        // to the home GPU
        default:             by_dst = 1'b1;                       // READ_RSP, ACK
      endcase
    end
    if (by_dst) dest = (32'(dst) < PORTS) ? NOUT'(1) << dst[PORT_W-1:0] : '0;
    if (mal != MAL_NONE)                                   cause = {1'b0, mal};
    else if (op[3] != CLASS)                               cause = D_WRONG_CLASS;
    else if (32'(in_port_i) > PORTS)                       cause = D_BAD_PORT;
    else if (lk_hit_i && is_reduction(op) && h[DTYPE_LSB +: DTYPE_W] != lk_dtype_i)
                                                           cause = D_RGN_DTYPE;
    else if (dest == '0)                                   cause = by_dst ? D_NO_ROUTE : D_NO_DEST;
    else                                                   cause = D_NONE;
  end

  assign hdr_o  = hdr_take;
  assign drop_o = hdr_take ? cause : D_NONE;
  assign hit_o  = lk_hit_i;

  // ---------------------------------------------------------------- output
  logic [1:0]       st_r;
  logic [NOUT-1:0]  owed_r, cand, above, pool, owed_next;
  logic             boundary, out_take, copy_start;
  logic [PORT_W-1:0] pick;
  always_comb begin
    st_r     = st_q[rd_q];
    owed_r   = owed_q[rd_q];
    boundary = !mid_q && st_r == S_FULL;
    cand     = boundary ? owed_r & out_ready_i : '0;
    // Round robin: the first candidate after the last port served, else the first.
    for (int i = 0; i < NOUT; i++) above[i] = cand[i] && PORT_W'(i) > last_q;
    pool = (above != '0) ? above : cand;
    pick = '0;
    for (int i = NOUT - 1; i >= 0; i--) if (pool[i]) pick = PORT_W'(i);
    owed_next = owed_r & ~(NOUT'(1) << pick);
    if (mid_q) begin
      out_valid_o = rst_ni;
      out_port_o  = port_q;
      out_take    = rst_ni && out_ready_i[port_q];
    end else begin
      out_valid_o = rst_ni && cand != '0;
      out_port_o  = out_valid_o ? pick : '0;
      out_take    = out_valid_o;
    end
    copy_start = boundary && out_valid_o;
    stall_o    = rst_ni && boundary && cand == '0;
  end
  assign copy_o = copy_start;

  // The buffer: slot s's data flit i at s * MAX_LEN + i.
  logic              mem_we, mem_re;
  logic [AW-1:0]     mem_waddr, mem_raddr;
  logic [FLIT_W-1:0] mem_rdata;
  always_comb begin
    mem_we    = data_take;
    mem_waddr = AW'(wr_q ? MAX_LEN : 0) + AW'(fill_q);
    mem_re    = (copy_start && len_q[rd_q] != '0) ||
                (mid_q && out_take && 32'(oidx_q) + 1 != 32'(len_q[rd_q]));
    mem_raddr = AW'(rd_q ? MAX_LEN : 0) + (mid_q ? AW'(oidx_q) + AW'(1) : AW'(0));
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
    copy_hdr[95:0]                    = hdr_q[rd_q];
    copy_hdr[RGN_LSB +: RGN_W]        = RGN_W'(rgn_q[rd_q]);
    copy_hdr[EXPECT_LSB +: EXPECT_W]  = exp_q[rd_q];
    copy_hdr[HOME_LSB +: HOME_W]      = HOME_W'(home_q[rd_q]);
    copy_hdr[HIT_LSB]                 = hit_q[rd_q];
    if (mid_q)                 out_flit_o = mem_rdata;
    else if (st_r == S_FULL)   out_flit_o = FLIT_W'(copy_hdr);
    else                       out_flit_o = '0;
  end

  // ---------------------------------------------------------------- state
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q        <= '0;
      wr_q        <= 1'b0;
      rd_q        <= 1'b0;
      disc_q      <= 1'b0;
      disc_left_q <= '0;
      fill_q      <= '0;
      mid_q       <= 1'b0;
      port_q      <= '0;
      oidx_q      <= '0;
      last_q      <= PORT_W'(PORTS);  // port 0 first after reset
    end else begin
      // Intake.
      if (hdr_take) begin
        if (cause != D_NONE) begin
          disc_q      <= nflits != '0;
          disc_left_q <= nflits;
        end else begin
          hdr_q[wr_q]  <= h[95:0];
          rgn_q[wr_q]  <= lk_idx_i;
          exp_q[wr_q]  <= lk_expect_i;
          home_q[wr_q] <= lk_home_i;
          hit_q[wr_q]  <= lk_hit_i;
          owed_q[wr_q] <= dest;
          len_q[wr_q]  <= FLITS_W'(nflits);
          fill_q       <= '0;
          st_q[wr_q]   <= (nflits != '0) ? S_FILL : S_FULL;
          if (nflits == '0) wr_q <= !wr_q;
        end
      end else if (data_take) begin
        if (fill_q + 1'b1 == len_q[wr_q]) begin
          st_q[wr_q] <= S_FULL;
          wr_q       <= !wr_q;
        end else begin
          fill_q <= fill_q + 1'b1;
        end
      end else if (disc_take) begin
        disc_left_q <= disc_left_q - 1'b1;
        if (disc_left_q == 8'd1) disc_q <= 1'b0;
      end
      // Output.
      if (copy_start) begin
        owed_q[rd_q] <= owed_next;
        last_q       <= pick;
        if (len_q[rd_q] != '0) begin
          mid_q  <= 1'b1;
          port_q <= pick;
          oidx_q <= '0;
        end else if (owed_next == '0) begin
          st_q[rd_q] <= S_FREE;
          rd_q       <= !rd_q;
        end
      end else if (mid_q && out_take) begin
        if (oidx_q + 1'b1 == len_q[rd_q]) begin
          mid_q <= 1'b0;
          if (owed_r == '0) begin
            st_q[rd_q] <= S_FREE;
            rd_q       <= !rd_q;
          end
        end else begin
          oidx_q <= oidx_q + 1'b1;
        end
      end
    end
  end

endmodule
