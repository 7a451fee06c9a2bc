// The endpoint's translation windows (ISCA 2020 in-network collectives
// paper, §IV, "ATS"). The C++ model of the same core is
// hw/ep_window/ep_window_core.{h,cpp}; the block around it, rtl/ep_window.sv,
// is generated from hw/ep_window/ep_window.yaml. A window command (the
// registers' WIN_CMD pulse) checks the staged window in one cycle and writes
// it or records the first rule it breaks (docs/blocks/ep_window.md). Flops,
// not rtl/t3_mem.sv: every window is compared in every cycle (three lookups,
// the overlap checks) and the whole table is on tbl_o.
module ep_window_core #(
  parameter int unsigned WINDOWS     = 4,
  parameter int unsigned FLIT_W      = 128,
  parameter int unsigned COUNT_DEPTH = 4096,
  parameter int unsigned MEM_BYTES   = 1048576,
  localparam int unsigned WIN_W = (WINDOWS > 1) ? $clog2(WINDOWS) : 1,
  localparam int unsigned CTR_W = (COUNT_DEPTH > 1) ? $clog2(COUNT_DEPTH) : 1,
  localparam int unsigned REC_W = ep_window_pkg::REC_W,
  localparam int unsigned TBL_W = (WINDOWS * REC_W + 127) / 128 * 128
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // lookups (combinational)
  input  logic [47:0]        la_addr_i,
  input  logic [7:0]         la_len_i,
  output logic               la_hit_o,
  output logic [WIN_W-1:0]   la_win_o,
  input  logic [47:0]        lb_addr_i,
  input  logic [7:0]         lb_len_i,
  output logic               lb_hit_o,
  output logic [WIN_W-1:0]   lb_win_o,
  input  logic [CTR_W-1:0]   lc_ctr_i,
  output logic               lc_hit_o,
  output logic [WIN_W-1:0]   lc_win_o,
  output logic [TBL_W-1:0]   tbl_o,
  // from the registers
  input  logic               cmd_write_i,
  input  logic               cmd_clear_i,
  input  logic [3:0]         idx_i,
  input  logic [47:0]        stg_net_base_i,
  input  logic [31:0]        stg_bytes_i,
  input  logic [31:0]        stg_src_i,
  input  logic [31:0]        stg_dst_i,
  input  logic [31:0]        stg_merge_i,
  input  logic [31:0]        stg_stage_i,
  input  logic [20:0]        stg_count_base_i,
  input  logic [7:0]         stg_expected_i,
  input  logic [1:0]         stg_dtype_i,
  input  logic               stg_home_i,
  input  logic               stg_det_i,
  input  logic [1:0]         stg_copy_i,
  input  logic [31:0]        stg_mask_i,
  // to the registers
  output logic [4:0]         cause_o,
  output logic [3:0]         cause_with_o,
  output logic               ev_refused_o,
  output logic [WINDOWS-1:0] valid_o,
  output logic [47:0]        rd_net_base_o,
  output logic [31:0]        rd_bytes_o,
  output logic [31:0]        rd_src_o,
  output logic [31:0]        rd_dst_o,
  output logic [31:0]        rd_merge_o,
  output logic [31:0]        rd_stage_o,
  output logic [20:0]        rd_count_base_o,
  output logic [7:0]         rd_expected_o,
  output logic [1:0]         rd_dtype_o,
  output logic               rd_home_o,
  output logic               rd_det_o,
  output logic [1:0]         rd_copy_o,
  output logic               rd_valid_o,
  output logic [31:0]        rd_mask_o
);

  localparam int unsigned FB     = FLIT_W / 8;
  localparam int unsigned FB_LOG = $clog2(FB);
  localparam logic [63:0] FB64   = 64'(FB);
  localparam logic [63:0] MB64   = 64'(MEM_BYTES);
  localparam logic [63:0] CD64   = 64'(COUNT_DEPTH);

  // The causes (EpWinCause in C++, STATUS.CAUSE).
  localparam logic [4:0] C_NONE = 5'd0, C_INDEX = 5'd1, C_BYTES = 5'd2, C_NET_BASE = 5'd3,
                         C_SRC = 5'd4, C_DST = 5'd5, C_MERGE = 5'd6, C_COUNT_BASE = 5'd7,
                         C_EXPECTED = 5'd8, C_DTYPE = 5'd9, C_MERGE_SRC = 5'd10, C_COPY = 5'd11,
                         C_COPY_HOME = 5'd12, C_DET_HOME = 5'd13, C_MASK = 5'd14, C_STAGE = 5'd15,
                         C_STAGE_OVERLAP = 5'd16, C_NET_OVERLAP = 5'd17, C_COUNT_OVERLAP = 5'd18;

  // The table, a flat vector a field (as mcr_table's regions): window w's
  // net base is net_q[w*48 +: 48]. yosys 0.23 loses state kept as an
  // unpacked array of structs.
  logic [WINDOWS-1:0]    valid_q, home_q, det_q;
  logic [2*WINDOWS-1:0]  dtype_q, copy_q;
  logic [8*WINDOWS-1:0]  exp_q;
  logic [21*WINDOWS-1:0] cb_q;
  logic [48*WINDOWS-1:0] net_q;
  logic [32*WINDOWS-1:0] bytes_q, src_q, dst_q, merge_q, stage_q, mask_q;
  logic [4:0] cause_q;
  logic [3:0] with_q;

  // yosys 0.23: functions assign their name (no return), and locals live at
  // module scope.
  function automatic logic overlap(input logic [63:0] a, input logic [63:0] an,
                                   input logic [63:0] b, input logic [63:0] bn);
    overlap = a < b + bn && b < a + an;
  endfunction

  // Not flit-aligned, or not inside MEM_BYTES with bytes after it.
  function automatic logic buf_bad(input logic [31:0] a, input logic [63:0] bytes);
    buf_bad = (64'(a) & (FB64 - 1)) != 0 || 64'(a) > MB64 || bytes > MB64 - 64'(a);
  endfunction

  // The table on its pin (ep_window_pkg::ep_win_t a window), and the
  // read-back of window idx_i.
  always_comb begin
    tbl_o = '0;  // the padding to a multiple of 128 bits
    for (int w = 0; w < WINDOWS; w++) begin
      tbl_o[w*REC_W +: REC_W] = {mask_q[w*32 +: 32], stage_q[w*32 +: 32], merge_q[w*32 +: 32],
                                 dst_q[w*32 +: 32], src_q[w*32 +: 32], bytes_q[w*32 +: 32],
                                 net_q[w*48 +: 48], cb_q[w*21 +: 21], exp_q[w*8 +: 8],
                                 copy_q[w*2 +: 2], dtype_q[w*2 +: 2], det_q[w], home_q[w], valid_q[w]};
    end
  end
  assign valid_o = valid_q;

  always_comb begin
    rd_net_base_o   = '0;
    rd_bytes_o      = '0;
    rd_src_o        = '0;
    rd_dst_o        = '0;
    rd_merge_o      = '0;
    rd_stage_o      = '0;
    rd_count_base_o = '0;
    rd_expected_o   = '0;
    rd_dtype_o      = '0;
    rd_home_o       = 1'b0;
    rd_det_o        = 1'b0;
    rd_copy_o       = '0;
    rd_valid_o      = 1'b0;
    rd_mask_o       = '0;
    for (int w = 0; w < WINDOWS; w++) begin
      if (32'(idx_i) == w) begin
        rd_net_base_o   = net_q[w*48 +: 48];
        rd_bytes_o      = bytes_q[w*32 +: 32];
        rd_src_o        = src_q[w*32 +: 32];
        rd_dst_o        = dst_q[w*32 +: 32];
        rd_merge_o      = merge_q[w*32 +: 32];
        rd_stage_o      = stage_q[w*32 +: 32];
        rd_count_base_o = cb_q[w*21 +: 21];
        rd_expected_o   = exp_q[w*8 +: 8];
        rd_dtype_o      = dtype_q[w*2 +: 2];
        rd_home_o       = home_q[w];
        rd_det_o        = det_q[w];
        rd_copy_o       = copy_q[w*2 +: 2];
        rd_valid_o      = valid_q[w];
        rd_mask_o       = mask_q[w*32 +: 32];
      end
    end
  end

  // Lookups: the lowest window that holds the packet (a, len flits) whole.
  function automatic logic holds(input logic valid, input logic [47:0] base, input logic [31:0] bytes,
                                 input logic [47:0] a, input logic [7:0] len);
    holds = valid && a >= base && 64'(a) - 64'(base) + (64'(len) << FB_LOG) <= 64'(bytes);
  endfunction

  always_comb begin
    la_hit_o = 1'b0;
    la_win_o = '0;
    lb_hit_o = 1'b0;
    lb_win_o = '0;
    lc_hit_o = 1'b0;
    lc_win_o = '0;
    for (int w = WINDOWS - 1; w >= 0; w--) begin
      if (holds(valid_q[w], net_q[w*48 +: 48], bytes_q[w*32 +: 32], la_addr_i, la_len_i)) begin
        la_hit_o = 1'b1;
        la_win_o = WIN_W'(w);
      end
      if (holds(valid_q[w], net_q[w*48 +: 48], bytes_q[w*32 +: 32], lb_addr_i, lb_len_i)) begin
        lb_hit_o = 1'b1;
        lb_win_o = WIN_W'(w);
      end
      if (valid_q[w] && copy_q[w*2 +: 2] == 2'd0 && 32'(lc_ctr_i) >= 32'(cb_q[w*21 +: 21]) &&
          32'(lc_ctr_i) - 32'(cb_q[w*21 +: 21]) < (bytes_q[w*32 +: 32] >> FB_LOG)) begin
        lc_hit_o = 1'b1;
        lc_win_o = WIN_W'(w);
      end
    end
  end

  // The command's verdict: the first rule the staged window breaks, in
  // check_window()'s order.
  logic [4:0]  v_cause;
  logic [3:0]  v_with;
  logic [63:0] bytes, lines, staged, ones;
  logic        net_ovl, cnt_ovl;
  logic [3:0]  net_with, cnt_with;
  always_comb begin
    bytes  = 64'(stg_bytes_i);
    lines  = (stg_copy_i != 2'd0) ? 64'd0 : bytes >> FB_LOG;
    staged = 64'(stg_expected_i) * bytes;
    ones   = '0;
    for (int i = 0; i < 32; i++) ones = ones + 64'(stg_mask_i[i]);
    net_ovl  = 1'b0;
    cnt_ovl  = 1'b0;
    net_with = '0;
    cnt_with = '0;
    for (int j = WINDOWS - 1; j >= 0; j--) begin
      if (32'(idx_i) != j && valid_q[j]) begin
        if (overlap(64'(stg_net_base_i), bytes, 64'(net_q[j*48 +: 48]), 64'(bytes_q[j*32 +: 32]))) begin
          net_ovl  = 1'b1;
          net_with = 4'(j);
        end
        if (stg_copy_i == 2'd0 && copy_q[j*2 +: 2] == 2'd0 &&
            overlap(64'(stg_count_base_i), lines, 64'(cb_q[j*21 +: 21]),
                    64'(bytes_q[j*32 +: 32]) >> FB_LOG)) begin
          cnt_ovl  = 1'b1;
          cnt_with = 4'(j);
        end
      end
    end
    v_with = '0;
    if (!cmd_write_i) v_cause = (32'(idx_i) >= WINDOWS) ? C_INDEX : C_NONE;
    else if (32'(idx_i) >= WINDOWS) v_cause = C_INDEX;
    else if (bytes == 0 || (bytes & (FB64 - 1)) != 0) v_cause = C_BYTES;
    else if ((64'(stg_net_base_i) & (FB64 - 1)) != 0 || 64'(stg_net_base_i) + bytes > 64'h1_0000_0000_0000)
      v_cause = C_NET_BASE;
    else if (buf_bad(stg_src_i, bytes)) v_cause = C_SRC;
    else if (buf_bad(stg_dst_i, bytes)) v_cause = C_DST;
    else if (buf_bad(stg_merge_i, bytes)) v_cause = C_MERGE;
    else if (64'(stg_count_base_i) > CD64 || lines > CD64 - 64'(stg_count_base_i)) v_cause = C_COUNT_BASE;
    else if (stg_expected_i < 8'd2) v_cause = C_EXPECTED;
    else if (stg_dtype_i > 2'd2) v_cause = C_DTYPE;
    else if (stg_home_i && overlap(64'(stg_merge_i), bytes, 64'(stg_src_i), bytes)) v_cause = C_MERGE_SRC;
    else if (stg_copy_i > 2'd2) v_cause = C_COPY;
    else if (stg_copy_i != 2'd0 && (stg_home_i || stg_det_i)) v_cause = C_COPY_HOME;
    else if (stg_det_i && !stg_home_i) v_cause = C_DET_HOME;
    else if (stg_det_i && ones != 64'(stg_expected_i)) v_cause = C_MASK;
    else if (stg_det_i && ((64'(stg_stage_i) & (FB64 - 1)) != 0 || 64'(stg_stage_i) > MB64 ||
                           staged > MB64 - 64'(stg_stage_i)))
      v_cause = C_STAGE;
    else if (stg_det_i && (overlap(64'(stg_stage_i), staged, 64'(stg_src_i), bytes) ||
                           overlap(64'(stg_stage_i), staged, 64'(stg_dst_i), bytes) ||
                           overlap(64'(stg_stage_i), staged, 64'(stg_merge_i), bytes)))
      v_cause = C_STAGE_OVERLAP;
    else if (net_ovl) begin
      v_cause = C_NET_OVERLAP;
      v_with  = net_with;
    end else if (cnt_ovl) begin
      v_cause = C_COUNT_OVERLAP;
      v_with  = cnt_with;
    end else v_cause = C_NONE;
  end

  assign cause_o      = cause_q;
  assign cause_with_o = with_q;
  assign ev_refused_o = (cmd_write_i || cmd_clear_i) && v_cause != C_NONE;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      valid_q <= '0;
      home_q  <= '0;
      det_q   <= '0;
      dtype_q <= '0;
      copy_q  <= '0;
      exp_q   <= '0;
      cb_q    <= '0;
      net_q   <= '0;
      bytes_q <= '0;
      src_q   <= '0;
      dst_q   <= '0;
      merge_q <= '0;
      stage_q <= '0;
      mask_q  <= '0;
      cause_q <= '0;
      with_q  <= '0;
    end else if (cmd_write_i || cmd_clear_i) begin
      cause_q <= v_cause;
      with_q  <= v_with;
      for (int w = 0; w < WINDOWS; w++) begin
        if (v_cause == C_NONE && 32'(idx_i) == w) begin
          valid_q[w] <= cmd_write_i;
          if (cmd_write_i) begin
            home_q[w]           <= stg_home_i;
            det_q[w]            <= stg_det_i;
            dtype_q[w*2 +: 2]   <= stg_dtype_i;
            copy_q[w*2 +: 2]    <= stg_copy_i;
            exp_q[w*8 +: 8]     <= stg_expected_i;
            cb_q[w*21 +: 21]    <= stg_count_base_i;
            net_q[w*48 +: 48]   <= stg_net_base_i;
            bytes_q[w*32 +: 32] <= stg_bytes_i;
            src_q[w*32 +: 32]   <= stg_src_i;
            dst_q[w*32 +: 32]   <= stg_dst_i;
            merge_q[w*32 +: 32] <= stg_merge_i;
            stage_q[w*32 +: 32] <= stg_stage_i;
            mask_q[w*32 +: 32]  <= stg_mask_i;
          end
        end
      end
    end
  end

endmodule
