// T3 Tracker as firmware and the memory controller see it (T3 §4.2.1,
// Fig. 9): the core (rtl/tracker_core.sv) behind its register block
// (rtl/tracker_reg_top.sv, generated from hw/tracker/tracker.yaml), an
// AMBA APB slave; the two meet only through the reg2hw and hw2reg structs.
// The registers drive the core's configuration and show its status; the
// region and the threshold are locked while a tile is live. Interrupts:
// CFG_ERROR in every cycle the core refuses its configuration, SET_FULL in
// every cycle a write is refused for want of a free way.
//
// The C++ model of the same composition is hw/tracker/tracker.h.
//
// Parameters: the list is hw/tracker/tracker.yaml; the core checks
// their ranges at elaboration.
module tracker #(
  parameter int unsigned SETS    = 256,
  parameter int unsigned WAYS    = 8,
  parameter int unsigned WG_ID_W = 12,
  parameter int unsigned WF_ID_W = 3,
  parameter int unsigned ADDR_W  = 48,
  parameter int unsigned CNT_W   = 16,
  parameter int unsigned UPE_W   = 4,
  parameter int unsigned STAT_W  = 32,
  localparam int unsigned LIVE_W = $clog2(SETS * WAYS + 1),
  localparam int unsigned REG_AW = tracker_reg_pkg::REG_AW
) (
  input  logic              clk_i,
  input  logic              rst_ni,

  // Registers (docs/registers/tracker.md).
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

  // Observed memory writes (see rtl/tracker_core.sv).
  input  logic              in_valid_i,
  output logic              in_ready_o,
  input  logic [WG_ID_W-1:0] in_wg_id_i,
  input  logic [WF_ID_W-1:0] in_wf_id_i,
  input  logic [ADDR_W-1:0] in_addr_i,
  input  logic [CNT_W-1:0]  in_size_i,
  input  logic [1:0]        in_src_i,

  // Trigger stream towards the DMA trigger table (T3 §4.2.2).
  output logic              trig_valid_o,
  input  logic              trig_ready_i,
  output logic [WG_ID_W-1:0] trig_wg_id_o,
  output logic [WF_ID_W-1:0] trig_wf_id_o,
  output logic [ADDR_W-1:0] trig_addr_o,

  // Status, also in the registers; brought out for observation.
  output logic [STAT_W-1:0] stat_updates_o,
  output logic [STAT_W-1:0] stat_triggers_o,
  output logic [STAT_W-1:0] stat_stalls_o,
  output logic [STAT_W-1:0] stat_untracked_o,
  output logic [LIVE_W-1:0] live_o,
  output logic              set_full_o
);

  tracker_reg_pkg::tracker_reg2hw_t reg2hw;
  tracker_reg_pkg::tracker_hw2reg_t hw2reg;

  tracker_reg_top u_reg (
    .clk_i, .rst_ni,
    .psel_i, .penable_i, .pwrite_i, .paddr_i, .pwdata_i, .pstrb_i,
    .prdata_o, .pready_o, .pslverr_o,
    .reg2hw_o (reg2hw),
    .hw2reg_i (hw2reg),
    .intr_o
  );

  logic cfg_error, busy;

  tracker_core #(
    .SETS(SETS), .WAYS(WAYS), .WG_ID_W(WG_ID_W), .WF_ID_W(WF_ID_W),
    .ADDR_W(ADDR_W), .CNT_W(CNT_W), .UPE_W(UPE_W), .STAT_W(STAT_W)
  ) u_core (
    .clk_i, .rst_ni,
    .cfg_enable_i           (reg2hw.ctrl_enable),
    .cfg_base_i             (ADDR_W'({reg2hw.base_hi_addr, reg2hw.base_lo_addr})),
    .cfg_limit_i            (ADDR_W'({reg2hw.limit_hi_addr, reg2hw.limit_lo_addr})),
    .cfg_tile_size_i        (CNT_W'(reg2hw.tile_size)),
    .cfg_updates_per_elem_i (UPE_W'(reg2hw.tile_updates_per_elem)),
    .cfg_error_o            (cfg_error),
    .busy_o                 (busy),
    .in_valid_i, .in_ready_o, .in_wg_id_i, .in_wf_id_i, .in_addr_i, .in_size_i, .in_src_i,
    .trig_valid_o, .trig_ready_i, .trig_wg_id_o, .trig_wf_id_o, .trig_addr_o,
    .stat_updates_o, .stat_triggers_o, .stat_stalls_o, .stat_untracked_o, .live_o, .set_full_o
  );

  always_comb begin
    hw2reg = '0;
    hw2reg.intr_state_cfg_error_set = cfg_error;
    hw2reg.intr_state_set_full_set  = set_full_o;
    hw2reg.status_cfg_error         = cfg_error;
    hw2reg.status_set_full          = set_full_o;
    hw2reg.status_live              = 24'(live_o);
    hw2reg.stat_updates_count       = 32'(stat_updates_o);
    hw2reg.stat_triggers_count      = 32'(stat_triggers_o);
    hw2reg.stat_stalls_count        = 32'(stat_stalls_o);
    hw2reg.stat_untracked_count     = 32'(stat_untracked_o);
    hw2reg.param_geometry_sets_log2 = 5'($clog2(SETS));
    hw2reg.param_geometry_ways      = 7'(WAYS);
    hw2reg.param_widths_addr_w      = 7'(ADDR_W);
    hw2reg.param_widths_cnt_w       = 5'(CNT_W);
    hw2reg.param_widths_upe_w       = 4'(UPE_W);
    hw2reg.param_widths_stat_w      = 6'(STAT_W);
    hw2reg.busy                     = busy;  // a tile live, or a write in flight towards one
  end

  // Register bits above the widths this build's core takes (the fields are
  // as wide as the widest build; PARAM_WIDTHS tells firmware).
  logic unused_reg2hw;
  assign unused_reg2hw = ^{reg2hw.intr_state_cfg_error, reg2hw.intr_state_set_full,
                           reg2hw.intr_enable_cfg_error, reg2hw.intr_enable_set_full,
                           reg2hw.intr_test_cfg_error, reg2hw.intr_test_set_full,
                           reg2hw.base_hi_addr, reg2hw.base_lo_addr,
                           reg2hw.limit_hi_addr, reg2hw.limit_lo_addr,
                           reg2hw.tile_size, reg2hw.tile_updates_per_elem};

endmodule
