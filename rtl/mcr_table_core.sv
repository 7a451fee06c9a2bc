// Multicast region (MCR) table of one switch (ISCA 2020 in-network
// collectives paper, §IV): "the fabric manager initializes [the] MCR[s in
// the] switch[es] (multicast address [range], target IDs)"; "[when a]
// packet arrives [at a] switch [and its] address belongs [to an] MCR, ...
// [the] packet [is] replicate[d to the] destination[s] accord[ing to the]
// target ID[s], [the] source [of the] packet exclude[d]"; a load to a region
// goes to the local GPU's memory. docs/blocks/mcr_table.md is the page.
//
// The table: REGIONS entries of flops (valid, base, log2 of the size, the
// participating ports, the contributions expected, the home port, the root
// bit, the element type). Flops, not rtl/t3_mem.sv: every region's base and
// size is compared with two addresses (one per class path) in every cycle,
// and the attributes of the region that matches are read in that same
// cycle. A region command (the W1P pulse of RGN_CMD) is checked against the
// staged fields and the whole table in the cycle of its pulse and, unless
// refused, changes one entry at the next edge; a header taken before that
// edge is looked up in the table as it was before.
//
// Two class paths (rtl/mcr_table_path.sv), requests and responses, each its
// own ingress replication engine with its own lookup; the counters, the
// command and the last drop are here.
//
// hw/mcr_table/mcr_table_core.{h,cpp} is the C++ model of the same core;
// rtl/mcr_table.sv (generated) puts it behind its registers.
module mcr_table_core #(
  parameter int unsigned FLIT_W  = 128,  // a power of two from 128 to 512
  parameter int unsigned PORTS   = 8,    // 2..32
  parameter int unsigned REGIONS = 8,    // 1..64
  parameter int unsigned MAX_LEN = 4,    // 1..16
  parameter int unsigned SLOTS   = 3,    // 2..8
  parameter int unsigned STAT_W  = 32,   // 1..32
  localparam int unsigned PORT_W = $clog2(PORTS + 1),
  localparam int unsigned NOUT   = PORTS + 1
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // Requests.
  input  logic              req_in_valid_i,
  output logic              req_in_ready_o,
  input  logic [FLIT_W-1:0] req_in_flit_i,
  input  logic [PORT_W-1:0] req_in_port_i,
  output logic              req_out_valid_o,
  input  logic [NOUT-1:0]   req_out_ready_i,
  output logic [PORT_W-1:0] req_out_port_o,
  output logic [FLIT_W-1:0] req_out_flit_o,
  // Responses.
  input  logic              rsp_in_valid_i,
  output logic              rsp_in_ready_o,
  input  logic [FLIT_W-1:0] rsp_in_flit_i,
  input  logic [PORT_W-1:0] rsp_in_port_i,
  output logic              rsp_out_valid_o,
  input  logic [NOUT-1:0]   rsp_out_ready_i,
  output logic [PORT_W-1:0] rsp_out_port_o,
  output logic [FLIT_W-1:0] rsp_out_flit_o,
  // Counters (wrapping).
  output logic [STAT_W-1:0] stat_mcast_o,
  output logic [STAT_W-1:0] stat_miss_o,
  output logic [STAT_W-1:0] stat_copies_o,
  output logic [STAT_W-1:0] stat_stall_o,
  output logic [STAT_W-1:0] stat_refused_o,
  output logic [STAT_W-1:0] stat_malformed_o,
  output logic [STAT_W-1:0] stat_noroute_o,
  // The staged region and the command (the RGN_* registers, whole fields).
  input  logic [5:0]        rgn_idx_i,
  input  logic [47:0]       rgn_base_i,
  input  logic [48:0]       rgn_size_i,
  input  logic [31:0]       rgn_ports_i,
  input  logic [7:0]        rgn_expect_i,
  input  logic [7:0]        rgn_home_i,
  input  logic              rgn_root_i,
  input  logic [1:0]        rgn_red_op_i,
  input  logic [1:0]        rgn_dtype_i,
  input  logic              cmd_add_i,
  input  logic              cmd_remove_i,
  // Status.
  output logic [3:0]        cmd_code_o,    // the last command's answer (mcr::Cmd)
  output logic              refused_o,     // a command is refused in this cycle
  output logic              malformed_o,   // a malformed packet is dropped in this cycle (its fate decided)
  output logic              noroute_o,     // a packet with no destination is dropped in this cycle
  output logic [3:0]        drop_cause_o,  // the last drop (mcr::Drop)
  output logic              drop_class_o,
  output logic [PORT_W-1:0] drop_port_o,
  output logic [6:0]        count_o,       // regions in the table
  // Entry rgn_idx_i read back (all 0 when it holds no region).
  output logic              rd_valid_o,
  output logic [47:0]       rd_base_o,
  output logic [48:0]       rd_size_o,
  output logic [PORTS-1:0]  rd_ports_o,
  output logic [7:0]        rd_expect_o,
  output logic [PORT_W-1:0] rd_home_o,
  output logic              rd_root_o,
  output logic [1:0]        rd_dtype_o
);

  localparam int unsigned RIDX_W = (REGIONS > 1) ? $clog2(REGIONS) : 1;

  // ------------------------------------------------- parameter ranges (elaboration)
  if (FLIT_W < 128 || FLIT_W > 512 || (FLIT_W & (FLIT_W - 1)) != 0) begin : g_bad_flit_w
    $error("FLIT_W = %0d is out of range; allowed: a power of two from 128 to 512", FLIT_W);
  end
  if (PORTS < 2 || PORTS > 32) begin : g_bad_ports
    $error("PORTS = %0d is out of range; allowed: 2..32", PORTS);
  end
  if (REGIONS < 1 || REGIONS > 64) begin : g_bad_regions
    $error("REGIONS = %0d is out of range; allowed: 1..64", REGIONS);
  end
  if (MAX_LEN < 1 || MAX_LEN > 16) begin : g_bad_max_len
    $error("MAX_LEN = %0d is out of range; allowed: 1..16", MAX_LEN);
  end
  if (SLOTS < 2 || SLOTS > 8) begin : g_bad_slots
    $error("SLOTS = %0d is out of range; allowed: 2..8", SLOTS);
  end
  if (STAT_W < 1 || STAT_W > 32) begin : g_bad_stat_w
    $error("STAT_W = %0d is out of range; allowed: 1..32", STAT_W);
  end

  localparam logic [3:0] C_OK = 4'd0, C_IDX_RANGE = 4'd1, C_IDX_BUSY = 4'd2, C_IDX_EMPTY = 4'd3,
                         C_SIZE = 4'd4, C_BASE_ALIGN = 4'd5, C_PORTS_EMPTY = 4'd6,
                         C_PORTS_RANGE = 4'd7, C_HOME_RANGE = 4'd8, C_EXPECT_ZERO = 4'd9,
                         C_RED_OP = 4'd10, C_DTYPE = 4'd11, C_OVERLAP = 4'd12, C_BOTH = 4'd13;
  localparam logic [31:0] PORT_MASK = 32'((64'd1 << PORTS) - 64'd1);

  // ---------------------------------------------------------------- the table
  logic [REGIONS-1:0]        valid_q;
  logic [REGIONS*48-1:0]     base_q;
  logic [REGIONS*6-1:0]      szl_q;     // log2 of the size, 0..48
  logic [REGIONS*PORTS-1:0]  ports_q;
  logic [REGIONS*8-1:0]      expect_q;
  logic [REGIONS*PORT_W-1:0] home_q;
  logic [REGIONS-1:0]        root_q;
  logic [REGIONS*2-1:0]      dtype_q;
  logic [REGIONS*48-1:0]     himask;    // the address bits each region's base fixes

  // Bit i of a region's base counts when i >= log2 of its size: a compare
  // per bit with a constant, beside the address compare, not a shift and a
  // 49-bit decrement before it (the lookup is the block's longest path).
  always_comb begin
    for (int r = 0; r < REGIONS; r++)
      for (int i = 0; i < 48; i++) himask[r*48 + i] = 6'(i) >= szl_q[r*6 +: 6];
  end

  // ---------------------------------------------------------------- commands
  // A command (RGN_CMD's pulse) is checked in the cycle of its pulse against
  // the staged fields and the table; the answer and the entry to write are
  // registered, and the table changes at the next edge (the check, 48-bit
  // compares with every region, and the table's write enables do not fit in
  // one cycle together). Headers taken in the cycle after the pulse still
  // see the table before the command.
  // The size's checks without a 49-bit decrement: q[i] = |size[i:0] (a
  // log-depth prefix OR); a power of two has no bit with a lower one set
  // (size & q << 1 == 0), and then the bits below it are ~q and the address
  // bits the region fixes q[47:0].
  logic        cmd, slot_valid;
  logic [48:0] q;
  logic [47:0] size_m1;
  logic        pow2;
  logic [47:0] new_himask;
  logic [5:0]  new_szl;
  logic        overlap;
  logic [3:0]  code;
  always_comb begin
    cmd        = rst_ni && (cmd_add_i || cmd_remove_i);
    slot_valid = 32'(rgn_idx_i) < REGIONS && valid_q[RIDX_W'(rgn_idx_i)];
    q = rgn_size_i;
    for (int d = 1; d < 49; d = d * 2) q = q | (q << d);
    pow2       = rgn_size_i != '0 && (rgn_size_i & (q << 1)) == '0;
    size_m1    = ~q[47:0];
    new_himask = q[47:0];
    new_szl    = '0;
    for (int i = 0; i < 49; i++) new_szl = new_szl | ({6{rgn_size_i[i]}} & 6'(i));
    // Two aligned power-of-two regions overlap when one holds the other:
    // their bases agree on the bits above the larger size.
    overlap = 1'b0;
    for (int r = 0; r < REGIONS; r++)
      overlap = overlap | (valid_q[r] &&
                           ((rgn_base_i ^ base_q[r*48 +: 48]) & new_himask & himask[r*48 +: 48]) == '0);
    if (cmd_add_i && cmd_remove_i)                        code = C_BOTH;
    else if (32'(rgn_idx_i) >= REGIONS)                   code = C_IDX_RANGE;
    else if (cmd_remove_i)                                code = slot_valid ? C_OK : C_IDX_EMPTY;
    else if (slot_valid)                                  code = C_IDX_BUSY;
    else if (!pow2)                                       code = C_SIZE;
    else if ((rgn_base_i & size_m1) != '0)                code = C_BASE_ALIGN;
    else if (rgn_ports_i == '0)                           code = C_PORTS_EMPTY;
    else if ((rgn_ports_i & ~PORT_MASK) != '0)            code = C_PORTS_RANGE;
    else if (32'(rgn_home_i) >= PORTS)                    code = C_HOME_RANGE;
    else if (rgn_expect_i == '0)                          code = C_EXPECT_ZERO;
    else if (rgn_red_op_i != 2'd0)                        code = C_RED_OP;
    else if (rgn_dtype_i == 2'd3)                         code = C_DTYPE;
    else if (overlap)                                     code = C_OVERLAP;
    else                                                  code = C_OK;
  end

  // The command checked in the last cycle: its answer and its entry.
  logic              cq_valid_q, cq_add_q;
  logic [3:0]        cq_code_q;
  logic [RIDX_W-1:0] cq_idx_q;
  logic [47:0]       cq_base_q;
  logic [5:0]        cq_szl_q;
  logic [PORTS-1:0]  cq_ports_q;
  logic [7:0]        cq_expect_q;
  logic [PORT_W-1:0] cq_home_q;
  logic              cq_root_q;
  logic [1:0]        cq_dtype_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      cq_valid_q <= 1'b0;
    end else begin
      cq_valid_q <= cmd;
      if (cmd) begin
        cq_add_q    <= cmd_add_i;
        cq_code_q   <= code;
        cq_idx_q    <= RIDX_W'(rgn_idx_i);
        cq_base_q   <= rgn_base_i;
        cq_szl_q    <= new_szl;
        cq_ports_q  <= rgn_ports_i[PORTS-1:0];
        cq_expect_q <= rgn_expect_i;
        cq_home_q   <= rgn_home_i[PORT_W-1:0];
        cq_root_q   <= rgn_root_i;
        cq_dtype_q  <= rgn_dtype_i;
      end
    end
  end
  assign refused_o = cq_valid_q && cq_code_q != C_OK;

  for (genvar r = 0; r < REGIONS; r++) begin : g_entry
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        valid_q[r] <= 1'b0;
      end else if (cq_valid_q && cq_code_q == C_OK && 32'(cq_idx_q) == r) begin
        valid_q[r] <= cq_add_q;
        if (cq_add_q) begin
          base_q[r*48 +: 48]         <= cq_base_q;
          szl_q[r*6 +: 6]            <= cq_szl_q;
          ports_q[r*PORTS +: PORTS]  <= cq_ports_q;
          expect_q[r*8 +: 8]         <= cq_expect_q;
          home_q[r*PORT_W +: PORT_W] <= cq_home_q;
          root_q[r]                  <= cq_root_q;
          dtype_q[r*2 +: 2]          <= cq_dtype_q;
        end
      end
    end
  end

  // ---------------------------------------------------------------- read back
  logic [RIDX_W-1:0] ri;
  always_comb begin
    ri          = RIDX_W'(rgn_idx_i);
    rd_valid_o  = slot_valid;
    rd_base_o   = slot_valid ? base_q[32'(ri)*48 +: 48] : '0;
    rd_size_o   = slot_valid ? 49'd1 << szl_q[32'(ri)*6 +: 6] : '0;
    rd_ports_o  = slot_valid ? ports_q[32'(ri)*PORTS +: PORTS] : '0;
    rd_expect_o = slot_valid ? expect_q[32'(ri)*8 +: 8] : '0;
    rd_home_o   = slot_valid ? home_q[32'(ri)*PORT_W +: PORT_W] : '0;
    rd_root_o   = slot_valid && root_q[ri];
    rd_dtype_o  = slot_valid ? dtype_q[32'(ri)*2 +: 2] : '0;
    count_o     = '0;
    for (int r = 0; r < REGIONS; r++) count_o = count_o + 7'(valid_q[r]);
  end

  // ---------------------------------------------------------------- the class paths
  // Each class path with its own lookup of the address on its input pins.
  logic              req_fate, req_hit, req_copy, req_stall, rsp_fate, rsp_hit, rsp_copy, rsp_stall;
  logic [3:0]        req_drop, rsp_drop;
  logic [PORT_W-1:0] req_port, rsp_port;
  logic              req_lk_hit, req_lk_dtype_bad, rsp_lk_hit, rsp_lk_dtype_bad;
  logic [RIDX_W-1:0] req_lk_idx, rsp_lk_idx;
  logic [7:0]        req_lk_expect, rsp_lk_expect;
  logic [PORT_W-1:0] req_lk_home, rsp_lk_home;
  logic [NOUT-1:0]   req_lk_dest, rsp_lk_dest;

  mcr_table_lookup #(.PORTS(PORTS), .REGIONS(REGIONS)) u_req_lookup (
    .addr_i      (req_in_flit_i[t3_pkt_pkg::ADDR_LSB +: 48]),
    .op_i        (req_in_flit_i[t3_pkt_pkg::OP_LSB +: 4]),
    .dtype_i     (req_in_flit_i[t3_pkt_pkg::DTYPE_LSB +: 2]),
    .self_i      (NOUT'(1) << req_in_port_i),
    .valid_i     (valid_q),
    .base_i      (base_q),
    .himask_i    (himask),
    .ports_i     (ports_q),
    .expect_i    (expect_q),
    .home_i      (home_q),
    .root_i      (root_q),
    .dtype_tab_i (dtype_q),
    .hit_o       (req_lk_hit),
    .idx_o       (req_lk_idx),
    .expect_o    (req_lk_expect),
    .home_o      (req_lk_home),
    .dest_o      (req_lk_dest),
    .dtype_bad_o (req_lk_dtype_bad)
  );

  mcr_table_lookup #(.PORTS(PORTS), .REGIONS(REGIONS)) u_rsp_lookup (
    .addr_i      (rsp_in_flit_i[t3_pkt_pkg::ADDR_LSB +: 48]),
    .op_i        (rsp_in_flit_i[t3_pkt_pkg::OP_LSB +: 4]),
    .dtype_i     (rsp_in_flit_i[t3_pkt_pkg::DTYPE_LSB +: 2]),
    .self_i      (NOUT'(1) << rsp_in_port_i),
    .valid_i     (valid_q),
    .base_i      (base_q),
    .himask_i    (himask),
    .ports_i     (ports_q),
    .expect_i    (expect_q),
    .home_i      (home_q),
    .root_i      (root_q),
    .dtype_tab_i (dtype_q),
    .hit_o       (rsp_lk_hit),
    .idx_o       (rsp_lk_idx),
    .expect_o    (rsp_lk_expect),
    .home_o      (rsp_lk_home),
    .dest_o      (rsp_lk_dest),
    .dtype_bad_o (rsp_lk_dtype_bad)
  );

  mcr_table_path #(
    .FLIT_W(FLIT_W), .PORTS(PORTS), .REGIONS(REGIONS), .MAX_LEN(MAX_LEN), .SLOTS(SLOTS),
    .CLASS(1'b0)
  ) u_req (
    .clk_i, .rst_ni,
    .in_valid_i  (req_in_valid_i),
    .in_ready_o  (req_in_ready_o),
    .in_flit_i   (req_in_flit_i),
    .in_port_i   (req_in_port_i),
    .out_valid_o (req_out_valid_o),
    .out_ready_i (req_out_ready_i),
    .out_port_o  (req_out_port_o),
    .out_flit_o  (req_out_flit_o),
    .lk_hit_i       (req_lk_hit),
    .lk_idx_i       (req_lk_idx),
    .lk_expect_i    (req_lk_expect),
    .lk_home_i      (req_lk_home),
    .lk_dest_i      (req_lk_dest),
    .lk_dtype_bad_i (req_lk_dtype_bad),
    .fate_o         (req_fate),
    .drop_o         (req_drop),
    .hit_o          (req_hit),
    .port_o         (req_port),
    .copy_o         (req_copy),
    .stall_o        (req_stall)
  );

  mcr_table_path #(
    .FLIT_W(FLIT_W), .PORTS(PORTS), .REGIONS(REGIONS), .MAX_LEN(MAX_LEN), .SLOTS(SLOTS),
    .CLASS(1'b1)
  ) u_rsp (
    .clk_i, .rst_ni,
    .in_valid_i  (rsp_in_valid_i),
    .in_ready_o  (rsp_in_ready_o),
    .in_flit_i   (rsp_in_flit_i),
    .in_port_i   (rsp_in_port_i),
    .out_valid_o (rsp_out_valid_o),
    .out_ready_i (rsp_out_ready_i),
    .out_port_o  (rsp_out_port_o),
    .out_flit_o  (rsp_out_flit_o),
    .lk_hit_i       (rsp_lk_hit),
    .lk_idx_i       (rsp_lk_idx),
    .lk_expect_i    (rsp_lk_expect),
    .lk_home_i      (rsp_lk_home),
    .lk_dest_i      (rsp_lk_dest),
    .lk_dtype_bad_i (rsp_lk_dtype_bad),
    .fate_o         (rsp_fate),
    .drop_o         (rsp_drop),
    .hit_o          (rsp_hit),
    .port_o         (rsp_port),
    .copy_o         (rsp_copy),
    .stall_o        (rsp_stall)
  );

  // ---------------------------------------------------------------- counters, status
  logic req_kept, req_bad, req_lost, rsp_kept, rsp_bad, rsp_lost;
  always_comb begin
    req_kept    = req_fate && req_drop == 4'd0;
    req_bad     = req_drop >= 4'd1 && req_drop <= 4'd8;   // malformed (mcr::malformed)
    req_lost    = req_drop == 4'd9 || req_drop == 4'd10;  // no route (mcr::no_route)
    rsp_kept    = rsp_fate && rsp_drop == 4'd0;
    rsp_bad     = rsp_drop >= 4'd1 && rsp_drop <= 4'd8;
    rsp_lost    = rsp_drop == 4'd9 || rsp_drop == 4'd10;
    malformed_o = req_bad || rsp_bad;
    noroute_o   = req_lost || rsp_lost;
  end

  logic [STAT_W-1:0] mcast_q, miss_q, copies_q, stall_q, refused_q, malformed_q, noroute_q;
  logic [3:0]        cmd_code_q, drop_cause_q;
  logic              drop_class_q;
  logic [PORT_W-1:0] drop_port_q;

  // c + a + b: c + 1 and c + 2 made from the register, then picked by the
  // late events (they come from the lookup), not the events fed into an
  // adder's carry.
  function automatic logic [STAT_W-1:0] add2(input logic [STAT_W-1:0] c, input logic a,
                                             input logic b);
    logic [STAT_W-1:0] c1, c2;
    c1 = c + STAT_W'(1);
    c2 = c + STAT_W'(2);
    add2 = (a && b) ? c2 : (a || b) ? c1 : c;
  endfunction

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      mcast_q      <= '0;
      miss_q       <= '0;
      copies_q     <= '0;
      stall_q      <= '0;
      refused_q    <= '0;
      malformed_q  <= '0;
      noroute_q    <= '0;
      cmd_code_q   <= C_OK;
      drop_cause_q <= '0;
      drop_class_q <= 1'b0;
      drop_port_q  <= '0;
    end else begin
      mcast_q     <= add2(mcast_q, req_kept && req_hit, rsp_kept && rsp_hit);
      miss_q      <= add2(miss_q, req_kept && !req_hit, rsp_kept && !rsp_hit);
      copies_q    <= add2(copies_q, req_copy, rsp_copy);
      stall_q     <= add2(stall_q, req_stall, rsp_stall);
      malformed_q <= add2(malformed_q, req_bad, rsp_bad);
      noroute_q   <= add2(noroute_q, req_lost, rsp_lost);
      if (refused_o) refused_q <= refused_q + 1'b1;
      if (cq_valid_q) cmd_code_q <= cq_code_q;
      // The last drop; the request class's when both drop in one cycle.
      if (req_drop != 4'd0) begin
        drop_cause_q <= req_drop;
        drop_class_q <= 1'b0;
        drop_port_q  <= req_port;
      end else if (rsp_drop != 4'd0) begin
        drop_cause_q <= rsp_drop;
        drop_class_q <= 1'b1;
        drop_port_q  <= rsp_port;
      end
    end
  end

  assign stat_mcast_o     = mcast_q;
  assign stat_miss_o      = miss_q;
  assign stat_copies_o    = copies_q;
  assign stat_stall_o     = stall_q;
  assign stat_refused_o   = refused_q;
  assign stat_malformed_o = malformed_q;
  assign stat_noroute_o   = noroute_q;
  assign cmd_code_o       = cmd_code_q;
  assign drop_cause_o     = drop_cause_q;
  assign drop_class_o     = drop_class_q;
  assign drop_port_o      = drop_port_q;

endmodule
