// The multicast region lookup of one header (ISCA 2020 in-network
// collectives paper, §IV: "a packet arrives [at a] switch, [if its] address
// belongs [to an] MCR ..."), combinational: every region's base and size
// compared with the address at once (the tags are flops for that); beside
// the compares, every region's route for the header's opcode and ingress
// port and its type check (docs/blocks/mcr_table.md, "Routing"), so that
// only an AND-OR with the one region that matches follows the compares (the
// table refuses overlapping regions, so at most one does). The table's
// vectors are flattened, a region's fields at [r*W +: W]. Part of
// rtl/mcr_table_core.sv (one lookup per class path); the model is
// McrTableCore::classify in hw/mcr_table/mcr_table_core.cpp.
module mcr_table_lookup #(
  parameter int unsigned PORTS   = 8,
  parameter int unsigned REGIONS = 8,
  localparam int unsigned PORT_W = $clog2(PORTS + 1),
  localparam int unsigned NOUT   = PORTS + 1,
  localparam int unsigned RIDX_W = (REGIONS > 1) ? $clog2(REGIONS) : 1
) (
  // The header.
  input  logic [47:0]               addr_i,
  input  logic [3:0]                op_i,
  input  logic [1:0]                dtype_i,
  input  logic [NOUT-1:0]           self_i,     // its ingress port, one-hot
  // The table.
  input  logic [REGIONS-1:0]        valid_i,
  input  logic [REGIONS*48-1:0]     base_i,
  input  logic [REGIONS*48-1:0]     himask_i,   // the address bits a region's base fixes
  input  logic [REGIONS*PORTS-1:0]  ports_i,
  input  logic [REGIONS*8-1:0]      expect_i,
  input  logic [REGIONS*PORT_W-1:0] home_i,
  input  logic [REGIONS-1:0]        root_i,
  input  logic [REGIONS*2-1:0]      dtype_tab_i,
  // The region it falls in (all 0 on a miss).
  output logic                      hit_o,
  output logic [RIDX_W-1:0]         idx_o,
  output logic [7:0]                expect_o,
  output logic [PORT_W-1:0]         home_o,
  output logic [NOUT-1:0]           dest_o,     // its route for the opcode (0: routed by dst)
  output logic                      dtype_bad_o // a reduction opcode of another type than the region's
);

  localparam logic [NOUT-1:0] UNIT = NOUT'(1) << PORTS;  // the reduction unit

  logic [REGIONS-1:0] match, dtype_bad;
  logic [NOUT-1:0]    dest [REGIONS];
  logic               reduction;
  always_comb begin
    reduction = op_i == t3_pkt_pkg::OP_PUSH || op_i == t3_pkt_pkg::OP_PULL ||
                op_i == t3_pkt_pkg::OP_PULL_RSP || op_i == t3_pkt_pkg::OP_RESULT ||
                op_i == t3_pkt_pkg::OP_PARTIAL;
    for (int r = 0; r < REGIONS; r++) begin
      match[r] = valid_i[r] && ((addr_i ^ base_i[r*48 +: 48]) & himask_i[r*48 +: 48]) == '0;
      case (op_i)
        // every participant but the source
        t3_pkt_pkg::OP_WRITE, t3_pkt_pkg::OP_RESULT:
          dest[r] = {1'b0, ports_i[r*PORTS +: PORTS]} & ~self_i;
        // the local GPU's memory (§IV)
        t3_pkt_pkg::OP_READ:     dest[r] = self_i;
        t3_pkt_pkg::OP_PUSH:     dest[r] = root_i[r] ? UNIT : NOUT'(1) << home_i[r*PORT_W +: PORT_W];
        // the participants and the reduction unit's entry
        t3_pkt_pkg::OP_PULL:     dest[r] = ({1'b0, ports_i[r*PORTS +: PORTS]} & ~self_i) | UNIT;
        t3_pkt_pkg::OP_PULL_RSP: dest[r] = UNIT;  // reduced on its way back
        t3_pkt_pkg::OP_PARTIAL:  dest[r] = NOUT'(1) << home_i[r*PORT_W +: PORT_W];  // the home GPU
        default:                 dest[r] = '0;    // ACK, READ_RSP: by dst
      endcase
      dtype_bad[r] = reduction && dtype_i != dtype_tab_i[r*2 +: 2];
    end
    hit_o       = |match;
    dtype_bad_o = |(match & dtype_bad);
    idx_o       = '0;
    expect_o    = '0;
    home_o      = '0;
    dest_o      = '0;
    for (int r = 0; r < REGIONS; r++) begin
      idx_o    = idx_o    | ({RIDX_W{match[r]}} & RIDX_W'(r));
      expect_o = expect_o | ({8{match[r]}}      & expect_i[r*8 +: 8]);
      home_o   = home_o   | ({PORT_W{match[r]}} & home_i[r*PORT_W +: PORT_W]);
      dest_o   = dest_o   | ({NOUT{match[r]}}   & dest[r]);
    end
  end

endmodule
