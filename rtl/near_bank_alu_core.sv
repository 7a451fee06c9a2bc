// T3 near-bank ALU core with its bank timing (T3 §4.3, §5.1.1, Table 1): READ,
// STORE (byte-masked) and ADD (op-and-store of fp16, bf16 or fp32 lanes) on
// one DRAM column burst. An ADD reads the burst inside the bank, adds its
// lanes to the command's in IEEE round-to-nearest-even (rtl/fp_add.sv, one
// adder per lane and format) and writes the result back under the byte mask.
//
// Pipeline, for a command accepted in cycle t: t+1 bank read (bank_rd_o),
// t+2 the data (bank_rdata_i) with the writes of t+1 and t+2 merged in, and
// the adders' inputs, t+3 a READ's response (rsp_valid_o), t+6 the write-back
// (bank_wr_o; the adders take 4 cycles). A reading command (READ, ADD) waits
// while a write to its address accepted 1..3 cycles before has not reached
// the bank; the writes 4 and 5 cycles older are forwarded into its data (the
// one of t+1 from a register, the one of t+2 straight from the write-back),
// so ADDs to one address still follow each other at tCCDWL = 4. Bank
// timing: tCCDS between column commands, tCCDL within a bank group, tCCDWL =
// 2 x tCCDL after an op-and-store (T3 §5.1.1); bg_ready_o says which bank
// groups may take a command now.
//
// The block firmware programs, rtl/near_bank_alu.sv, is this core behind its
// register block. The C++ cycle model hw/near_bank_alu/near_bank_alu_core.{h,cpp}
// implements exactly this behaviour; testbench/near_bank_alu compares the
// two (inside their blocks) every cycle and checks both against GNU MPFR.
//
// Parameters: the list is hw/near_bank_alu/near_bank_alu.yaml (defaults
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
  // Stage k holds the command accepted k cycles ago: the pipeline registers
  // of a command in flight, each read in its own stage (no array a storage
  // macro could hold: docs/blocks/near_bank_alu.md, Cost).
  localparam int unsigned NS = 6;  // stages: the write-back is stage 6
  logic               s_valid_q [1:NS];
  logic [1:0]         s_op_q    [1:NS];
  logic [1:0]         s_fmt_q   [1:NS];
  logic [BG_W-1:0]    s_bg_q    [1:NS];
  logic [ADDR_W-1:0]  s_addr_q  [1:NS];
  logic [DATA_W-1:0]  s_data_q  [1:NS];
  logic [BURST_BYTES-1:0] s_mask_q [1:NS];

  // Forwarding into stage 2's data. Where each byte comes from is decided a
  // cycle ahead, between stage 1 and the writes that will meet it in stage
  // 2, and registered as one-hot byte selects, so that neither an address
  // compare nor the write-back's format multiplexer sits in front of the
  // adders (the compare was the critical path: T3 §4.3's ordering in front
  // of the adder). The sources: the bank; the write of the cycle before (its
  // data in fwd_data_q); the write-back of this very cycle (stage 6), which
  // is a STORE's data or one format's sums.
  logic [DATA_W-1:0]  fwd_data_q;
  logic [BURST_BYTES-1:0] sel_bank_q, sel_fwd_q, sel_store_q, sel_fp16_q, sel_bf16_q, sel_fp32_q;
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
  // The bank's data (read-first array: the read in stage 1 missed the write
  // of that cycle), with the write of the cycle before and the write-back of
  // this cycle merged in where they hit the same address, the younger on top.
  logic               wr;
  logic [DATA_W-1:0]  wdata;
  logic [DATA_W-1:0]  rdata;
  logic [DATA_W-1:0]  y_fp16, y_bf16, y_fp32;
  always_comb begin
    for (int b = 0; b < BURST_BYTES; b++)
      rdata[8*b +: 8] = ({8{sel_bank_q[b]}}  & bank_rdata_i[8*b +: 8]) |
                        ({8{sel_fwd_q[b]}}   & fwd_data_q[8*b +: 8])   |
                        ({8{sel_store_q[b]}} & s_data_q[6][8*b +: 8])  |
                        ({8{sel_fp16_q[b]}}  & y_fp16[8*b +: 8])       |
                        ({8{sel_bf16_q[b]}}  & y_bf16[8*b +: 8])       |
                        ({8{sel_fp32_q[b]}}  & y_fp32[8*b +: 8]);
  end

  // The selects for the command entering stage 2: the write-back now (stage
  // 6) becomes the write of the cycle before; stage 5's becomes the
  // write-back, the younger, on top. Only what hits the same bank group and
  // address, under its mask; the bank for every other byte.
  logic [BURST_BYTES-1:0] fwd_hit, wb_hit;
  logic                   wb_add;
  always_comb begin
    fwd_hit = (wr && s_bg_q[6] == s_bg_q[1] && s_addr_q[6] == s_addr_q[1]) ? s_mask_q[6] : '0;
    wb_hit  = (writes(s_valid_q[5], s_op_q[5]) && s_bg_q[5] == s_bg_q[1] &&
               s_addr_q[5] == s_addr_q[1]) ? s_mask_q[5] : '0;
    wb_add  = s_op_q[5] == OP_ADD;
  end

  // One adder per lane and format; their 4 stages carry the ADD from stage 2
  // to stage 6. Only the adders of an ADD's format take its operands; the
  // others hold still (no switching), and only stage 6 of an ADD takes a sum.
  logic               add_fp16, add_bf16, add_fp32;
  always_comb begin
    add_fp16 = s_valid_q[2] && s_op_q[2] == OP_ADD && s_fmt_q[2] == FMT_FP16;
    add_bf16 = s_valid_q[2] && s_op_q[2] == OP_ADD && s_fmt_q[2] == FMT_BF16;
    add_fp32 = s_valid_q[2] && s_op_q[2] == OP_ADD && s_fmt_q[2] == FMT_FP32;
  end

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

  always_comb begin
    wr = writes(s_valid_q[6], s_op_q[6]);
    if (s_op_q[6] != OP_ADD)          wdata = s_data_q[6];
    else if (s_fmt_q[6] == FMT_FP16)  wdata = y_fp16;
    else if (s_fmt_q[6] == FMT_BF16)  wdata = y_bf16;
    else                              wdata = y_fp32;
  end

  // ---------------------------------------------------------------- state
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      for (int k = 1; k <= NS; k++) begin
        s_valid_q[k] <= 1'b0;
        s_op_q[k]    <= '0;
        s_fmt_q[k]   <= '0;
        s_bg_q[k]    <= '0;
        s_addr_q[k]  <= '0;
        s_data_q[k]  <= '0;
        s_mask_q[k]  <= '0;
      end
      fwd_data_q  <= '0;
      sel_bank_q  <= '0;
      sel_fwd_q   <= '0;
      sel_store_q <= '0;
      sel_fp16_q  <= '0;
      sel_bf16_q  <= '0;
      sel_fp32_q  <= '0;
      rsp_valid_q <= 1'b0;
      rsp_data_q  <= '0;
    end else begin
      for (int k = NS; k >= 2; k--) begin
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
      if (wr) fwd_data_q <= wdata;
      // The same choice as wdata's, a cycle ahead (an ADD's format is never
      // 3 in the pipeline: refused).
      sel_bank_q  <= ~(wb_hit | fwd_hit);
      sel_fwd_q   <= fwd_hit & ~wb_hit;
      sel_store_q <= wb_add ? '0 : wb_hit;
      sel_fp16_q  <= wb_add && s_fmt_q[5] == FMT_FP16 ? wb_hit : '0;
      sel_bf16_q  <= wb_add && s_fmt_q[5] == FMT_BF16 ? wb_hit : '0;
      sel_fp32_q  <= wb_add && s_fmt_q[5] != FMT_FP16 && s_fmt_q[5] != FMT_BF16 ? wb_hit : '0;
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
    bank_wr_bg_o   = wr ? s_bg_q[6] : '0;
    bank_wr_addr_o = wr ? s_addr_q[6] : '0;
    bank_wdata_o   = wr ? wdata : '0;
    bank_wmask_o   = wr ? s_mask_q[6] : '0;
    rsp_valid_o    = rsp_valid_q;
    rsp_data_o     = rsp_valid_q ? rsp_data_q : '0;
  end

  assign busy_o               = s_valid_q[1] || s_valid_q[2] || s_valid_q[3] || s_valid_q[4] ||
                                s_valid_q[5] || s_valid_q[6];
  assign err_o                = err_q;
  assign stat_reads_o         = stat_reads_q;
  assign stat_stores_o        = stat_stores_q;
  assign stat_adds_o          = stat_adds_q;
  assign stat_refused_o       = stat_refused_q;
  assign stat_hazard_stalls_o = stat_hazard_q;
  assign stat_timing_stalls_o = stat_timing_q;

endmodule
