// T3 near-bank ALU as firmware and the memory controller see it (T3 §4.3,
// §5.1.1): the core (rtl/near_bank_alu_core.sv) behind its register block
// (rtl/near_bank_alu_reg_top.sv, generated from
// hw/near_bank_alu/near_bank_alu.yaml), an AMBA APB slave; the two meet
// only through the reg2hw and hw2reg structs. The block has no run-time
// configuration (its timing is parameters, T3 Table 1): the registers clear
// the captured error (CTRL.ERR_CLEAR) and show it (STATUS.ERR), the counters
// and the build's parameters. Interrupt: REFUSED in every cycle the error
// flag is set (a level). Busy (a command in the pipeline) goes to the
// register block; no register of this map is locked by it.
//
// The C++ model of the same composition is hw/near_bank_alu/near_bank_alu.h.
//
// Parameters: the list is hw/near_bank_alu/near_bank_alu.yaml; the
// core checks their ranges at elaboration.
module near_bank_alu #(
  parameter int unsigned BURST_BYTES = 32,  // power of two 16..64
  parameter int unsigned BG          = 4,   // power of two 1..16 bank groups
  parameter int unsigned ADDR_W      = 20,  // 1..32: a burst within its bank group
  parameter int unsigned T_CCDS      = 1,   // 1..15
  parameter int unsigned T_CCDL      = 2,   // T_CCDS..15
  parameter int unsigned T_CCDWL     = 4,   // T_CCDL..15
  parameter int unsigned STAT_W      = 32,  // 1..32
  localparam int unsigned DATA_W = BURST_BYTES * 8,
  localparam int unsigned BG_W   = (BG > 1) ? $clog2(BG) : 1,
  localparam int unsigned REG_AW = near_bank_alu_reg_pkg::REG_AW
) (
  input  logic               clk_i,
  input  logic               rst_ni,

  // Registers (docs/registers/near_bank_alu.md).
  input  logic               psel_i,
  input  logic               penable_i,
  input  logic               pwrite_i,
  input  logic [REG_AW-1:0]  paddr_i,
  input  logic [31:0]        pwdata_i,
  input  logic [3:0]         pstrb_i,
  output logic [31:0]        prdata_o,
  output logic               pready_o,
  output logic               pslverr_o,
  output logic               intr_o,

  // Column commands from the memory controller's queue (see
  // rtl/near_bank_alu_core.sv).
  input  logic               cmd_valid_i,
  output logic               cmd_ready_o,
  input  logic [1:0]         cmd_op_i,
  input  logic [1:0]         cmd_fmt_i,
  input  logic [BG_W-1:0]    cmd_bg_i,
  input  logic [ADDR_W-1:0]  cmd_addr_i,
  input  logic [DATA_W-1:0]  cmd_data_i,
  input  logic [BURST_BYTES-1:0] cmd_mask_i,
  output logic [BG-1:0]      bg_ready_o,

  // The DRAM bank array.
  output logic               bank_rd_o,
  output logic [BG_W-1:0]    bank_rd_bg_o,
  output logic [ADDR_W-1:0]  bank_rd_addr_o,
  input  logic [DATA_W-1:0]  bank_rdata_i,
  output logic               bank_wr_o,
  output logic [BG_W-1:0]    bank_wr_bg_o,
  output logic [ADDR_W-1:0]  bank_wr_addr_o,
  output logic [DATA_W-1:0]  bank_wdata_o,
  output logic [BURST_BYTES-1:0] bank_wmask_o,

  output logic               rsp_valid_o,
  output logic [DATA_W-1:0]  rsp_data_o,

  // Status, also in the registers (STATUS.ERR, STAT_*); brought out for
  // observation.
  output logic               err_o,
  output logic [STAT_W-1:0]  stat_reads_o,
  output logic [STAT_W-1:0]  stat_stores_o,
  output logic [STAT_W-1:0]  stat_adds_o,
  output logic [STAT_W-1:0]  stat_refused_o,
  output logic [STAT_W-1:0]  stat_hazard_stalls_o,
  output logic [STAT_W-1:0]  stat_timing_stalls_o
);

  near_bank_alu_reg_pkg::near_bank_alu_reg2hw_t reg2hw;
  near_bank_alu_reg_pkg::near_bank_alu_hw2reg_t hw2reg;

  near_bank_alu_reg_top u_reg (
    .clk_i, .rst_ni,
    .psel_i, .penable_i, .pwrite_i, .paddr_i, .pwdata_i, .pstrb_i,
    .prdata_o, .pready_o, .pslverr_o,
    .reg2hw_o (reg2hw),
    .hw2reg_i (hw2reg),
    .intr_o
  );

  logic busy;

  near_bank_alu_core #(
    .BURST_BYTES(BURST_BYTES), .BG(BG), .ADDR_W(ADDR_W), .T_CCDS(T_CCDS), .T_CCDL(T_CCDL),
    .T_CCDWL(T_CCDWL), .STAT_W(STAT_W)
  ) u_core (
    .clk_i, .rst_ni,
    .cmd_valid_i, .cmd_ready_o, .cmd_op_i, .cmd_fmt_i, .cmd_bg_i, .cmd_addr_i, .cmd_data_i,
    .cmd_mask_i, .bg_ready_o,
    .bank_rd_o, .bank_rd_bg_o, .bank_rd_addr_o, .bank_rdata_i,
    .bank_wr_o, .bank_wr_bg_o, .bank_wr_addr_o, .bank_wdata_o, .bank_wmask_o,
    .rsp_valid_o, .rsp_data_o,
    .busy_o      (busy),
    .err_o,
    .err_clear_i (reg2hw.ctrl_err_clear),
    .stat_reads_o, .stat_stores_o, .stat_adds_o, .stat_refused_o,
    .stat_hazard_stalls_o, .stat_timing_stalls_o
  );

  always_comb begin
    hw2reg = '0;
    hw2reg.intr_state_refused_set   = err_o;
    hw2reg.status_err               = err_o;
    hw2reg.stat_reads_count         = 32'(stat_reads_o);
    hw2reg.stat_stores_count        = 32'(stat_stores_o);
    hw2reg.stat_adds_count          = 32'(stat_adds_o);
    hw2reg.stat_refused_count       = 32'(stat_refused_o);
    hw2reg.stat_hazard_stalls_count = 32'(stat_hazard_stalls_o);
    hw2reg.stat_timing_stalls_count = 32'(stat_timing_stalls_o);
    hw2reg.param_burst_burst_bytes  = 8'(BURST_BYTES);
    hw2reg.param_burst_bg           = 5'(BG);
    hw2reg.param_burst_addr_w       = 6'(ADDR_W);
    hw2reg.param_burst_stat_w       = 6'(STAT_W);
    hw2reg.param_timing_t_ccds      = 4'(T_CCDS);
    hw2reg.param_timing_t_ccdl      = 4'(T_CCDL);
    hw2reg.param_timing_t_ccdwl     = 4'(T_CCDWL);
    hw2reg.busy                     = busy;
  end

  // The interrupt registers drive intr_o inside the register block; the core
  // takes none of them.
  logic unused_reg2hw;
  assign unused_reg2hw = ^{reg2hw.intr_state_refused, reg2hw.intr_enable_refused,
                           reg2hw.intr_test_refused};

endmodule
