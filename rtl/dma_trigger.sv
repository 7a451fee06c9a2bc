// T3 DMA trigger table and address generator as firmware and the memory
// controller see it (T3 §4.2.2, §4.4, Fig. 11-12): the core
// (rtl/dma_trigger_core.sv) behind its register block
// (rtl/dma_trigger_reg_top.sv, generated from
// hw/dma_trigger/dma_trigger.yaml), an AMBA APB slave; the two meet only
// through the reg2hw and hw2reg structs.
//
// The registers drive the core's configuration (CTRL.ENABLE, BURST) and its
// table-write port: TBL_IDX and the staged TBL_* fields are the entry the
// one-cycle pulse of TBL_CMD.WRITE writes (the driver's dma_map, T3 Fig. 12),
// and TBL_RD_* read entry TBL_IDX back; CTRL.ERR_CLEAR clears the captured
// errors; BURST is locked while the core is busy. Interrupts, both levels:
// TBL_ERROR in every cycle a refused write is captured, MISS in every cycle
// an uncovered trigger is. Staged fields wider than this build's core takes
// are cut to its widths (PARAM_WIDTHS tells firmware); TBL_IDX and BURST
// reach the core whole, so that an index above the table and a burst size
// above MAX_BURST_LOG2 are refused, not wrapped.
//
// The C++ model of the same composition is hw/dma_trigger/dma_trigger.h.
//
// Parameters: the list is hw/dma_trigger/dma_trigger.yaml; the core
// checks their ranges at elaboration.
module dma_trigger #(
  parameter int unsigned ENTRIES        = 16,
  parameter int unsigned SLOTS          = 8,
  parameter int unsigned DESC_DEPTH     = 4,
  parameter int unsigned ADDR_W         = 48,
  parameter int unsigned WG_ID_W        = 12,
  parameter int unsigned WF_ID_W        = 3,
  parameter int unsigned GPU_W          = 4,
  parameter int unsigned DIM_W          = 16,
  parameter int unsigned MAX_BURST_LOG2 = 12,
  parameter int unsigned STAT_W         = 32,
  localparam int unsigned CNT_W   = $clog2(SLOTS + 1),
  localparam int unsigned BYTES_W = MAX_BURST_LOG2 + 1,
  localparam int unsigned REG_AW  = dma_trigger_reg_pkg::REG_AW
) (
  input  logic               clk_i,
  input  logic               rst_ni,

  // Registers (docs/registers/dma_trigger.md): the configuration and the table.
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

  // Triggers from the Tracker (T3 §4.2.1).
  input  logic               trig_valid_i,
  output logic               trig_ready_o,
  input  logic [WG_ID_W-1:0] trig_wg_id_i,
  input  logic [WF_ID_W-1:0] trig_wf_id_i,
  input  logic [ADDR_W-1:0]  trig_addr_i,

  // Burst descriptors to the DMA engine (see rtl/dma_trigger_core.sv).
  output logic               desc_valid_o,
  input  logic               desc_ready_i,
  output logic [ADDR_W-1:0]  desc_src_o,
  output logic [ADDR_W-1:0]  desc_dst_o,
  output logic [GPU_W-1:0]   desc_gpu_o,
  output logic [BYTES_W-1:0] desc_bytes_o,
  output logic               desc_op_o,
  output logic [WG_ID_W-1:0] desc_wg_o,
  output logic [WF_ID_W-1:0] desc_wf_o,
  output logic               desc_last_o,

  // Captured errors, status counters and busy: also in the registers
  // (STATUS, MISS_*, STAT_*); brought out for observation.
  output logic               tbl_err_o,
  output logic [3:0]         tbl_err_cause_o,
  output logic               miss_o,
  output logic [WG_ID_W-1:0] miss_wg_o,
  output logic [WF_ID_W-1:0] miss_wf_o,
  output logic [ADDR_W-1:0]  miss_addr_o,
  output logic [STAT_W-1:0]  stat_triggers_o,
  output logic [STAT_W-1:0]  stat_miss_o,
  output logic [STAT_W-1:0]  stat_descs_o,
  output logic [STAT_W-1:0]  stat_blocks_o,
  output logic [STAT_W-1:0]  stat_stalls_o,
  output logic               busy_o
);

  dma_trigger_reg_pkg::dma_trigger_reg2hw_t reg2hw;
  dma_trigger_reg_pkg::dma_trigger_hw2reg_t hw2reg;

  dma_trigger_reg_top u_reg (
    .clk_i, .rst_ni,
    .psel_i, .penable_i, .pwrite_i, .paddr_i, .pwdata_i, .pstrb_i,
    .prdata_o, .pready_o, .pslverr_o,
    .reg2hw_o (reg2hw),
    .hw2reg_i (hw2reg),
    .intr_o
  );

  logic               cfg_error, tbl_ready;
  logic               rd_valid;
  logic [1:0]         rd_op;
  logic [ADDR_W-1:0]  rd_src, rd_dst;
  logic [GPU_W-1:0]   rd_gpu;
  logic [CNT_W-1:0]   rd_k, rd_pending;
  logic [DIM_W-1:0]   rd_m, rd_n, rd_tr, rd_tc;
  logic [1:0]         rd_eb;

  dma_trigger_core #(
    .ENTRIES(ENTRIES), .SLOTS(SLOTS), .DESC_DEPTH(DESC_DEPTH), .ADDR_W(ADDR_W),
    .WG_ID_W(WG_ID_W), .WF_ID_W(WF_ID_W), .GPU_W(GPU_W), .DIM_W(DIM_W),
    .MAX_BURST_LOG2(MAX_BURST_LOG2), .STAT_W(STAT_W)
  ) u_core (
    .clk_i, .rst_ni,
    .cfg_enable_i          (reg2hw.ctrl_enable),
    .cfg_burst_log2_i      (reg2hw.burst_log2),
    .cfg_error_o           (cfg_error),
    .tbl_we_i              (reg2hw.tbl_cmd_write),
    .tbl_ready_o           (tbl_ready),
    .tbl_idx_i             (reg2hw.tbl_idx_idx),
    .tbl_valid_i           (reg2hw.tbl_ctrl_valid),
    .tbl_src_base_i        (ADDR_W'({reg2hw.tbl_src_hi_addr, reg2hw.tbl_src_lo_addr})),
    .tbl_dst_base_i        (ADDR_W'({reg2hw.tbl_dst_hi_addr, reg2hw.tbl_dst_lo_addr})),
    .tbl_dst_gpu_i         (GPU_W'(reg2hw.tbl_ctrl_dst_gpu)),
    .tbl_op_i              (reg2hw.tbl_ctrl_op),
    .tbl_tiles_per_block_i (CNT_W'(reg2hw.tbl_ctrl_tiles_per_block)),
    .tbl_m_i               (DIM_W'(reg2hw.tbl_m_value)),
    .tbl_n_i               (DIM_W'(reg2hw.tbl_n_value)),
    .tbl_elem_log2_i       (reg2hw.tbl_ctrl_elem_log2),
    .tbl_tile_rows_i       (DIM_W'(reg2hw.tbl_tile_rows_value)),
    .tbl_tile_cols_i       (DIM_W'(reg2hw.tbl_tile_cols_value)),
    .tbl_rd_idx_i          (reg2hw.tbl_idx_idx),
    .tbl_rd_valid_o        (rd_valid),
    .tbl_rd_src_base_o     (rd_src),
    .tbl_rd_dst_base_o     (rd_dst),
    .tbl_rd_dst_gpu_o      (rd_gpu),
    .tbl_rd_op_o           (rd_op),
    .tbl_rd_tiles_per_block_o (rd_k),
    .tbl_rd_m_o            (rd_m),
    .tbl_rd_n_o            (rd_n),
    .tbl_rd_elem_log2_o    (rd_eb),
    .tbl_rd_tile_rows_o    (rd_tr),
    .tbl_rd_tile_cols_o    (rd_tc),
    .tbl_rd_pending_o      (rd_pending),
    .trig_valid_i, .trig_ready_o, .trig_wg_id_i, .trig_wf_id_i, .trig_addr_i,
    .desc_valid_o, .desc_ready_i, .desc_src_o, .desc_dst_o, .desc_gpu_o, .desc_bytes_o,
    .desc_op_o, .desc_wg_o, .desc_wf_o, .desc_last_o,
    .tbl_err_o, .tbl_err_cause_o, .miss_o, .miss_wg_o, .miss_wf_o, .miss_addr_o,
    .err_clear_i           (reg2hw.ctrl_err_clear),
    .stat_triggers_o, .stat_miss_o, .stat_descs_o, .stat_blocks_o, .stat_stalls_o, .busy_o
  );

  // Addresses as the 64-bit register pairs show them.
  logic [63:0] miss_addr64, rd_src64, rd_dst64;
  assign miss_addr64 = 64'(miss_addr_o);
  assign rd_src64    = 64'(rd_src);
  assign rd_dst64    = 64'(rd_dst);

  always_comb begin
    hw2reg = '0;
    // Levels: set in every cycle the captured error lasts.
    hw2reg.intr_state_tbl_error_set    = tbl_err_o;
    hw2reg.intr_state_miss_set         = miss_o;
    hw2reg.status_cfg_error            = cfg_error;
    hw2reg.status_busy                 = busy_o;
    hw2reg.status_tbl_ready            = tbl_ready;
    hw2reg.status_tbl_err              = tbl_err_o;
    hw2reg.status_tbl_err_cause        = tbl_err_cause_o;
    hw2reg.status_miss                 = miss_o;
    hw2reg.miss_id_wg                  = 24'(miss_wg_o);
    hw2reg.miss_id_wf                  = 8'(miss_wf_o);
    hw2reg.miss_addr_lo_addr           = miss_addr64[31:0];
    hw2reg.miss_addr_hi_addr           = miss_addr64[63:32];
    hw2reg.tbl_rd_src_lo_addr          = rd_src64[31:0];
    hw2reg.tbl_rd_src_hi_addr          = rd_src64[63:32];
    hw2reg.tbl_rd_dst_lo_addr          = rd_dst64[31:0];
    hw2reg.tbl_rd_dst_hi_addr          = rd_dst64[63:32];
    hw2reg.tbl_rd_ctrl_valid           = rd_valid;
    hw2reg.tbl_rd_ctrl_op              = rd_op;
    hw2reg.tbl_rd_ctrl_elem_log2       = rd_eb;
    hw2reg.tbl_rd_ctrl_dst_gpu         = 8'(rd_gpu);
    hw2reg.tbl_rd_ctrl_tiles_per_block = 6'(rd_k);
    hw2reg.tbl_rd_ctrl_pending         = 6'(rd_pending);
    hw2reg.tbl_rd_m_value              = 24'(rd_m);
    hw2reg.tbl_rd_n_value              = 24'(rd_n);
    hw2reg.tbl_rd_tile_rows_value      = 24'(rd_tr);
    hw2reg.tbl_rd_tile_cols_value      = 24'(rd_tc);
    hw2reg.stat_triggers_count         = 32'(stat_triggers_o);
    hw2reg.stat_miss_count             = 32'(stat_miss_o);
    hw2reg.stat_descs_count            = 32'(stat_descs_o);
    hw2reg.stat_blocks_count           = 32'(stat_blocks_o);
    hw2reg.stat_stalls_count           = 32'(stat_stalls_o);
    hw2reg.param_table_entries         = 7'(ENTRIES);
    hw2reg.param_table_slots           = 6'(SLOTS);
    hw2reg.param_table_desc_depth      = 6'(DESC_DEPTH);
    hw2reg.param_table_max_burst_log2  = 5'(MAX_BURST_LOG2);
    hw2reg.param_widths_addr_w         = 7'(ADDR_W);
    hw2reg.param_widths_gpu_w          = 4'(GPU_W);
    hw2reg.param_widths_dim_w          = 5'(DIM_W);
    hw2reg.param_widths_stat_w         = 6'(STAT_W);
    hw2reg.param_ids_wg_id_w           = 6'(WG_ID_W);
    hw2reg.param_ids_wf_id_w           = 5'(WF_ID_W);
    hw2reg.busy                        = busy_o;
  end

  // Register bits above the widths this build's core takes (the fields are
  // as wide as the widest build; PARAM_* tell firmware), the interrupt
  // registers (the register block's own) and the address bits above ADDR_W
  // of the 64-bit views.
  logic unused_reg2hw;
  assign unused_reg2hw = ^{reg2hw.intr_state_tbl_error, reg2hw.intr_state_miss,
                           reg2hw.intr_enable_tbl_error, reg2hw.intr_enable_miss,
                           reg2hw.intr_test_tbl_error, reg2hw.intr_test_miss,
                           reg2hw.tbl_src_hi_addr, reg2hw.tbl_src_lo_addr,
                           reg2hw.tbl_dst_hi_addr, reg2hw.tbl_dst_lo_addr,
                           reg2hw.tbl_ctrl_dst_gpu, reg2hw.tbl_ctrl_tiles_per_block,
                           reg2hw.tbl_m_value, reg2hw.tbl_n_value,
                           reg2hw.tbl_tile_rows_value, reg2hw.tbl_tile_cols_value};

endmodule
