// The endpoint's memory arbiter (ISCA 2020 in-network collectives paper,
// §IV; docs/blocks/ep_mem_arb.md). The C++ model of the same core is
// hw/ep_mem_arb/ep_mem_arb_core.{h,cpp}; the block around it,
// rtl/ep_mem_arb.sv, is generated from hw/ep_mem_arb/ep_mem_arb.yaml.
// The grant and the routing are combinational: an engine's operation
// reaches the memory in the cycle it is granted, as it would unshared.
module ep_mem_arb_core #(
  parameter int unsigned FLIT_W  = 128,
  parameter int unsigned PORTS   = 10,
  parameter int unsigned MEM_OPS = 4,
  parameter int unsigned TAG_W   = 6,
  parameter int unsigned STAT_W  = 32,
  localparam int unsigned PORT_W      = (PORTS > 1) ? $clog2(PORTS) : 1,
  localparam int unsigned LTAG_W      = PORT_W + TAG_W,
  localparam int unsigned ADDR_BUS_W  = (48 * PORTS + 127) / 128 * 128,
  localparam int unsigned TAG_BUS_W   = (TAG_W * PORTS + 127) / 128 * 128,
  localparam int unsigned LADDR_BUS_W = (48 * MEM_OPS + 127) / 128 * 128,
  localparam int unsigned LTAG_BUS_W  = (LTAG_W * MEM_OPS + 127) / 128 * 128
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  input  logic [PORTS-1:0]            rq_valid_i,
  output logic [PORTS-1:0]            rq_ready_o,
  input  logic [2*PORTS-1:0]          rq_op_i,
  input  logic [2*PORTS-1:0]          rq_dtype_i,
  input  logic [ADDR_BUS_W-1:0]       rq_addr_i,  // the bits above 48 x PORTS unread
  input  logic [FLIT_W*PORTS-1:0]     rq_data_i,
  input  logic [TAG_BUS_W-1:0]        rq_tag_i,   // the bits above TAG_W x PORTS unread
  output logic [MEM_OPS-1:0]          mem_valid_o,
  output logic [2*MEM_OPS-1:0]        mem_op_o,
  output logic [2*MEM_OPS-1:0]        mem_dtype_o,
  output logic [LADDR_BUS_W-1:0]      mem_addr_o,
  output logic [FLIT_W*MEM_OPS-1:0]   mem_data_o,
  output logic [LTAG_BUS_W-1:0]       mem_tag_o,
  input  logic [MEM_OPS-1:0]          ans_valid_i,
  input  logic [LTAG_BUS_W-1:0]       ans_tag_i,  // the bits above LTAG_W x MEM_OPS unread
  input  logic [FLIT_W*MEM_OPS-1:0]   ans_data_i,
  output logic [PORTS-1:0]            md_valid_o,
  output logic [TAG_BUS_W-1:0]        md_tag_o,
  output logic [FLIT_W*PORTS-1:0]     md_data_o,
  output logic                        lost_o,
  output logic [STAT_W-1:0]           stat_reads_o,
  output logic [STAT_W-1:0]           stat_writes_o,
  output logic [STAT_W-1:0]           stat_waits_o,
  output logic [STAT_W-1:0]           stat_strays_o,
  output logic [STAT_W-1:0]           stat_clashes_o
);

  localparam int unsigned CNT_W = $clog2(PORTS + 1);  // a count of ports or lanes in a cycle

  // Port i's rank: the ports before it that ask. Granted when below MEM_OPS,
  // onto the lane of its rank.
  logic [CNT_W*PORTS-1:0] rank;
  logic [PORTS-1:0]       grant;
  logic [CNT_W-1:0]       asked;
  always_comb begin
    asked = '0;
    for (int i = 0; i < PORTS; i++) begin  // in port order: the priority
      rank[CNT_W*i +: CNT_W] = asked;
      grant[i] = rq_valid_i[i] && 32'(asked) < MEM_OPS;
      asked = asked + CNT_W'(rq_valid_i[i]);
    end
  end
  assign rq_ready_o = grant;

  always_comb begin
    mem_valid_o = '0;
    mem_op_o    = '0;
    mem_dtype_o = '0;
    mem_addr_o  = '0;
    mem_data_o  = '0;
    mem_tag_o   = '0;
    for (int k = 0; k < MEM_OPS; k++) begin
      for (int i = 0; i < PORTS; i++) begin
        if (grant[i] && 32'(rank[CNT_W*i +: CNT_W]) == k) begin
          mem_valid_o[k]                 = 1'b1;
          mem_op_o[2*k +: 2]             = rq_op_i[2*i +: 2];
          mem_dtype_o[2*k +: 2]          = rq_dtype_i[2*i +: 2];
          mem_addr_o[48*k +: 48]         = rq_addr_i[48*i +: 48];
          mem_data_o[FLIT_W*k +: FLIT_W] = rq_data_i[FLIT_W*i +: FLIT_W];
          mem_tag_o[LTAG_W*k +: LTAG_W]  = {PORT_W'(i), rq_tag_i[TAG_W*i +: TAG_W]};
        end
      end
    end
  end

  // The answers: each to the port its tag names, the lowest lane first.
  logic [MEM_OPS-1:0] stray, clash;
  always_comb begin
    md_valid_o = '0;
    md_tag_o   = '0;
    md_data_o  = '0;
    stray      = '0;
    clash      = '0;
    for (int k = 0; k < MEM_OPS; k++) begin
      if (ans_valid_i[k]) begin
        if (32'(ans_tag_i[LTAG_W*k+TAG_W +: PORT_W]) >= PORTS) begin
          stray[k] = 1'b1;
        end else begin
          for (int p = 0; p < PORTS; p++) begin
            if (ans_tag_i[LTAG_W*k+TAG_W +: PORT_W] == PORT_W'(p)) begin
              if (md_valid_o[p]) begin
                clash[k] = 1'b1;
              end else begin
                md_valid_o[p]                 = 1'b1;
                md_tag_o[TAG_W*p +: TAG_W]    = ans_tag_i[LTAG_W*k +: TAG_W];
                md_data_o[FLIT_W*p +: FLIT_W] = ans_data_i[FLIT_W*k +: FLIT_W];
              end
            end
          end
        end
      end
    end
  end
  assign lost_o = |stray || |clash;

  // This cycle's counts.
  logic [CNT_W-1:0] n_reads, n_writes, n_waits, n_strays, n_clashes;
  always_comb begin
    n_reads   = '0;
    n_writes  = '0;
    n_waits   = '0;
    n_strays  = '0;
    n_clashes = '0;
    for (int i = 0; i < PORTS; i++) begin
      n_reads  = n_reads + CNT_W'(grant[i] && rq_op_i[2*i +: 2] == 2'd0);
      n_writes = n_writes + CNT_W'(grant[i] && rq_op_i[2*i +: 2] != 2'd0);
      n_waits  = n_waits + CNT_W'(rq_valid_i[i] && !grant[i]);
    end
    for (int k = 0; k < MEM_OPS; k++) begin
      n_strays  = n_strays + CNT_W'(stray[k]);
      n_clashes = n_clashes + CNT_W'(clash[k]);
    end
  end

  logic [STAT_W-1:0] reads_q, writes_q, waits_q, strays_q, clashes_q;
  assign stat_reads_o   = reads_q;
  assign stat_writes_o  = writes_q;
  assign stat_waits_o   = waits_q;
  assign stat_strays_o  = strays_q;
  assign stat_clashes_o = clashes_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      reads_q   <= '0;
      writes_q  <= '0;
      waits_q   <= '0;
      strays_q  <= '0;
      clashes_q <= '0;
    end else begin
      reads_q   <= reads_q + STAT_W'(n_reads);
      writes_q  <= writes_q + STAT_W'(n_writes);
      waits_q   <= waits_q + STAT_W'(n_waits);
      strays_q  <= strays_q + STAT_W'(n_strays);
      clashes_q <= clashes_q + STAT_W'(n_clashes);
    end
  end

endmodule
