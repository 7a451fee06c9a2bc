// The multicast region lookup of one address (ISCA 2020 in-network
// collectives paper, §IV: "a packet arrives [at a] switch, [if its] address
// belongs [to an] MCR ..."), combinational: every region's base and size
// compared at once (the tags are flops for that), then the one region that
// matches (the table refuses overlapping regions, so at most one does)
// gives its attributes by an AND-OR. The table's vectors are flattened, a
// region's fields at [r*W +: W]. Part of rtl/mcr_table_core.sv (one lookup
// per class path); hw/mcr_table/mcr_table_core.cpp (classify) is the model.
module mcr_table_lookup #(
  parameter int unsigned PORTS   = 8,
  parameter int unsigned REGIONS = 8,
  localparam int unsigned PORT_W = $clog2(PORTS + 1),
  localparam int unsigned RIDX_W = (REGIONS > 1) ? $clog2(REGIONS) : 1
) (
  input  logic [47:0]               addr_i,
  input  logic [REGIONS-1:0]        valid_i,
  input  logic [REGIONS*48-1:0]     base_i,
  input  logic [REGIONS*48-1:0]     himask_i,   // the address bits a region's base fixes
  input  logic [REGIONS*PORTS-1:0]  ports_i,
  input  logic [REGIONS*8-1:0]      expect_i,
  input  logic [REGIONS*PORT_W-1:0] home_i,
  input  logic [REGIONS-1:0]        root_i,
  input  logic [REGIONS*2-1:0]      dtype_i,
  output logic                      hit_o,
  output logic [RIDX_W-1:0]         idx_o,      // 0 on a miss, as the attributes below
  output logic [PORTS-1:0]          ports_o,
  output logic [7:0]                expect_o,
  output logic [PORT_W-1:0]         home_o,
  output logic                      root_o,
  output logic [1:0]                dtype_o
);

  logic [REGIONS-1:0] match;
  always_comb begin
    for (int r = 0; r < REGIONS; r++)
      match[r] = valid_i[r] && ((addr_i ^ base_i[r*48 +: 48]) & himask_i[r*48 +: 48]) == '0;
    hit_o    = |match;
    idx_o    = '0;
    ports_o  = '0;
    expect_o = '0;
    home_o   = '0;
    root_o   = 1'b0;
    dtype_o  = '0;
    for (int r = 0; r < REGIONS; r++) begin
      idx_o    = idx_o    | ({RIDX_W{match[r]}} & RIDX_W'(r));
      ports_o  = ports_o  | ({PORTS{match[r]}}  & ports_i[r*PORTS +: PORTS]);
      expect_o = expect_o | ({8{match[r]}}      & expect_i[r*8 +: 8]);
      home_o   = home_o   | ({PORT_W{match[r]}} & home_i[r*PORT_W +: PORT_W]);
      root_o   = root_o   | (match[r]           & root_i[r]);
      dtype_o  = dtype_o  | ({2{match[r]}}      & dtype_i[r*2 +: 2]);
    end
  end

endmodule
