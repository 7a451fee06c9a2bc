// T3 MCA arbiter as firmware and the memory controller see it (T3 §4.5,
// Fig. 9): the core (rtl/mca_arbiter_core.sv) behind its register block
// (rtl/mca_arbiter_reg_top.sv, generated from
// hw/mca_arbiter/mca_arbiter.yaml), an AMBA APB slave; the two meet
// only through the reg2hw and hw2reg structs. The registers drive the core's
// configuration and show its state; the auto bounds and the learning window
// are locked while a window runs. Interrupts: CFG_ERROR in every cycle the
// core refuses its configuration, STARVED at each grant the starvation limit
// decides.
//
// The C++ model of the same composition is hw/mca_arbiter/mca_arbiter.h.
//
// Parameters: the list is hw/mca_arbiter/mca_arbiter.yaml; the core
// checks their ranges at elaboration.
module mca_arbiter #(
  parameter int unsigned DATA_W  = 64,  // 1..64; request payload
  parameter int unsigned OCC_W   = 6,   // 1..16; occupancy, thresholds, bounds, learned average
  parameter int unsigned CNT_W   = 16,  // 1..32; starvation limit and wait counter
  parameter int unsigned LEARN_W = 12,  // 0..24; largest log2 of the learning window
  parameter int unsigned STAT_W  = 32,  // 1..32; status counters, wrapping
  localparam int unsigned LOG2_W = (LEARN_W == 0) ? 1 : $clog2(LEARN_W + 1),  // the core's window log2
  localparam int unsigned REG_AW = mca_arbiter_reg_pkg::REG_AW
) (
  input  logic              clk_i,
  input  logic              rst_ni,

  // Registers (docs/registers/mca_arbiter.md).
  input  logic              psel_i,
  input  logic              penable_i,
  input  logic              pwrite_i,
  input  logic [REG_AW-1:0] paddr_i,
  input  logic [31:0]       pwdata_i,
  input  logic [3:0]        pstrb_i,
  output logic [31:0]       prdata_o,
  output logic              pready_o,
  output logic              pslverr_o,
  output logic              intr_o,

  // Compute stream (the producer kernel's accesses).
  input  logic              cmp_valid_i,
  output logic              cmp_ready_o,
  input  logic [DATA_W-1:0] cmp_data_i,
  // Communication stream (DMA / collective accesses).
  input  logic              com_valid_i,
  output logic              com_ready_o,
  input  logic [DATA_W-1:0] com_data_i,
  // Towards the DRAM command queue (see rtl/mca_arbiter_core.sv).
  output logic              out_valid_o,
  input  logic              out_ready_i,
  output logic [DATA_W-1:0] out_data_o,
  output logic              out_src_o,          // 0 compute, 1 communication
  input  logic [OCC_W-1:0]  occupancy_i,        // the queue's occupancy in this cycle

  input  logic              learn_i,            // start a learning window (ignored while one runs)
  input  logic              drain_i,            // kernel boundary: communication first

  // State and status, also in the registers (STATUS, LEARN_AVG, STAT_*);
  // brought out for observation.
  output logic              learn_busy_o,
  output logic [OCC_W-1:0]  learn_avg_o,
  output logic [1:0]        thr_sel_o,
  output logic [OCC_W-1:0]  thr_o,
  output logic [STAT_W-1:0] stat_grants_cmp_o,
  output logic [STAT_W-1:0] stat_grants_com_o,
  output logic [STAT_W-1:0] stat_wait_cmp_o,
  output logic [STAT_W-1:0] stat_wait_com_o,
  output logic [STAT_W-1:0] stat_starved_o
);

  mca_arbiter_reg_pkg::mca_arbiter_reg2hw_t reg2hw;
  mca_arbiter_reg_pkg::mca_arbiter_hw2reg_t hw2reg;

  mca_arbiter_reg_top u_reg (
    .clk_i, .rst_ni,
    .psel_i, .penable_i, .pwrite_i, .paddr_i, .pwdata_i, .pstrb_i,
    .prdata_o, .pready_o, .pslverr_o,
    .reg2hw_o (reg2hw),
    .hw2reg_i (hw2reg),
    .intr_o
  );

  // The fields are as wide as the widest build; the core takes the low bits
  // of this build's widths (PARAM_WIDTHS tells firmware).
  logic cfg_error, starved;

  mca_arbiter_core #(
    .DATA_W(DATA_W), .OCC_W(OCC_W), .CNT_W(CNT_W), .LEARN_W(LEARN_W), .STAT_W(STAT_W)
  ) u_core (
    .clk_i, .rst_ni,
    .cfg_policy_i       (reg2hw.ctrl_policy),
    .cfg_thr_auto_i     (reg2hw.ctrl_thr_auto),
    .cfg_thr_sel_i      (reg2hw.ctrl_thr_sel),
    .cfg_thr_level0_i   (OCC_W'(reg2hw.thr_level0_occ)),
    .cfg_thr_level1_i   (OCC_W'(reg2hw.thr_level1_occ)),
    .cfg_thr_level2_i   (OCC_W'(reg2hw.thr_level2_occ)),
    .cfg_auto_bound0_i  (OCC_W'(reg2hw.auto_bound0_occ)),
    .cfg_auto_bound1_i  (OCC_W'(reg2hw.auto_bound1_occ)),
    .cfg_auto_bound2_i  (OCC_W'(reg2hw.auto_bound2_occ)),
    .cfg_learn_log2_i   (LOG2_W'(reg2hw.learn_log2)),
    .cfg_starve_limit_i (CNT_W'(reg2hw.starve_limit_cycles)),
    .cfg_error_o        (cfg_error),
    .starved_o          (starved),
    .cmp_valid_i, .cmp_ready_o, .cmp_data_i,
    .com_valid_i, .com_ready_o, .com_data_i,
    .out_valid_o, .out_ready_i, .out_data_o, .out_src_o, .occupancy_i,
    .learn_i, .drain_i,
    .learn_busy_o, .learn_avg_o, .thr_sel_o, .thr_o,
    .stat_grants_cmp_o, .stat_grants_com_o, .stat_wait_cmp_o, .stat_wait_com_o, .stat_starved_o
  );

  always_comb begin
    hw2reg = '0;
    hw2reg.intr_state_cfg_error_set = cfg_error;
    hw2reg.intr_state_starved_set   = starved;
    hw2reg.status_cfg_error         = cfg_error;
    hw2reg.status_learn_busy        = learn_busy_o;
    hw2reg.status_thr_sel           = thr_sel_o;
    hw2reg.status_thr               = 16'(thr_o);
    hw2reg.learn_avg_occ            = 16'(learn_avg_o);
    hw2reg.stat_grants_cmp_count    = 32'(stat_grants_cmp_o);
    hw2reg.stat_grants_com_count    = 32'(stat_grants_com_o);
    hw2reg.stat_wait_cmp_count      = 32'(stat_wait_cmp_o);
    hw2reg.stat_wait_com_count      = 32'(stat_wait_com_o);
    hw2reg.stat_starved_count       = 32'(stat_starved_o);
    hw2reg.param_widths_data_w      = 7'(DATA_W);
    hw2reg.param_widths_occ_w       = 5'(OCC_W);
    hw2reg.param_widths_cnt_w       = 6'(CNT_W);
    hw2reg.param_widths_learn_w     = 5'(LEARN_W);
    hw2reg.param_stat_stat_w        = 6'(STAT_W);
    hw2reg.busy                     = learn_busy_o;
  end

  // Register bits this build's core does not take: the interrupt registers
  // (the register block drives intr_o itself) and the field bits above the
  // build's widths.
  logic unused_reg2hw;
  assign unused_reg2hw = ^{reg2hw.intr_state_cfg_error, reg2hw.intr_state_starved,
                           reg2hw.intr_enable_cfg_error, reg2hw.intr_enable_starved,
                           reg2hw.intr_test_cfg_error, reg2hw.intr_test_starved,
                           reg2hw.thr_level0_occ, reg2hw.thr_level1_occ, reg2hw.thr_level2_occ,
                           reg2hw.auto_bound0_occ, reg2hw.auto_bound1_occ, reg2hw.auto_bound2_occ,
                           reg2hw.learn_log2, reg2hw.starve_limit_cycles};

endmodule
