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
// refused, changes one entry at that edge; a header taken in that cycle is
// looked up in the table as it was before.
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
  output logic              malformed_o,   // a malformed packet's header is dropped in this cycle
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

  always_comb begin
    for (int r = 0; r < REGIONS; r++)
      himask[r*48 +: 48] = ~(48'((49'd1 << szl_q[r*6 +: 6]) - 49'd1));
  end

  // ---------------------------------------------------------------- commands
  logic        cmd, slot_valid;
  logic [48:0] size_m1;
  logic [47:0] new_himask;
  logic [5:0]  new_szl;
  logic        overlap;
  logic [3:0]  code;
  always_comb begin
    cmd        = rst_ni && (cmd_add_i || cmd_remove_i);
    slot_valid = 32'(rgn_idx_i) < REGIONS && valid_q[RIDX_W'(rgn_idx_i)];
    size_m1    = rgn_size_i - 49'd1;
    new_himask = ~size_m1[47:0];
    new_szl    = '0;
    for (int i = 0; i < 49; i++) if (rgn_size_i[i]) new_szl = 6'(i);
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
    else if (rgn_size_i == '0 || (rgn_size_i & size_m1) != '0) code = C_SIZE;
    else if ((rgn_base_i & size_m1[47:0]) != '0)          code = C_BASE_ALIGN;
    else if (rgn_ports_i == '0)                           code = C_PORTS_EMPTY;
    else if ((rgn_ports_i & ~PORT_MASK) != '0)            code = C_PORTS_RANGE;
    else if (32'(rgn_home_i) >= PORTS)                    code = C_HOME_RANGE;
    else if (rgn_expect_i == '0)                          code = C_EXPECT_ZERO;
    else if (rgn_red_op_i != 2'd0)                        code = C_RED_OP;
    else if (rgn_dtype_i == 2'd3)                         code = C_DTYPE;
    else if (overlap)                                     code = C_OVERLAP;
    else                                                  code = C_OK;
    refused_o = cmd && code != C_OK;
  end

  for (genvar r = 0; r < REGIONS; r++) begin : g_entry
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        valid_q[r] <= 1'b0;
      end else if (cmd && code == C_OK && 32'(rgn_idx_i) == r) begin
        valid_q[r] <= cmd_add_i;
        if (cmd_add_i) begin
          base_q[r*48 +: 48]         <= rgn_base_i;
          szl_q[r*6 +: 6]            <= new_szl;
          ports_q[r*PORTS +: PORTS]  <= rgn_ports_i[PORTS-1:0];
          expect_q[r*8 +: 8]         <= rgn_expect_i;
          home_q[r*PORT_W +: PORT_W] <= rgn_home_i[PORT_W-1:0];
          root_q[r]                  <= rgn_root_i;
          dtype_q[r*2 +: 2]          <= rgn_dtype_i;
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
  logic [1:0]       hdr, hit, copy, stall;
  logic [1:0][3:0]  drop;
  logic [1:0]              lk_hit, lk_root;
  logic [1:0][RIDX_W-1:0]  lk_idx;
  logic [1:0][PORTS-1:0]   lk_ports;
  logic [1:0][7:0]         lk_expect;
  logic [1:0][PORT_W-1:0]  lk_home;
  logic [1:0][1:0]         lk_dtype;

  for (genvar k = 0; k < 2; k++) begin : g_class
    mcr_table_lookup #(.PORTS(PORTS), .REGIONS(REGIONS)) u_lookup (
      .addr_i   (k == 0 ? req_in_flit_i[t3_pkt_pkg::ADDR_LSB +: 48]
                        : rsp_in_flit_i[t3_pkt_pkg::ADDR_LSB +: 48]),
      .valid_i  (valid_q),
      .base_i   (base_q),
      .himask_i (himask),
      .ports_i  (ports_q),
      .expect_i (expect_q),
      .home_i   (home_q),
      .root_i   (root_q),
      .dtype_i  (dtype_q),
      .hit_o    (lk_hit[k]),
      .idx_o    (lk_idx[k]),
      .ports_o  (lk_ports[k]),
      .expect_o (lk_expect[k]),
      .home_o   (lk_home[k]),
      .root_o   (lk_root[k]),
      .dtype_o  (lk_dtype[k])
    );
  end

  mcr_table_path #(
    .FLIT_W(FLIT_W), .PORTS(PORTS), .REGIONS(REGIONS), .MAX_LEN(MAX_LEN), .CLASS(1'b0)
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
    .lk_hit_i    (lk_hit[0]),
    .lk_idx_i    (lk_idx[0]),
    .lk_ports_i  (lk_ports[0]),
    .lk_expect_i (lk_expect[0]),
    .lk_home_i   (lk_home[0]),
    .lk_root_i   (lk_root[0]),
    .lk_dtype_i  (lk_dtype[0]),
    .hdr_o       (hdr[0]),
    .drop_o      (drop[0]),
    .hit_o       (hit[0]),
    .copy_o      (copy[0]),
    .stall_o     (stall[0])
  );

  mcr_table_path #(
    .FLIT_W(FLIT_W), .PORTS(PORTS), .REGIONS(REGIONS), .MAX_LEN(MAX_LEN), .CLASS(1'b1)
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
    .lk_hit_i    (lk_hit[1]),
    .lk_idx_i    (lk_idx[1]),
    .lk_ports_i  (lk_ports[1]),
    .lk_expect_i (lk_expect[1]),
    .lk_home_i   (lk_home[1]),
    .lk_root_i   (lk_root[1]),
    .lk_dtype_i  (lk_dtype[1]),
    .hdr_o       (hdr[1]),
    .drop_o      (drop[1]),
    .hit_o       (hit[1]),
    .copy_o      (copy[1]),
    .stall_o     (stall[1])
  );

  // ---------------------------------------------------------------- counters, status
  logic [1:0] kept, bad, lost;
  always_comb begin
    for (int k = 0; k < 2; k++) begin
      kept[k] = hdr[k] && drop[k] == 4'd0;
      bad[k]  = drop[k] >= 4'd1 && drop[k] <= 4'd8;   // malformed (mcr::malformed)
      lost[k] = drop[k] == 4'd9 || drop[k] == 4'd10;  // no route (mcr::no_route)
    end
    malformed_o = |bad;
    noroute_o   = |lost;
  end

  logic [STAT_W-1:0] mcast_q, miss_q, copies_q, stall_q, refused_q, malformed_q, noroute_q;
  logic [3:0]        cmd_code_q, drop_cause_q;
  logic              drop_class_q;
  logic [PORT_W-1:0] drop_port_q;

  function automatic logic [STAT_W-1:0] add2(input logic [STAT_W-1:0] c, input logic a,
                                             input logic b);
    add2 = c + STAT_W'(a) + STAT_W'(b);
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
      mcast_q     <= add2(mcast_q, kept[0] && hit[0], kept[1] && hit[1]);
      miss_q      <= add2(miss_q, kept[0] && !hit[0], kept[1] && !hit[1]);
      copies_q    <= add2(copies_q, copy[0], copy[1]);
      stall_q     <= add2(stall_q, stall[0], stall[1]);
      malformed_q <= add2(malformed_q, bad[0], bad[1]);
      noroute_q   <= add2(noroute_q, lost[0], lost[1]);
      if (refused_o) refused_q <= refused_q + 1'b1;
      if (cmd) cmd_code_q <= code;
      // The last drop; the request class's when both drop in one cycle.
      if (drop[0] != 4'd0) begin
        drop_cause_q <= drop[0];
        drop_class_q <= 1'b0;
        drop_port_q  <= req_in_port_i;
      end else if (drop[1] != 4'd0) begin
        drop_cause_q <= drop[1];
        drop_class_q <= 1'b1;
        drop_port_q  <= rsp_in_port_i;
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
