// T3 near-bank ALU core with its bank timing (T3 §4.3, §5.1.1, Table 1): READ,
// STORE (byte-masked) and ADD (op-and-store of fp16, bf16 or fp32 lanes) on
// one DRAM column burst. An ADD reads the burst inside the bank, adds its
// lanes to the command's in IEEE round-to-nearest-even (rtl/fp_add.sv, one
// adder per lane and format) and writes the result back under the byte mask.
//
// Pipeline, for a command accepted in cycle t: t+1 bank read (bank_rd_o),
// t+2 the data (bank_rdata_i) with the write of t+1 merged in and the adders'
// inputs, t+3 a READ's response (rsp_valid_o), t+5 the write-back
// (bank_wr_o). A reading command (READ, ADD) waits while a write to its
// address accepted 1..3 cycles before has not reached the bank; the write 4
// cycles older reaches it in the cycle of the read and is forwarded. Bank
// timing: tCCDS between column commands, tCCDL within a bank group, tCCDWL =
// 2 x tCCDL after an op-and-store (T3 §5.1.1); bg_ready_o says which bank
// groups may take a command now.
//
// The block firmware programs, rtl/near_bank_alu.sv, is this core behind its
// register block. The C++ cycle model hw/near_bank_alu/near_bank_alu_core.{h,cpp}
// implements exactly this behaviour; testbench/near_bank_alu compares the
// two (inside their blocks) every cycle and checks both against GNU MPFR.
//
// Parameters: the list is hw/near_bank_alu/near_bank_alu_params.def (defaults
// and ranges there; scripts/check_params.py holds the block to it).
module near_bank_alu_core #(
  parameter int unsigned BURST_BYTES = 32,  // power of two 16..64
  parameter int unsigned BG          = 4,   // power of two 1..16 bank groups
  parameter int unsigned ADDR_W      = 20,  // 1..32: a burst within its bank group
  parameter int unsigned T_CCDS      = 1,   // 1..15
  parameter int unsigned T_CCDL      = 2,   // T_CCDS..15
  parameter int unsigned T_CCDWL     = 4,   // T_CCDL..15
  parameter int unsigned STAT_W      = 32,  // 1..32
  localparam int unsigned DATA_W = BURST_BYTES * 8,
  localparam int unsigned BG_W   = (BG > 1) ? $clog2(BG) : 1
) (
  input  logic               clk_i,
  input  logic               rst_ni,

  // Column commands from the memory controller's queue.
  input  logic               cmd_valid_i,
  output logic               cmd_ready_o,
  input  logic [1:0]         cmd_op_i,    // 0 READ, 1 STORE, 2 ADD (3 refused)
  input  logic [1:0]         cmd_fmt_i,   // ADD lanes: 0 fp16, 1 bf16, 2 fp32 (3 refused)
  input  logic [BG_W-1:0]    cmd_bg_i,
  input  logic [ADDR_W-1:0]  cmd_addr_i,
  input  logic [DATA_W-1:0]  cmd_data_i,
  input  logic [BURST_BYTES-1:0] cmd_mask_i,  // bytes written by STORE and ADD
  output logic [BG-1:0]      bg_ready_o,  // bank group g may take a command now

  // The DRAM bank array: a registered read, a byte-masked write; a read and
  // a write of one address in one cycle read the old data.
  output logic               bank_rd_o,
  output logic [BG_W-1:0]    bank_rd_bg_o,
  output logic [ADDR_W-1:0]  bank_rd_addr_o,
  input  logic [DATA_W-1:0]  bank_rdata_i,  // the burst read in the cycle before
  output logic               bank_wr_o,
  output logic [BG_W-1:0]    bank_wr_bg_o,
  output logic [ADDR_W-1:0]  bank_wr_addr_o,
  output logic [DATA_W-1:0]  bank_wdata_o,
  output logic [BURST_BYTES-1:0] bank_wmask_o,

  output logic               rsp_valid_o,  // a READ's burst (no back-pressure: fixed latency)
  output logic [DATA_W-1:0]  rsp_data_o,

  // Status (the registers read it).
  output logic               busy_o,       // a command is in the pipeline
  output logic               err_o,        // sticky: a refused command was taken
  input  logic               err_clear_i,  // a refusal in the same cycle wins
  output logic [STAT_W-1:0]  stat_reads_o,
  output logic [STAT_W-1:0]  stat_stores_o,
  output logic [STAT_W-1:0]  stat_adds_o,
  output logic [STAT_W-1:0]  stat_refused_o,
  output logic [STAT_W-1:0]  stat_hazard_stalls_o,  // cycles waiting for an older write
  output logic [STAT_W-1:0]  stat_timing_stalls_o   // cycles waiting for bank timing
);

  localparam int unsigned L16 = BURST_BYTES / 2;
  localparam int unsigned L32 = BURST_BYTES / 4;
  localparam logic [1:0] OP_READ = 2'd0, OP_STORE = 2'd1, OP_ADD = 2'd2;
  localparam logic [1:0] FMT_FP16 = 2'd0, FMT_BF16 = 2'd1, FMT_FP32 = 2'd2;

  // ------------------------------------------------- parameter ranges (elaboration)
  if (BURST_BYTES < 16 || BURST_BYTES > 64 || (BURST_BYTES & (BURST_BYTES - 1)) != 0) begin : g_bad_burst_bytes
    $error("BURST_BYTES = %0d is out of range; allowed: a power of two from 16 to 64", BURST_BYTES);
  end
  if (BG < 1 || BG > 16 || (BG & (BG - 1)) != 0) begin : g_bad_bg
    $error("BG = %0d is out of range; allowed: a power of two from 1 to 16", BG);
  end
  if (ADDR_W < 1 || ADDR_W > 32) begin : g_bad_addr_w
    $error("ADDR_W = %0d is out of range; allowed: 1..32", ADDR_W);
  end
  if (T_CCDS < 1 || T_CCDS > 15) begin : g_bad_t_ccds
    $error("T_CCDS = %0d is out of range; allowed: 1..15", T_CCDS);
  end
  if (T_CCDL < 1 || T_CCDL > 15 || T_CCDL < T_CCDS) begin : g_bad_t_ccdl
    $error("T_CCDL = %0d is out of range; allowed: T_CCDS = %0d..15", T_CCDL, T_CCDS);
  end
  if (T_CCDWL < 1 || T_CCDWL > 15 || T_CCDWL < T_CCDL) begin : g_bad_t_ccdwl
    $error("T_CCDWL = %0d is out of range; allowed: T_CCDL = %0d..15", T_CCDWL, T_CCDL);
  end
  if (STAT_W < 1 || STAT_W > 32) begin : g_bad_stat_w
    $error("STAT_W = %0d is out of range; allowed: 1..32", STAT_W);
  end

  // ------------------------------------------------------------- pipeline
  // Stage k holds the command accepted k cycles ago.
  logic               s_valid_q [1:5];
  logic [1:0]         s_op_q    [1:5];
  logic [1:0]         s_fmt_q   [1:5];
  logic [BG_W-1:0]    s_bg_q    [1:5];
  logic [ADDR_W-1:0]  s_addr_q  [1:5];
  logic [DATA_W-1:0]  s_data_q  [1:5];
  logic [BURST_BYTES-1:0] s_mask_q [1:5];

  logic               fwd_valid_q;
  logic [BG_W-1:0]    fwd_bg_q;
  logic [ADDR_W-1:0]  fwd_addr_q;
  logic [DATA_W-1:0]  fwd_data_q;
  logic [BURST_BYTES-1:0] fwd_mask_q;
  logic               rsp_valid_q;
  logic [DATA_W-1:0]  rsp_data_q;
  logic [3:0]         wait_any_q;
  logic [3:0]         wait_bg_q [BG];
  logic               err_q;
  logic [STAT_W-1:0]  stat_reads_q, stat_stores_q, stat_adds_q, stat_refused_q;
  logic [STAT_W-1:0]  stat_hazard_q, stat_timing_q;

  function automatic logic writes(input logic valid, input logic [1:0] op);
    writes = valid && (op == OP_STORE || op == OP_ADD);
  endfunction

  // ------------------------------------------------------------- decision
  // The rule of nb_command_fault() in hw/near_bank_alu/near_bank_alu_core.cpp.
  logic               refused, cmd_reads, hazard, timing_ok, accept;
  logic [BG_W-1:0]    cmd_bg;
  always_comb begin
    refused   = cmd_op_i == 2'd3 || (cmd_op_i == OP_ADD && cmd_fmt_i == 2'd3);
    cmd_bg    = cmd_bg_i & BG_W'(BG - 1);
    cmd_reads = cmd_op_i == OP_READ || cmd_op_i == OP_ADD;
    hazard    = 1'b0;
    for (int k = 1; k <= 3; k++)
      if (cmd_reads && writes(s_valid_q[k], s_op_q[k]) && s_bg_q[k] == cmd_bg &&
          s_addr_q[k] == cmd_addr_i)
        hazard = 1'b1;
    timing_ok   = wait_any_q == '0 && wait_bg_q[cmd_bg] == '0;
    cmd_ready_o = refused || (timing_ok && !hazard);
    accept      = cmd_valid_i && cmd_ready_o;
    for (int g = 0; g < BG; g++) bg_ready_o[g] = wait_any_q == '0 && wait_bg_q[g] == '0;
  end

  // ------------------------------------------------- read data and adders
  // The bank's data, with the write of the cycle before merged in where it
  // hit the same address (read-first array: the read missed it).
  logic [DATA_W-1:0]  rdata;
  always_comb begin
    rdata = bank_rdata_i;
    if (fwd_valid_q && fwd_bg_q == s_bg_q[2] && fwd_addr_q == s_addr_q[2])
      for (int b = 0; b < BURST_BYTES; b++)
        if (fwd_mask_q[b]) rdata[8*b +: 8] = fwd_data_q[8*b +: 8];
  end

  // One adder per lane and format; their 3 stages carry the ADD from stage 2
  // to stage 5. Only the adders of an ADD's format take its operands; the
  // others hold still (no switching), and only stage 5 of an ADD takes a sum.
  logic               add_fp16, add_bf16, add_fp32;
  always_comb begin
    add_fp16 = s_valid_q[2] && s_op_q[2] == OP_ADD && s_fmt_q[2] == FMT_FP16;
    add_bf16 = s_valid_q[2] && s_op_q[2] == OP_ADD && s_fmt_q[2] == FMT_BF16;
    add_fp32 = s_valid_q[2] && s_op_q[2] == OP_ADD && s_fmt_q[2] == FMT_FP32;
  end

  logic [DATA_W-1:0]  y_fp16, y_bf16, y_fp32;
  for (genvar i = 0; i < L16; i++) begin : g_lane16
    fp_add #(.EXP_W(5), .MAN_W(10)) u_fp16 (
      .clk_i, .valid_i(add_fp16), .a_i(rdata[16*i +: 16]), .b_i(s_data_q[2][16*i +: 16]),
      .y_o(y_fp16[16*i +: 16]));
    fp_add #(.EXP_W(8), .MAN_W(7)) u_bf16 (
      .clk_i, .valid_i(add_bf16), .a_i(rdata[16*i +: 16]), .b_i(s_data_q[2][16*i +: 16]),
      .y_o(y_bf16[16*i +: 16]));
  end
  for (genvar i = 0; i < L32; i++) begin : g_lane32
    fp_add #(.EXP_W(8), .MAN_W(23)) u_fp32 (
      .clk_i, .valid_i(add_fp32), .a_i(rdata[32*i +: 32]), .b_i(s_data_q[2][32*i +: 32]),
      .y_o(y_fp32[32*i +: 32]));
  end

  logic               wr;
  logic [DATA_W-1:0]  wdata;
  always_comb begin
    wr = writes(s_valid_q[5], s_op_q[5]);
    if (s_op_q[5] != OP_ADD)          wdata = s_data_q[5];
    else if (s_fmt_q[5] == FMT_FP16)  wdata = y_fp16;
    else if (s_fmt_q[5] == FMT_BF16)  wdata = y_bf16;
    else                              wdata = y_fp32;
  end

  // ---------------------------------------------------------------- state
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      for (int k = 1; k <= 5; k++) begin
        s_valid_q[k] <= 1'b0;
        s_op_q[k]    <= '0;
        s_fmt_q[k]   <= '0;
        s_bg_q[k]    <= '0;
        s_addr_q[k]  <= '0;
        s_data_q[k]  <= '0;
        s_mask_q[k]  <= '0;
      end
      fwd_valid_q <= 1'b0;
      fwd_bg_q    <= '0;
      fwd_addr_q  <= '0;
      fwd_data_q  <= '0;
      fwd_mask_q  <= '0;
      rsp_valid_q <= 1'b0;
      rsp_data_q  <= '0;
    end else begin
      for (int k = 5; k >= 2; k--) begin
        s_valid_q[k] <= s_valid_q[k-1];
        s_op_q[k]    <= s_op_q[k-1];
        s_fmt_q[k]   <= s_fmt_q[k-1];
        s_bg_q[k]    <= s_bg_q[k-1];
        s_addr_q[k]  <= s_addr_q[k-1];
        s_data_q[k]  <= s_data_q[k-1];
        s_mask_q[k]  <= s_mask_q[k-1];
      end
      s_valid_q[1] <= accept && !refused;
      if (accept && !refused) begin
        s_op_q[1]   <= cmd_op_i;
        s_fmt_q[1]  <= cmd_fmt_i;
        s_bg_q[1]   <= cmd_bg;
        s_addr_q[1] <= cmd_addr_i;
        s_data_q[1] <= cmd_data_i;
        s_mask_q[1] <= cmd_mask_i;
      end else begin
        // An empty stage carries no data: the pins show zeros.
        s_op_q[1]   <= '0;
        s_fmt_q[1]  <= '0;
        s_bg_q[1]   <= '0;
        s_addr_q[1] <= '0;
        s_data_q[1] <= '0;
        s_mask_q[1] <= '0;
      end
      fwd_valid_q <= wr;
      if (wr) begin
        fwd_bg_q   <= s_bg_q[5];
        fwd_addr_q <= s_addr_q[5];
        fwd_data_q <= wdata;
        fwd_mask_q <= s_mask_q[5];
      end
      rsp_valid_q <= s_valid_q[2] && s_op_q[2] == OP_READ;
      if (s_valid_q[2] && s_op_q[2] == OP_READ) rsp_data_q <= rdata;
    end
  end

  // Bank timing (T3 §5.1.1): the wait after a command, counted down.
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      wait_any_q <= '0;
      for (int g = 0; g < BG; g++) wait_bg_q[g] <= '0;
    end else begin
      if (accept && !refused) wait_any_q <= 4'(T_CCDS - 1);
      else if (wait_any_q != '0) wait_any_q <= wait_any_q - 1'b1;
      for (int g = 0; g < BG; g++)
        if (accept && !refused && BG_W'(g) == cmd_bg)
          wait_bg_q[g] <= (cmd_op_i == OP_ADD) ? 4'(T_CCDWL - 1) : 4'(T_CCDL - 1);
        else if (wait_bg_q[g] != '0)
          wait_bg_q[g] <= wait_bg_q[g] - 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      err_q         <= 1'b0;
      stat_reads_q  <= '0;
      stat_stores_q <= '0;
      stat_adds_q   <= '0;
      stat_refused_q <= '0;
      stat_hazard_q <= '0;
      stat_timing_q <= '0;
    end else begin
      // A clear and a new refusal in one cycle leave the flag set.
      if (accept && refused) err_q <= 1'b1;
      else if (err_clear_i)  err_q <= 1'b0;
      if (accept && refused)                          stat_refused_q <= stat_refused_q + 1'b1;
      if (accept && !refused && cmd_op_i == OP_READ)  stat_reads_q   <= stat_reads_q + 1'b1;
      if (accept && !refused && cmd_op_i == OP_STORE) stat_stores_q  <= stat_stores_q + 1'b1;
      if (accept && !refused && cmd_op_i == OP_ADD)   stat_adds_q    <= stat_adds_q + 1'b1;
      if (cmd_valid_i && !refused && hazard)          stat_hazard_q  <= stat_hazard_q + 1'b1;
      if (cmd_valid_i && !refused && !timing_ok)      stat_timing_q  <= stat_timing_q + 1'b1;
    end
  end

  // -------------------------------------------------------------- outputs
  always_comb begin
    bank_rd_o      = s_valid_q[1] && (s_op_q[1] == OP_READ || s_op_q[1] == OP_ADD);
    bank_rd_bg_o   = bank_rd_o ? s_bg_q[1] : '0;
    bank_rd_addr_o = bank_rd_o ? s_addr_q[1] : '0;
    bank_wr_o      = wr;
    bank_wr_bg_o   = wr ? s_bg_q[5] : '0;
    bank_wr_addr_o = wr ? s_addr_q[5] : '0;
    bank_wdata_o   = wr ? wdata : '0;
    bank_wmask_o   = wr ? s_mask_q[5] : '0;
    rsp_valid_o    = rsp_valid_q;
    rsp_data_o     = rsp_valid_q ? rsp_data_q : '0;
  end

  assign busy_o               = s_valid_q[1] || s_valid_q[2] || s_valid_q[3] || s_valid_q[4] ||
                                s_valid_q[5];
  assign err_o                = err_q;
  assign stat_reads_o         = stat_reads_q;
  assign stat_stores_o        = stat_stores_q;
  assign stat_adds_o          = stat_adds_q;
  assign stat_refused_o       = stat_refused_q;
  assign stat_hazard_stalls_o = stat_hazard_q;
  assign stat_timing_stalls_o = stat_timing_q;

endmodule
