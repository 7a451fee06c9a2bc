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

  // The causes (EpWinCause in C++, STATUS.CAUSE).
  localparam logic [4:0] C_NONE = 5'd0, C_INDEX = 5'd1, C_BYTES = 5'd2, C_NET_BASE = 5'd3,
                         C_SRC = 5'd4, C_DST = 5'd5, C_MERGE = 5'd6, C_COUNT_BASE = 5'd7,
                         C_EXPECTED = 5'd8, C_DTYPE = 5'd9, C_MERGE_SRC = 5'd10, C_COPY = 5'd11,
                         C_COPY_HOME = 5'd12, C_DET_HOME = 5'd13, C_MASK = 5'd14, C_STAGE = 5'd15,
                         C_STAGE_OVERLAP = 5'd16, C_NET_OVERLAP = 5'd17, C_COUNT_OVERLAP = 5'd18,
                         C_BUSY = 5'd19;

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
  // A command accepted in its pulse's cycle, written into the table at the
  // next edge: the check and the write in two cycles (250 MHz).
  logic        pend_q, pend_write_q, refused_q;
  logic [3:0]  pend_idx_q;
  logic [47:0] pend_net_q;
  logic [31:0] pend_bytes_q, pend_src_q, pend_dst_q, pend_merge_q, pend_stage_q, pend_mask_q;
  logic [20:0] pend_cb_q;
  logic [7:0]  pend_exp_q;
  logic [1:0]  pend_dtype_q, pend_copy_q;
  logic        pend_home_q, pend_det_q;

  // Not flit-aligned, or not inside MEM_BYTES with bytes after it.
  function automatic logic buf_bad(input logic [31:0] a, input logic [31:0] bytes);
    buf_bad = (64'(a) & (FB64 - 1)) != 0 || 34'(a) + 34'(bytes) > 34'(MEM_BYTES);
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

  // Lookups: the lowest window that holds the packet (a, len flits) whole
  // (ep_window_pkg::holds, the engines' rule too).
  function automatic logic holds(input logic valid, input logic [47:0] base, input logic [31:0] bytes,
                                 input logic [47:0] a, input logic [7:0] len);
    holds = ep_window_pkg::holds(valid, base, bytes, a, len, FB_LOG);
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

  // The command's verdict: every rule checked at once (brk[c]: rule c
  // broken), each in the width its values need (buffers below MEM_BYTES <=
  // 2^30, sizes of 32 bits, network addresses of 48); the write needs only
  // that none is broken, STATUS the first, in check_window()'s order.
  function automatic logic meet(input logic [40:0] a, input logic [40:0] an,
                                input logic [40:0] b, input logic [40:0] bn);
    meet = a < b + bn && b < a + an;
  endfunction

  logic [18:1] brk;
  logic [4:0]  v_cause;
  logic [3:0]  v_with;
  logic        v_ok;
  logic [28:0] lines;
  logic [39:0] staged;
  logic [5:0]  ones;
  logic        net_ovl, cnt_ovl;
  logic [3:0]  net_with, cnt_with;
  always_comb begin
    lines  = (stg_copy_i != 2'd0) ? '0 : 29'(stg_bytes_i >> FB_LOG);
    staged = 40'(stg_expected_i) * 40'(stg_bytes_i);
    ones   = '0;
    for (int i = 0; i < 32; i++) ones = ones + 6'(stg_mask_i[i]);
    net_ovl  = 1'b0;
    cnt_ovl  = 1'b0;
    net_with = '0;
    cnt_with = '0;
    for (int j = WINDOWS - 1; j >= 0; j--) begin
      if (32'(idx_i) != j && valid_q[j]) begin
        if (49'(stg_net_base_i) < 49'(net_q[j*48 +: 48]) + 49'(bytes_q[j*32 +: 32]) &&
            49'(net_q[j*48 +: 48]) < 49'(stg_net_base_i) + 49'(stg_bytes_i)) begin
          net_ovl  = 1'b1;
          net_with = 4'(j);
        end
        if (stg_copy_i == 2'd0 && copy_q[j*2 +: 2] == 2'd0 &&
            meet(41'(stg_count_base_i), 41'(lines), 41'(cb_q[j*21 +: 21]),
                 41'(bytes_q[j*32 +: 32]) >> FB_LOG)) begin
          cnt_ovl  = 1'b1;
          cnt_with = 4'(j);
        end
      end
    end
    brk[C_INDEX]     = 32'(idx_i) >= WINDOWS;
    brk[C_BYTES]     = stg_bytes_i == '0 || (64'(stg_bytes_i) & (FB64 - 1)) != 0;
    brk[C_NET_BASE]  = (64'(stg_net_base_i) & (FB64 - 1)) != 0 ||
                       49'(stg_net_base_i) + 49'(stg_bytes_i) > 49'h1_0000_0000_0000;
    brk[C_SRC]       = buf_bad(stg_src_i, stg_bytes_i);
    brk[C_DST]       = buf_bad(stg_dst_i, stg_bytes_i);
    brk[C_MERGE]     = buf_bad(stg_merge_i, stg_bytes_i);
    brk[C_COUNT_BASE] = 30'(stg_count_base_i) + 30'(lines) > 30'(COUNT_DEPTH);
    brk[C_EXPECTED]  = stg_expected_i < 8'd2;
    brk[C_DTYPE]     = stg_dtype_i > 2'd2;
    brk[C_MERGE_SRC] = stg_home_i && meet(41'(stg_merge_i), 41'(stg_bytes_i), 41'(stg_src_i), 41'(stg_bytes_i));
    brk[C_COPY]      = stg_copy_i > 2'd2;
    brk[C_COPY_HOME] = stg_copy_i != 2'd0 && (stg_home_i || stg_det_i);
    brk[C_DET_HOME]  = stg_det_i && !stg_home_i;
    brk[C_MASK]      = stg_det_i && 8'(ones) != stg_expected_i;
    brk[C_STAGE]     = stg_det_i && ((64'(stg_stage_i) & (FB64 - 1)) != 0 ||
                                     41'(stg_stage_i) + 41'(staged) > 41'(MEM_BYTES));
    brk[C_STAGE_OVERLAP] = stg_det_i && (meet(41'(stg_stage_i), 41'(staged), 41'(stg_src_i), 41'(stg_bytes_i)) ||
                                         meet(41'(stg_stage_i), 41'(staged), 41'(stg_dst_i), 41'(stg_bytes_i)) ||
                                         meet(41'(stg_stage_i), 41'(staged), 41'(stg_merge_i), 41'(stg_bytes_i)));
    brk[C_NET_OVERLAP]   = net_ovl;
    brk[C_COUNT_OVERLAP] = cnt_ovl;
    // A CLEAR is refused only for its index.
    if (!cmd_write_i) brk[18:2] = '0;
    v_ok    = brk == '0 && !pend_q;
    v_cause = C_NONE;
    for (int c = 18; c >= 1; c--)
      if (brk[c]) v_cause = 5'(c);
    v_with = v_cause == C_NET_OVERLAP ? net_with : v_cause == C_COUNT_OVERLAP ? cnt_with : '0;
    // A command in the cycle after an accepted one's pulse (reachable only
    // from a host that pulses WIN_CMD in two cycles running, not over APB).
    if (pend_q) begin
      v_cause = C_BUSY;
      v_with  = '0;
    end
  end

  assign cause_o      = cause_q;
  assign cause_with_o = with_q;
  assign ev_refused_o = refused_q;  // a cycle after the pulse, with STATUS

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
      pend_q       <= 1'b0;
      refused_q    <= 1'b0;
      pend_write_q <= 1'b0;
      pend_idx_q   <= '0;
      pend_home_q  <= 1'b0;
      pend_det_q   <= 1'b0;
      pend_dtype_q <= '0;
      pend_copy_q  <= '0;
      pend_exp_q   <= '0;
      pend_cb_q    <= '0;
      pend_net_q   <= '0;
      pend_bytes_q <= '0;
      pend_src_q   <= '0;
      pend_dst_q   <= '0;
      pend_merge_q <= '0;
      pend_stage_q <= '0;
      pend_mask_q  <= '0;
    end else begin
      for (int w = 0; w < WINDOWS; w++) begin
        if (pend_q && 32'(pend_idx_q) == w) begin
          valid_q[w] <= pend_write_q;
          if (pend_write_q) begin
            home_q[w]           <= pend_home_q;
            det_q[w]            <= pend_det_q;
            dtype_q[w*2 +: 2]   <= pend_dtype_q;
            copy_q[w*2 +: 2]    <= pend_copy_q;
            exp_q[w*8 +: 8]     <= pend_exp_q;
            cb_q[w*21 +: 21]    <= pend_cb_q;
            net_q[w*48 +: 48]   <= pend_net_q;
            bytes_q[w*32 +: 32] <= pend_bytes_q;
            src_q[w*32 +: 32]   <= pend_src_q;
            dst_q[w*32 +: 32]   <= pend_dst_q;
            merge_q[w*32 +: 32] <= pend_merge_q;
            stage_q[w*32 +: 32] <= pend_stage_q;
            mask_q[w*32 +: 32]  <= pend_mask_q;
          end
        end
      end
      pend_q    <= (cmd_write_i || cmd_clear_i) && v_ok;
      refused_q <= (cmd_write_i || cmd_clear_i) && !v_ok;
      if (cmd_write_i || cmd_clear_i) begin
        cause_q <= v_cause;
        with_q  <= v_with;
        // Loaded by every command (pend_q says whether it counts): the
        // check's verdict reaches two flops, not the window's 276.
        begin
          pend_write_q <= cmd_write_i;
          pend_idx_q   <= idx_i;
          pend_home_q  <= stg_home_i;
          pend_det_q   <= stg_det_i;
          pend_dtype_q <= stg_dtype_i;
          pend_copy_q  <= stg_copy_i;
          pend_exp_q   <= stg_expected_i;
          pend_cb_q    <= stg_count_base_i;
          pend_net_q   <= stg_net_base_i;
          pend_bytes_q <= stg_bytes_i;
          pend_src_q   <= stg_src_i;
          pend_dst_q   <= stg_dst_i;
          pend_merge_q <= stg_merge_i;
          pend_stage_q <= stg_stage_i;
          pend_mask_q  <= stg_mask_i;
        end
      end
    end
  end

endmodule
