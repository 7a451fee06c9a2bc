// The APB side of every generated register block (rtl/<block>_reg_top.sv,
// scripts/blockgen.py): address decode and the access rules of
// docs/registers/README.md, the same as hw/common/regs.cpp's RegFile.
//
// AMBA APB (APB4) slave with no wait states: pready_o is always 1. In an
// access phase (psel_i and penable_i), pslverr_o answers an address with no
// register, a write whose pstrb_i is not 4'hF, a write to a register without
// a writable field (RO_ONLY), or a write to a busy-locked register (LOCKED)
// while busy_i; we_o is a write that is none of these, which the register
// block applies at the edge ending the access phase. prdata_o is the hit
// register's value (rdata_i) during a read access phase, else 0.
module reg_apb #(
  parameter int unsigned N = 1,                // registers
  parameter logic [N*12-1:0] OFFSETS = '0,     // register i at OFFSETS[12*i +: 12]
  parameter logic [N-1:0]    RO_ONLY = '0,     // register i has no writable field
  parameter logic [N-1:0]    LOCKED  = '0      // register i is busy-locked
) (
  input  logic         psel_i,
  input  logic         penable_i,
  input  logic         pwrite_i,
  input  logic [11:0]  paddr_i,
  input  logic [3:0]   pstrb_i,
  output logic         pready_o,
  output logic         pslverr_o,
  output logic [31:0]  prdata_o,

  input  logic         busy_i,
  input  logic [31:0]  rdata_i,  // the read value of the register hit_o selects
  output logic [N-1:0] hit_o,
  output logic         we_o
);

  if (N < 1 || N > 1024) begin : g_bad_n
    $error("N = %0d is out of range; allowed: 1..1024 (word registers in a 4 KiB window)", N);
  end

  logic access, addr_err, strb_err, cmd_err, busy_err, err;
  always_comb begin
    for (int i = 0; i < N; i++) hit_o[i] = paddr_i == OFFSETS[12*i +: 12];
    access    = psel_i & penable_i;
    addr_err  = ~|hit_o;
    strb_err  = pwrite_i & (pstrb_i != 4'hF);
    cmd_err   = pwrite_i & |(hit_o & RO_ONLY);
    busy_err  = pwrite_i & busy_i & |(hit_o & LOCKED);
    err       = addr_err | strb_err | cmd_err | busy_err;
    we_o      = access & pwrite_i & ~err;
    pready_o  = 1'b1;
    pslverr_o = access & err;
  end

  // Apart from the block above: rdata_i depends on hit_o.
  assign prdata_o = (access && !pwrite_i && !addr_err) ? rdata_i : '0;

endmodule
