// The in-network switch's reduction table with its ALU array (ISCA 2020
// in-network collectives paper, §IV "reduction table", and the figure of the
// switch's internal architecture: tags, a flit counter, an ALU array at
// flit rate, timeouts). The C++ model of the same core is
// hw/reduction_table/reduction_table_core.{h,cpp}, cycle- and bit-exact with
// this; the block around it, rtl/reduction_table.sv, is generated from
// hw/reduction_table/reduction_table.yaml. The page is
// docs/blocks/reduction_table.md; the packet format docs/packet.md.
//
// Streams: req_in (PUSH, PULL), rsp_in (PULL_RSP), out (RESULT, PARTIAL,
// PULL_RSP), flits of FLIT_W bits (rtl/t3_pkt_pkg.sv).
//
// Pipeline, for a packet whose header is taken in cycle t (the header
// register of its stream empty): t+1 the decision (when the data path is
// free or frees in that cycle): the header's key against every tag at once,
// then reduce into the entry, allocate the least recently used one (evict it
// first when it is held), pass the packet on, drop it or wait; from t+2 its
// data flits, one a cycle: cycle u the entry's word is read (t3_mem),
// u+1 the word (with the writes 4 and 5 cycles older forwarded: a flit
// whose word a write 1..3 cycles older has not reached waits) and the flit
// enter the lane adders (rtl/fp_add.sv, 4 stages), u+5 the sum is written
// back, or into the output FIFO when the packet completes its entry. An
// eviction reads its entry's words the same way, one a cycle. The output
// FIFO sends a packet once its header and first data flit are in.
module reduction_table_core #(
  parameter int unsigned FLIT_W    = 128,  // 128, 256 or 512
  parameter int unsigned ENTRIES   = 16,   // 2..64
  parameter int unsigned MAX_LEN   = 4,    // 1..16
  parameter int unsigned ACC32     = 0,    // 0..1 (FLIT_W <= 256 when 1)
  parameter int unsigned TIMEOUT_W = 16,   // 1..32
  parameter int unsigned STAT_W    = 32,   // 1..32
  localparam int unsigned OCC_W    = $clog2(ENTRIES + 1)
) (
  input  logic              clk_i,
  input  logic              rst_ni,

  // Configuration (the registers, docs/registers/reduction_table.md).
  input  logic              cfg_enable_i,     // take new headers
  input  logic              cfg_pull_pass_i,  // a PULL finding no free entry is not tracked
  input  logic [31:0]       cfg_timeout_i,    // idle cycles before an eviction; 0 off
  output logic              cfg_error_o,      // cfg_timeout_i does not fit TIMEOUT_W bits
  output logic              busy_o,
  output logic [OCC_W-1:0]  occupancy_o,
  output logic [3:0]        err_code_o,       // the last packet dropped: why
  output logic              err_stream_o,     //   its stream (0 req_in, 1 rsp_in)
  output logic [3:0]        err_op_o,         //   its opcode
  output logic              evt_malformed_o,  // a packet was dropped as malformed at the last edge
  output logic              evt_refused_o,    // a packet was refused at the last edge

  input  logic              req_in_valid_i,
  output logic              req_in_ready_o,
  input  logic [FLIT_W-1:0] req_in_flit_i,
  input  logic              rsp_in_valid_i,
  output logic              rsp_in_ready_o,
  input  logic [FLIT_W-1:0] rsp_in_flit_i,
  output logic              out_valid_o,
  input  logic              out_ready_i,
  output logic [FLIT_W-1:0] out_flit_o,

  output logic [STAT_W-1:0] stat_alloc_o,
  output logic [STAT_W-1:0] stat_hits_o,
  output logic [STAT_W-1:0] stat_completions_o,
  output logic [STAT_W-1:0] stat_evict_lru_o,
  output logic [STAT_W-1:0] stat_evict_timeout_o,
  output logic [STAT_W-1:0] stat_stall_req_o,
  output logic [STAT_W-1:0] stat_stall_rsp_o,
  output logic [STAT_W-1:0] stat_bypasses_o,
  output logic [STAT_W-1:0] stat_pull_passed_o,
  output logic [STAT_W-1:0] stat_malformed_o,
  output logic [STAT_W-1:0] stat_refused_o,
  output logic [OCC_W-1:0]  stat_hwm_o
);

  // ------------------------------------------------- parameter ranges (elaboration)
  if (FLIT_W < 128 || FLIT_W > 512 || (FLIT_W & (FLIT_W - 1)) != 0) begin : g_bad_flit_w
    $error("FLIT_W = %0d is out of range; allowed: a power of two from 128 to 512", FLIT_W);
  end
  if (ENTRIES < 2 || ENTRIES > 64) begin : g_bad_entries
    $error("ENTRIES = %0d is out of range; allowed: 2..64", ENTRIES);
  end
  if (MAX_LEN < 1 || MAX_LEN > 16) begin : g_bad_max_len
    $error("MAX_LEN = %0d is out of range; allowed: 1..16", MAX_LEN);
  end
  if (ACC32 > 1) begin : g_bad_acc32
    $error("ACC32 = %0d is out of range; allowed: 0..1", ACC32);
  end
  if (ACC32 == 1 && FLIT_W > 256) begin : g_bad_acc32_flit_w
    $error("FLIT_W = %0d is out of range; allowed: 128 or 256 with ACC32 = 1", FLIT_W);
  end
  if (TIMEOUT_W < 1 || TIMEOUT_W > 32) begin : g_bad_timeout_w
    $error("TIMEOUT_W = %0d is out of range; allowed: 1..32", TIMEOUT_W);
  end
  if (STAT_W < 1 || STAT_W > 32) begin : g_bad_stat_w
    $error("STAT_W = %0d is out of range; allowed: 1..32", STAT_W);
  end

  // The packet format (rtl/t3_pkt_pkg.sv), by name here (yosys 0.23 takes no
  // package import).
  localparam int unsigned HDR_W      = t3_pkt_pkg::HDR_W;
  localparam int unsigned OP_LSB     = t3_pkt_pkg::OP_LSB,     OP_W     = t3_pkt_pkg::OP_W;
  localparam int unsigned DTYPE_LSB  = t3_pkt_pkg::DTYPE_LSB,  DTYPE_W  = t3_pkt_pkg::DTYPE_W;
  localparam int unsigned LEN_LSB    = t3_pkt_pkg::LEN_LSB,    LEN_W    = t3_pkt_pkg::LEN_W;
  localparam int unsigned SRC_LSB    = t3_pkt_pkg::SRC_LSB,    SRC_W    = t3_pkt_pkg::SRC_W;
  localparam int unsigned DST_LSB    = t3_pkt_pkg::DST_LSB,    DST_W    = t3_pkt_pkg::DST_W;
  localparam int unsigned COUNT_LSB  = t3_pkt_pkg::COUNT_LSB,  COUNT_W  = t3_pkt_pkg::COUNT_W;
  localparam int unsigned CTR_LSB    = t3_pkt_pkg::CTR_LSB,    CTR_W    = t3_pkt_pkg::CTR_W;
  localparam int unsigned ADDR_LSB   = t3_pkt_pkg::ADDR_LSB,   ADDR_W   = t3_pkt_pkg::ADDR_W;
  localparam int unsigned RGN_LSB    = t3_pkt_pkg::RGN_LSB,    RGN_W    = t3_pkt_pkg::RGN_W;
  localparam int unsigned EXPECT_LSB = t3_pkt_pkg::EXPECT_LSB, EXPECT_W = t3_pkt_pkg::EXPECT_W;
  localparam int unsigned HOME_LSB   = t3_pkt_pkg::HOME_LSB,   HOME_W   = t3_pkt_pkg::HOME_W;
  localparam int unsigned HIT_LSB    = t3_pkt_pkg::HIT_LSB;
  localparam logic [3:0] OP_PUSH     = t3_pkt_pkg::OP_PUSH;
  localparam logic [3:0] OP_PULL     = t3_pkt_pkg::OP_PULL;
  localparam logic [3:0] OP_PULL_RSP = t3_pkt_pkg::OP_PULL_RSP;
  localparam logic [3:0] OP_RESULT   = t3_pkt_pkg::OP_RESULT;
  localparam logic [3:0] OP_PARTIAL  = t3_pkt_pkg::OP_PARTIAL;
  localparam logic [1:0] DT_FP16     = t3_pkt_pkg::DT_FP16;
  localparam logic [1:0] DT_BF16     = t3_pkt_pkg::DT_BF16;
  localparam logic [1:0] DT_FP32     = t3_pkt_pkg::DT_FP32;
  localparam logic [2:0] MAL_NONE    = t3_pkt_pkg::MAL_NONE;

  // ------------------------------------------------------------- sizes
  localparam int unsigned DW       = FLIT_W * (1 + ACC32);     // a word of the table
  localparam int unsigned FLIT_LSB = $clog2(FLIT_W / 8);       // address bits within a flit
  localparam int unsigned ATAG_W   = ADDR_W - FLIT_LSB;        // the address's tag
  localparam int unsigned KEY_W    = 1 + RGN_W + ATAG_W + SRC_W + CTR_W;  // an entry's key
  localparam int unsigned ENT_W    = $clog2(ENTRIES);          // ENTRIES >= 2
  localparam int unsigned WORDS    = ENTRIES * MAX_LEN;
  localparam int unsigned WA_W     = $clog2(WORDS);            // WORDS >= 2
  localparam int unsigned ELEN_W   = $clog2(MAX_LEN + 1);  // an entry's len
  localparam int unsigned OD       = 1 << $clog2(2 * MAX_LEN); // data FIFO: >= two packets
  localparam int unsigned OD_W     = $clog2(OD);
  localparam int unsigned HD       = 4;                        // header FIFO
  localparam int unsigned L16      = FLIT_W / 16;
  localparam int unsigned L32      = FLIT_W / 32;

  // What a decided header (or an eviction) does with the data path.
  typedef enum logic [2:0] {
    M_DROP  = 3'd0,  // take the packet's flits, nothing else
    M_STORE = 3'd1,  // flit (widened) -> the entry's word
    M_ADD   = 3'd2,  // word + flit -> the entry's word
    M_ADDO  = 3'd3,  // word + flit -> the output FIFO (the entry completes)
    M_PASS  = 3'd4,  // flit as it is -> the output FIFO
    M_EVICT = 3'd5   // word -> the output FIFO, one a cycle, no stream
  } mode_e;

  // The decision's outcomes (hw/reduction_table/reduction_table_core.cpp, Act).
  typedef enum logic [4:0] {
    A_NONE, A_WAIT, A_DROP, A_REFUSE, A_ADD, A_ADDO, A_STORE_NEW, A_STORE_FILL, A_PASS_ALONE,
    A_PASS_FILL, A_BYPASS, A_ALLOC_PULL, A_PULL_PASSED, A_EVICT_LRU, A_FREE_LRU, A_EVICT_TMO,
    A_FREE_TMO
  } act_e;

  localparam logic [1:0] D_NONE = 2'd0, D_MEM = 2'd1, D_FIFO = 2'd2;

  localparam logic [3:0] E_WRONG_PORT = 4'd6, E_NO_REGION = 4'd7, E_BAD_COUNT = 4'd8;
  localparam logic [3:0] E_MISMATCH = 4'd9, E_OVERCOUNT = 4'd10, E_DUPLICATE = 4'd11;

  // The stateless checks of a header from stream rsp: the format's, the
  // port's opcodes, the region, the counts (rt_check() in the model).
  function automatic logic [3:0] hdr_check(input logic [HDR_W-1:0] h, input logic rsp);
    logic [2:0] fmt;
    logic [3:0] op;
    logic [7:0] cnt, expct;
    logic       push, pull, prsp;
    fmt   = t3_pkt_pkg::pkt_check(h, LEN_W'(MAX_LEN), FLIT_LSB);
    op    = h[OP_LSB +: OP_W];
    cnt   = h[COUNT_LSB +: COUNT_W];
    expct = h[EXPECT_LSB +: EXPECT_W];
    push  = op == OP_PUSH;
    pull  = op == OP_PULL;
    prsp  = op == OP_PULL_RSP;
    if (fmt != MAL_NONE)                          hdr_check = {1'b0, fmt};
    else if (rsp ? !prsp : !(push || pull))       hdr_check = E_WRONG_PORT;
    else if (!h[HIT_LSB])                         hdr_check = E_NO_REGION;
    else if (push && (cnt == '0 || cnt > expct))  hdr_check = E_BAD_COUNT;
    else if (pull && cnt >= expct)                hdr_check = E_BAD_COUNT;
    else if (prsp && cnt == '0)                   hdr_check = E_BAD_COUNT;
    else                                          hdr_check = 4'd0;
  endfunction

  function automatic logic [HDR_W-1:0] pack_hdr(
      input logic [3:0] op, input logic [1:0] dtype, input logic [7:0] len,
      input logic [7:0] dst, input logic [7:0] count, input logic [7:0] ctr,
      input logic [ADDR_W-1:0] addr, input logic [7:0] rgn, input logic [7:0] expct,
      input logic [7:0] home);
    logic [HDR_W-1:0] h;
    h = '0;
    h[OP_LSB +: OP_W]         = op;
    h[DTYPE_LSB +: DTYPE_W]   = dtype;
    h[LEN_LSB +: LEN_W]       = len;
    h[DST_LSB +: DST_W]       = dst;
    h[COUNT_LSB +: COUNT_W]   = count;
    h[CTR_LSB +: CTR_W]       = ctr;
    h[ADDR_LSB +: ADDR_W]     = addr;
    h[RGN_LSB +: RGN_W]       = rgn;
    h[EXPECT_LSB +: EXPECT_W] = expct;
    h[HOME_LSB +: HOME_W]     = home;
    h[HIT_LSB]                = 1'b1;
    pack_hdr = h;
  endfunction

  // ================================================================ state
  // Header registers, one a stream (bits 127:121 and above are dropped).
  logic [1:0]        hv_q;
  logic [HDR_W-1:0]  hdr_q [2];
  logic [3:0]        hcode_q [2];
  logic              turn_q;   // the stream whose header is decided next
  // Each header register's match with every entry's tag, kept as the tags
  // change (the compare is made when the header is taken).
  logic [ENTRIES-1:0] match_q [2];
  // The table: tags and meta (flops, read in parallel by the decision:
  // docs/blocks/reduction_table.md, "Storage"), idle counters, LRU order.
  logic [ENTRIES-1:0] v_q;
  logic [KEY_W-1:0]  tag_q [ENTRIES];  // {pull, rgn, address tag, requester, counter id}
  logic [7:0]        cnt_q [ENTRIES];
  logic [7:0]        need_q [ENTRIES];  // contributions still expected: expect - count
  logic [7:0]        exp_q [ENTRIES];
  logic [7:0]        home_q [ENTRIES];
  logic [1:0]        dt_q [ENTRIES];
  logic [ELEN_W-1:0] len_q [ENTRIES];
  logic [TIMEOUT_W-1:0] age_q [ENTRIES];
  logic [ENTRIES-1:0] expired_q;  // idle TIMEOUT cycles (TIMEOUT of the cycle before)
  logic [ENT_W-1:0]  lru_q [ENTRIES];  // position -> entry, 0 least recently used
  logic [OCC_W-1:0]  occ_q;
  // The data phase: the flits (words) of one packet (eviction) a cycle.
  logic              dp_q;
  logic [1:0]        dp_src_q;  // 0 req_in, 1 rsp_in, 2 none (evict)
  mode_e             dp_mode_q;
  logic [7:0]        dp_left_q;
  logic [WA_W-1:0]   dp_addr_q;
  logic [OD_W-1:0]   dp_slot_q;
  logic [1:0]        dp_dt_q;
  // The next data phase, decided while this one runs (the decision needs a
  // free slot here, not this cycle's issue).
  logic              dpn_q;
  logic [1:0]        dpn_src_q;
  mode_e             dpn_mode_q;
  logic [7:0]        dpn_left_q;
  logic [WA_W-1:0]   dpn_addr_q;
  logic [OD_W-1:0]   dpn_slot_q;
  logic [1:0]        dpn_dt_q;
  // The pipeline: s1..s5 from the issue to the write-back.
  logic [5:1]        s_v_q, s_sum_q, s_narrow_q;
  logic [1:0]        s_dest_q [1:5];
  logic [1:0]        s_dt_q [1:5];
  logic [WA_W-1:0]   s_addr_q [1:5];
  logic [OD_W-1:0]   s_slot_q [1:5];
  logic              s1_evict_q;
  logic [DW-1:0]     s1_flit_q;
  logic [DW-1:0]     p_q [2:5];   // the value carried beside the adders
  // Where s1's word comes from (one-hot, decided at the issue): the table's
  // read, the write-back of the cycle before, or this cycle's write-back
  // (one of the adders by format, or the value carried).
  logic              fs_rd_q, fs_last_q, fs_y16_q, fs_ybf_q, fs_y32_q, fs_pass_q;
  logic [DW-1:0]     last_q;
  // The output: header FIFO, data FIFO (slots reserved at the decision,
  // written at the write-back), the reader.
  logic [1:0]        hwptr_q, hrptr_q;
  logic [2:0]        hfill_q;
  logic [OD_W-1:0]   dwptr_q, drptr_q;
  logic [OD_W:0]     dres_q;
  logic [OD-1:0]     wr_q;
  logic              pend_q, pend_hdr_q;
  logic [ELEN_W-1:0] rem_q;
  // The output header of the last decision, written into its FIFO a cycle
  // later: from the decided header (a RESULT of it, or itself passed on) or
  // from the entry (its fields as they were: a freed entry is written again
  // at the earliest at the end of this cycle).
  logic              ohp_v_q, ohp_hdr_src_q, ohp_result_q, ohp_full_q;
  logic [HDR_W-1:0]  ohp_hdr_q;
  logic [ENTRIES-1:0] ohp_de_q;
  // Status.
  logic [3:0]        err_code_q, err_op_q;
  logic              err_stream_q, evt_mal_q, evt_ref_q;
  logic [STAT_W-1:0] st_alloc_q, st_hits_q, st_compl_q, st_lru_q, st_tmo_q, st_stall_req_q;
  logic [STAT_W-1:0] st_stall_rsp_q, st_bypass_q, st_pass_q, st_mal_q, st_ref_q;
  logic [OCC_W-1:0]  hwm_q;

  // ================================================================ streams
  logic        tmo_en, hazard, reads_mem, issue, dec_ok, dp_free;
  logic [1:0]  in_dp, in_dpn, ready, take;
  logic [1:0]  valid;
  logic [FLIT_W-1:0] flit_in [2];

  if (TIMEOUT_W < 32) begin : g_cfg_check
    assign cfg_error_o = cfg_timeout_i[31:TIMEOUT_W] != '0;
  end else begin : g_cfg_fits
    assign cfg_error_o = 1'b0;
  end

  // The readies, from state alone, apart from what reads the valids: a
  // block that makes its valid from a ready (a switch's region table) sees
  // no loop through this block.
  always_comb begin
    tmo_en     = !cfg_error_o && cfg_timeout_i != '0;
    reads_mem  = dp_mode_q == M_ADD || dp_mode_q == M_ADDO || dp_mode_q == M_EVICT;
    // A word a write 1..3 cycles old has not reached (it is in the adders).
    hazard = 1'b0;
    for (int k = 1; k <= 3; k++)
      if (s_v_q[k] && s_dest_q[k] == D_MEM && s_addr_q[k] == dp_addr_q) hazard = 1'b1;
    hazard = hazard && dp_q && reads_mem;
    for (int s = 0; s < 2; s++) begin
      in_dp[s]  = dp_q && dp_src_q == 2'(s);
      in_dpn[s] = dpn_q && dpn_src_q == 2'(s);
      // A stream in the data phase gives its data flits; one whose packet
      // waits in the next data phase nothing; else a header.
      ready[s] = rst_ni && (in_dp[s] ? !hazard : !in_dpn[s] && cfg_enable_i && !hv_q[s]);
    end
  end

  always_comb begin
    valid      = {rsp_in_valid_i, req_in_valid_i};
    flit_in[0] = req_in_flit_i;
    flit_in[1] = rsp_in_flit_i;
    for (int s = 0; s < 2; s++) begin
      // valid && ready && !in_dp, written without the hazard it cannot see
      // (timing: synthesis kept the hazard's compare in front of the take,
      // and the take in front of the match registers)
      take[s]  = valid[s] && rst_ni && !in_dp[s] && !in_dpn[s] && cfg_enable_i && !hv_q[s];
    end
    issue   = dp_q && (dp_src_q[1] ? !hazard : (valid[dp_src_q[0]] && ready[dp_src_q[0]]));
    dp_free = !dp_q || (issue && dp_left_q == 8'd1);  // the data phase is free after this edge
    dec_ok  = rst_ni && !dpn_q;
  end
  assign req_in_ready_o = ready[0];
  assign rsp_in_ready_o = ready[1];

  // ================================================================ decision
  // The key of a header: kind (0 push, 1 pull), region, flit address, and for
  // a pull the requester (a PULL's src, its responses' dst) and counter id.
  /* verilator lint_off UNUSEDSIGNAL */  // the header's other fields
  function automatic logic [KEY_W-1:0] key_of(input logic [HDR_W-1:0] hd);
    logic push, pull;
    push = hd[OP_LSB +: OP_W] == OP_PUSH;
    pull = hd[OP_LSB +: OP_W] == OP_PULL;
    key_of = {!push, hd[RGN_LSB +: RGN_W], hd[ADDR_LSB + FLIT_LSB +: ATAG_W],
              push ? 8'd0 : pull ? hd[SRC_LSB +: SRC_W] : hd[DST_LSB +: DST_W],
              push ? 8'd0 : hd[CTR_LSB +: CTR_W]};
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // What both header registers would do, decided in parallel (each against
  // every entry at once through its match vector), the turn picking one at
  // the end: no header multiplexer and no CAM in front of the table's
  // writes (docs/blocks/reduction_table.md, "Cost").
  logic [ENTRIES-1:0] zero_v, fits_v, head_oh, to_oh, de_oh;
  logic [OD_W:0]     room_data;
  logic              room_slot, hd_v, hd_zero, hd_fits, to_any, to_zero, to_fits;
  act_e              act_h [2];
  logic [3:0]        ref_h [2];
  logic [1:0]        hit_h;
  act_e              act;
  logic [3:0]        refusal;
  logic              hs, hdr_act, hdr_done;
  logic              de_to, de_m;  // de_oh is to_oh, match_q[hs] (else head_oh)

  always_comb begin
    room_data = (OD_W + 1)'(OD) - dres_q;
    room_slot = hfill_q < 3'(HD);
    for (int e = 0; e < ENTRIES; e++) begin
      zero_v[e]  = cnt_q[e] == '0;
      fits_v[e]  = room_slot && room_data >= (OD_W + 1)'(len_q[e]);
      head_oh[e] = lru_q[0] == ENT_W'(e);
    end
    hd_v    = |(head_oh & v_q);
    hd_zero = |(head_oh & zero_v);
    hd_fits = |(head_oh & fits_v);
    // The lowest entry timed out.
    to_oh = expired_q & ~(expired_q - 1'b1);
    to_any  = |expired_q;
    to_zero = |(to_oh & zero_v);
    to_fits = |(to_oh & fits_v);

    for (int s = 0; s < 2; s++) begin : g_hdr
      logic [3:0] op;
      logic [1:0] dt;
      logic [7:0] len, cnt, expct, home;
      logic       push, pull, room, mm, over, compl_, zero;
      logic [ENTRIES-1:0] mm_v, over_v, compl_v;
      op    = hdr_q[s][OP_LSB +: OP_W];
      dt    = hdr_q[s][DTYPE_LSB +: DTYPE_W];
      len   = hdr_q[s][LEN_LSB +: LEN_W];
      cnt   = hdr_q[s][COUNT_LSB +: COUNT_W];
      expct = hdr_q[s][EXPECT_LSB +: EXPECT_W];
      home  = hdr_q[s][HOME_LSB +: HOME_W];
      push  = op == OP_PUSH;
      pull  = op == OP_PULL;
      room  = room_slot && 9'(room_data) >= 9'(len);
      for (int e = 0; e < ENTRIES; e++) begin
        mm_v[e]    = len_q[e] != ELEN_W'(len) || dt_q[e] != dt ||
                     (push && (exp_q[e] != expct || home_q[e] != home));
        over_v[e]  = cnt > need_q[e];   // count + cnt past expect
        compl_v[e] = cnt == need_q[e];  // count + cnt reaches expect
      end
      hit_h[s] = |match_q[s];
      mm       = |(match_q[s] & mm_v);
      over     = |(match_q[s] & over_v);
      compl_   = |(match_q[s] & compl_v);
      zero     = |(match_q[s] & zero_v);
      ref_h[s] = E_MISMATCH;
      if (hcode_q[s] != '0) begin
        act_h[s] = A_DROP;
      end else if (hit_h[s]) begin
        if (pull) begin
          act_h[s] = A_REFUSE;
          ref_h[s] = E_DUPLICATE;
        end else if (mm) begin
          act_h[s] = A_REFUSE;
        end else if (over) begin
          act_h[s] = A_REFUSE;
          ref_h[s] = E_OVERCOUNT;
        end else if (compl_) begin
          act_h[s] = !room ? A_WAIT : zero ? A_PASS_FILL : A_ADDO;
        end else begin
          act_h[s] = zero ? A_STORE_FILL : A_ADD;
        end
      end else if (push) begin
        if (cnt == expct)  act_h[s] = room ? A_PASS_ALONE : A_WAIT;
        else if (!hd_v)    act_h[s] = A_STORE_NEW;
        else if (hd_zero)  act_h[s] = A_FREE_LRU;
        else               act_h[s] = hd_fits ? A_EVICT_LRU : A_WAIT;
      end else if (pull) begin
        act_h[s] = !hd_v ? A_ALLOC_PULL : cfg_pull_pass_i ? A_PULL_PASSED : A_WAIT;
      end else begin
        act_h[s] = room ? A_BYPASS : A_WAIT;
      end
    end

    // A timeout eviction first, else the header whose turn it is.
    hs      = turn_q;
    act     = A_NONE;
    refusal = ref_h[hs];
    de_oh   = head_oh;
    de_to   = 1'b0;
    de_m    = 1'b0;
    if (dec_ok) begin
      if (to_any && (to_zero || to_fits)) begin
        act   = to_zero ? A_FREE_TMO : A_EVICT_TMO;
        de_oh = to_oh;
        de_to = 1'b1;
      end else if (hv_q[hs]) begin
        act   = act_h[hs];
        de_oh = hit_h[hs] ? match_q[hs] : head_oh;
        de_m  = hit_h[hs];
      end
    end
    hdr_act  = act != A_NONE && act != A_EVICT_TMO && act != A_FREE_TMO;
    hdr_done = hdr_act && act != A_WAIT && act != A_EVICT_LRU && act != A_FREE_LRU;
  end

  // The header decided (its fields written into an entry it allocates).
  logic [HDR_W-1:0]  h;
  logic [3:0]        h_op;
  logic [1:0]        h_dt;
  logic [7:0]        h_len, h_cnt, h_exp, h_home;
  logic              h_push, h_pull;
  always_comb begin
    h      = hdr_q[hs];
    h_op   = h[OP_LSB +: OP_W];
    h_dt   = h[DTYPE_LSB +: DTYPE_W];
    h_len  = h[LEN_LSB +: LEN_W];
    h_cnt  = h[COUNT_LSB +: COUNT_W];
    h_exp  = h[EXPECT_LSB +: EXPECT_W];
    h_home = h[HOME_LSB +: HOME_W];
    h_push = h_op == OP_PUSH;
    h_pull = h_op == OP_PULL;
  end

  // What the decision does: the entry, the data phase, the output header.
  logic              alloc, touch, free_e, start;
  mode_e             start_mode;
  logic [7:0]        start_left;
  logic [1:0]        start_dt;
  logic              reserve;
  logic [WA_W-1:0]   start_addr;
  logic [ELEN_W-1:0] de_len;
  logic [1:0]        de_dt;

  always_comb begin
    alloc = act == A_STORE_NEW || act == A_ALLOC_PULL;
    touch = alloc || act == A_ADD || act == A_STORE_FILL;
    free_e = act == A_ADDO || act == A_PASS_FILL || act == A_EVICT_LRU || act == A_FREE_LRU ||
             act == A_EVICT_TMO || act == A_FREE_TMO;
    de_len     = '0;
    de_dt      = '0;
    start_addr = '0;
    for (int e = 0; e < ENTRIES; e++)
      if (de_oh[e]) begin
        de_len     = de_len | len_q[e];
        de_dt      = de_dt | dt_q[e];
        start_addr = start_addr | WA_W'(e * MAX_LEN);
      end
    start      = 1'b0;
    start_mode = M_DROP;
    start_left = h_len;
    start_dt   = h_dt;
    case (act)
      A_DROP, A_REFUSE: begin
        start_left = t3_pkt_pkg::data_flits(h);
        start      = start_left != '0;
      end
      A_ADD:                     begin start = 1'b1; start_mode = M_ADD;   end
      A_STORE_FILL, A_STORE_NEW: begin start = 1'b1; start_mode = M_STORE; end
      A_ADDO:                    begin start = 1'b1; start_mode = M_ADDO;  end
      A_PASS_FILL, A_PASS_ALONE, A_BYPASS: begin start = 1'b1; start_mode = M_PASS; end
      A_EVICT_LRU, A_EVICT_TMO: begin
        start      = 1'b1;
        start_mode = M_EVICT;
        start_left = 8'(de_len);
        start_dt   = de_dt;
      end
      default: ;
    endcase
    reserve = start && (start_mode == M_ADDO || start_mode == M_PASS || start_mode == M_EVICT);
  end

  // The output header of the last decision, built a cycle later: a RESULT
  // from the completing PUSH, a bypassed PULL_RSP as it came, else from the
  // entry (a pull's PULL_RSP to its requester, a PARTIAL to the home).
  logic [HDR_W-1:0]  out_hdr;
  logic [KEY_W-1:0]  o_tag;
  logic [7:0]        o_cnt, o_exp, o_home;
  logic [1:0]        o_dt;
  logic [ELEN_W-1:0] o_len;
  logic              o_pull;
  always_comb begin
    o_tag  = '0;
    o_cnt  = '0;
    o_exp  = '0;
    o_home = '0;
    o_dt   = '0;
    o_len  = '0;
    for (int e = 0; e < ENTRIES; e++)
      if (ohp_de_q[e]) begin
        o_tag  = o_tag | tag_q[e];
        o_cnt  = o_cnt | cnt_q[e];
        o_exp  = o_exp | exp_q[e];
        o_home = o_home | home_q[e];
        o_dt   = o_dt | dt_q[e];
        o_len  = o_len | len_q[e];
      end
    o_pull = o_tag[KEY_W-1];
    if (ohp_hdr_src_q && !ohp_result_q)
      out_hdr = ohp_hdr_q;
    else if (ohp_hdr_src_q)
      out_hdr = pack_hdr(OP_RESULT, ohp_hdr_q[DTYPE_LSB +: DTYPE_W], ohp_hdr_q[LEN_LSB +: LEN_W],
                         ohp_hdr_q[HOME_LSB +: HOME_W], ohp_hdr_q[EXPECT_LSB +: EXPECT_W], 8'd0,
                         ohp_hdr_q[ADDR_LSB +: ADDR_W], ohp_hdr_q[RGN_LSB +: RGN_W],
                         ohp_hdr_q[EXPECT_LSB +: EXPECT_W], ohp_hdr_q[HOME_LSB +: HOME_W]);
    else
      out_hdr = pack_hdr(o_pull ? OP_PULL_RSP : OP_PARTIAL, o_dt, 8'(o_len),
                         o_pull ? o_tag[CTR_W +: SRC_W] : o_home,
                         ohp_full_q ? o_exp : o_cnt, o_tag[CTR_W-1:0],
                         {o_tag[SRC_W + CTR_W +: ATAG_W], FLIT_LSB'(0)},
                         o_tag[SRC_W + CTR_W + ATAG_W +: RGN_W], o_exp, o_home);
  end

  // The match vectors as the tags change: an entry allocated matches the
  // headers with its key; a freed one none; a header taken is compared with
  // every tag (as it will be after this cycle's decision).
  logic [KEY_W-1:0]   k_alloc;
  logic [KEY_W-1:0]   k_in [2];
  logic [ENTRIES-1:0] match_d [2];
  always_comb begin
    k_alloc = key_of(h);
    for (int s = 0; s < 2; s++) begin
      logic eq_in, eq_hdr, eq_alloc;
      k_in[s]  = key_of(flit_in[s][HDR_W-1:0]);
      // Both compares, the take choosing after them: the take comes late
      // (the read-after-write hazard decides in_ready), and a key mux ahead
      // of the compare was the block's critical path.
      eq_in    = k_in[s] == k_alloc;
      eq_hdr   = key_of(hdr_q[s]) == k_alloc;
      eq_alloc = take[s] ? eq_in : eq_hdr;
      for (int e = 0; e < ENTRIES; e++) begin
        if (alloc && de_oh[e])       match_d[s][e] = eq_alloc;
        else if (free_e && de_oh[e]) match_d[s][e] = 1'b0;
        else if (take[s])            match_d[s][e] = v_q[e] && tag_q[e] == k_in[s];
        else                         match_d[s][e] = match_q[s][e];
      end
    end
  end

  // The idle counters against TIMEOUT, for the next cycle: an entry stays
  // valid and untouched, and its count after this edge reaches TIMEOUT.
  logic [ENTRIES-1:0]   expired_d;
  logic [TIMEOUT_W-1:0] age_next [ENTRIES];
  always_comb begin
    for (int e = 0; e < ENTRIES; e++) begin
      age_next[e]  = (age_q[e] == '1) ? age_q[e] : age_q[e] + 1'b1;
      expired_d[e] = tmo_en && v_q[e] && !(de_oh[e] && (touch || free_e)) &&
                     32'(age_next[e]) >= cfg_timeout_i;
    end
  end

  // ================================================================ LRU order
  // The position of the entry decided (one-hot), and which positions lie at
  // or below it, at or above it (prefix ORs as log-depth trees), for each
  // entry the decision can pick, from flops: the timed-out one (c = 0), the
  // held header's match (c = 1), the least recently used (position 0); the
  // decision picks at the end (timing: the position's lookup and the prefix
  // ORs followed the decision, 196.8 MHz).
  logic [ENTRIES-1:0] m_hs, below, above;
  logic [ENTRIES-1:0] at_c [2], below_c [2], above_c [2];
  logic [ENT_W-1:0]   moved_c [2];
  logic [ENT_W-1:0]   lru_d [ENTRIES];
  logic [ENT_W-1:0]   moved;
  always_comb begin
    m_hs = match_q[turn_q];  // hs
    for (int p = 0; p < ENTRIES; p++) begin
      at_c[0][p] = to_oh[lru_q[p]];
      at_c[1][p] = m_hs[lru_q[p]];
    end
    for (int c = 0; c < 2; c++) begin
      below_c[c] = at_c[c];  // bit p: the entry is at position p or below
      above_c[c] = at_c[c];  // bit p: at position p or above
      for (int d = 1; d < ENTRIES; d = d * 2) begin
        below_c[c] = below_c[c] | (below_c[c] << d);
        above_c[c] = above_c[c] | (above_c[c] >> d);
      end
      moved_c[c] = '0;
      for (int p = 0; p < ENTRIES; p++)
        if (at_c[c][p]) moved_c[c] = moved_c[c] | lru_q[p];
    end
    below = de_to ? below_c[0] : de_m ? below_c[1] : '1;
    above = de_to ? above_c[0] : de_m ? above_c[1] : ENTRIES'(1);
    moved = de_to ? moved_c[0] : de_m ? moved_c[1] : lru_q[0];
    for (int p = 0; p < ENTRIES; p++) lru_d[p] = lru_q[p];
    if (touch) begin
      // To the most recently used end: the positions from its up shift down.
      for (int p = 0; p < ENTRIES - 1; p++)
        if (below[p]) lru_d[p] = lru_q[p+1];
      lru_d[ENTRIES-1] = moved;
    end else if (free_e) begin
      // To the least recently used end (allocated first).
      for (int p = 1; p < ENTRIES; p++)
        if (above[p]) lru_d[p] = lru_q[p-1];
      lru_d[0] = moved;
    end
  end

  // ================================================================ pipeline
  // The table's data, a word a flit: read at the issue, written at s5.
  logic              mem_re, mem_we;
  logic [DW-1:0]     mem_rdata, wb;
  logic              fifo_we;
  logic [FLIT_W-1:0] fifo_wdata, narrowed;
  logic [DW-1:0]     cur, y16, ybf, y32, widened;
  logic              add32;

  assign mem_re = rst_ni && issue && reads_mem;
  assign mem_we = rst_ni && s_v_q[5] && s_dest_q[5] == D_MEM;
  assign fifo_we = rst_ni && s_v_q[5] && s_dest_q[5] == D_FIFO;

  t3_mem #(.DEPTH(WORDS), .WIDTH(DW)) u_mem (
    .clk_i, .we_i(mem_we), .waddr_i(s_addr_q[5]), .wdata_i(wb),
    .re_i(mem_re), .raddr_i(dp_addr_q), .rdata_o(mem_rdata));

  // s1's word: the read, or a write it would have missed, forwarded.
  always_comb begin
    for (int b = 0; b < DW; b++)
      cur[b] = (fs_rd_q & mem_rdata[b]) | (fs_last_q & last_q[b]) | (fs_y16_q & y16[b]) |
               (fs_ybf_q & ybf[b]) | (fs_y32_q & y32[b]) | (fs_pass_q & p_q[5][b]);
    add32 = s_v_q[1] && s_sum_q[1] && (ACC32 == 1 || s_dt_q[1] == DT_FP32);
  end

  // The ALU array: a lane adder per format (ACC32: fp32 lanes only, over the
  // widened word), fed from s1, results at s5.
  if (ACC32 == 0) begin : g_lanes
    logic add16, addbf;
    assign add16 = s_v_q[1] && s_sum_q[1] && s_dt_q[1] == DT_FP16;
    assign addbf = s_v_q[1] && s_sum_q[1] && s_dt_q[1] == DT_BF16;
    for (genvar i = 0; i < L16; i++) begin : g_lane16
      fp_add #(.EXP_W(5), .MAN_W(10)) u_fp16 (
        .clk_i, .valid_i(add16), .a_i(cur[16*i +: 16]), .b_i(s1_flit_q[16*i +: 16]),
        .y_o(y16[16*i +: 16]));
      fp_add #(.EXP_W(8), .MAN_W(7)) u_bf16 (
        .clk_i, .valid_i(addbf), .a_i(cur[16*i +: 16]), .b_i(s1_flit_q[16*i +: 16]),
        .y_o(ybf[16*i +: 16]));
    end
    for (genvar i = 0; i < L32; i++) begin : g_lane32
      fp_add #(.EXP_W(8), .MAN_W(23)) u_fp32 (
        .clk_i, .valid_i(add32), .a_i(cur[32*i +: 32]), .b_i(s1_flit_q[32*i +: 32]),
        .y_o(y32[32*i +: 32]));
    end
  end else begin : g_acc32
    assign y16 = '0;
    assign ybf = '0;
    for (genvar i = 0; i < DW / 32; i++) begin : g_lane32
      fp_add #(.EXP_W(8), .MAN_W(23)) u_fp32 (
        .clk_i, .valid_i(add32), .a_i(cur[32*i +: 32]), .b_i(s1_flit_q[32*i +: 32]),
        .y_o(y32[32*i +: 32]));
    end
  end

  // The write-back's value, and for the FIFO its flit (ACC32: rounded to the
  // 16-bit format).
  always_comb begin
    if (!s_sum_q[5])                          wb = p_q[5];
    else if (ACC32 == 1)                      wb = y32;
    else if (s_dt_q[5] == DT_FP16)            wb = y16;
    else if (s_dt_q[5] == DT_BF16)            wb = ybf;
    else                                      wb = y32;
  end

  // ACC32: a data flit widened on its way in, a word rounded on its way out.
  if (ACC32 == 1) begin : g_conv
    logic [DW-1:0]     w16, wbf;
    logic [FLIT_W-1:0] n16, nbf;
    logic [1:0]        in_dt;
    for (genvar i = 0; i < L16; i++) begin : g_lane
      fp_widen #(.EXP_W(5), .MAN_W(10)) u_w16 (
        .a_i(flit_in[dp_src_q[0]][16*i +: 16]), .y_o(w16[32*i +: 32]));
      fp_widen #(.EXP_W(8), .MAN_W(7)) u_wbf (
        .a_i(flit_in[dp_src_q[0]][16*i +: 16]), .y_o(wbf[32*i +: 32]));
      fp_narrow #(.EXP_W(5), .MAN_W(10)) u_n16 (.a_i(wb[32*i +: 32]), .y_o(n16[16*i +: 16]));
      fp_narrow #(.EXP_W(8), .MAN_W(7)) u_nbf (.a_i(wb[32*i +: 32]), .y_o(nbf[16*i +: 16]));
    end
    assign in_dt   = dp_dt_q;
    assign widened = (in_dt == DT_FP16) ? w16 : (in_dt == DT_BF16) ? wbf
                                              : DW'(flit_in[dp_src_q[0]]);
    assign narrowed = (s_dt_q[5] == DT_FP16) ? n16 : nbf;
  end else begin : g_no_conv
    assign widened  = DW'(flit_in[dp_src_q[0]]);
    assign narrowed = wb[FLIT_W-1:0];
  end
  assign fifo_wdata = s_narrow_q[5] ? narrowed : wb[FLIT_W-1:0];

  // The issue's forwarding, decided against s4 (the write-back of the next
  // cycle) and s5 (the write-back of this cycle, the register of the next).
  logic fwd4, fwd5;
  always_comb begin
    fwd4 = s_v_q[4] && s_dest_q[4] == D_MEM && s_addr_q[4] == dp_addr_q;
    fwd5 = s_v_q[5] && s_dest_q[5] == D_MEM && s_addr_q[5] == dp_addr_q;
  end

  // ================================================================ output reader
  logic [HDR_W-1:0]  hf_rdata;
  logic [FLIT_W-1:0] df_rdata;
  logic              issue_ok, rd_hdr, rd_data;
  logic [ELEN_W-1:0] rem_d;
  always_comb begin
    issue_ok = !pend_q || out_ready_i;
    rd_data  = rst_ni && issue_ok && wr_q[drptr_q] && (pend_hdr_q || rem_q != '0);
    rd_hdr   = rst_ni && issue_ok && wr_q[drptr_q] && !pend_hdr_q && rem_q == '0 && hfill_q != '0;
    rem_d    = pend_hdr_q ? ELEN_W'(hf_rdata[LEN_LSB +: LEN_W] - 8'd1) : rem_q - 1'b1;
  end

  t3_mem #(.DEPTH(HD), .WIDTH(HDR_W)) u_hfifo (
    .clk_i, .we_i(rst_ni && ohp_v_q), .waddr_i(hwptr_q), .wdata_i(out_hdr),
    .re_i(rd_hdr), .raddr_i(hrptr_q), .rdata_o(hf_rdata));
  t3_mem #(.DEPTH(OD), .WIDTH(FLIT_W)) u_dfifo (
    .clk_i, .we_i(fifo_we), .waddr_i(s_slot_q[5]), .wdata_i(fifo_wdata),
    .re_i(rd_data), .raddr_i(drptr_q), .rdata_o(df_rdata));

  assign out_valid_o = pend_q && rst_ni;
  assign out_flit_o  = !out_valid_o ? '0 : pend_hdr_q ? FLIT_W'(hf_rdata) : df_rdata;

  // ================================================================ registers
  // The next occupancy (an allocation and a free never come together) and
  // whether an allocation raises the high-water mark: the +1, the -1 and the
  // compare from flops, the decision choosing last (timing: the decision,
  // then an adder, then a compare into hwm_q, was the path at 204.1 MHz).
  // Occupancy grows only by an allocation, and never exceeds the mark.
  logic [OCC_W-1:0] occ_d, occ_p1;
  logic             hwm_up;
  always_comb begin
    occ_p1 = occ_q + 1'b1;
    hwm_up = occ_p1 > hwm_q;
    occ_d  = alloc ? occ_p1 : free_e ? occ_q - 1'b1 : occ_q;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      hv_q <= '0;
      for (int s = 0; s < 2; s++) begin
        hdr_q[s]   <= '0;
        hcode_q[s] <= '0;
      end
      turn_q <= 1'b0;
      match_q[0] <= '0;
      match_q[1] <= '0;
      v_q    <= '0;
      expired_q <= '0;
      for (int e = 0; e < ENTRIES; e++) begin
        tag_q[e]  <= '0;
        cnt_q[e]  <= '0;
        need_q[e] <= '0;
        exp_q[e]  <= '0;
        home_q[e] <= '0;
        dt_q[e]   <= '0;
        len_q[e]  <= '0;
        age_q[e]  <= '0;
        lru_q[e]  <= ENT_W'(e);
      end
      occ_q      <= '0;
      dp_q       <= 1'b0;
      dp_src_q   <= '0;
      dp_mode_q  <= M_DROP;
      dp_left_q  <= '0;
      dp_addr_q  <= '0;
      dp_slot_q  <= '0;
      dp_dt_q    <= '0;
      dpn_q      <= 1'b0;
      dpn_src_q  <= '0;
      dpn_mode_q <= M_DROP;
      dpn_left_q <= '0;
      dpn_addr_q <= '0;
      dpn_slot_q <= '0;
      dpn_dt_q   <= '0;
      s_v_q      <= '0;
      s_sum_q    <= '0;
      s_narrow_q <= '0;
      for (int k = 1; k <= 5; k++) begin
        s_dest_q[k] <= D_NONE;
        s_dt_q[k]   <= '0;
        s_addr_q[k] <= '0;
        s_slot_q[k] <= '0;
      end
      s1_evict_q <= 1'b0;
      s1_flit_q  <= '0;
      for (int k = 2; k <= 5; k++) p_q[k] <= '0;
      fs_rd_q    <= 1'b0;
      fs_last_q  <= 1'b0;
      fs_y16_q   <= 1'b0;
      fs_ybf_q   <= 1'b0;
      fs_y32_q   <= 1'b0;
      fs_pass_q  <= 1'b0;
      last_q     <= '0;
      ohp_v_q       <= 1'b0;
      ohp_hdr_src_q <= 1'b0;
      ohp_result_q  <= 1'b0;
      ohp_full_q    <= 1'b0;
      ohp_hdr_q     <= '0;
      ohp_de_q      <= '0;
      hwptr_q    <= '0;
      hrptr_q    <= '0;
      hfill_q    <= '0;
      dwptr_q    <= '0;
      drptr_q    <= '0;
      dres_q     <= '0;
      wr_q       <= '0;
      pend_q     <= 1'b0;
      pend_hdr_q <= 1'b0;
      rem_q      <= '0;
      err_code_q <= '0;
      err_op_q   <= '0;
      err_stream_q <= 1'b0;
      evt_mal_q  <= 1'b0;
      evt_ref_q  <= 1'b0;
      st_alloc_q <= '0;
      st_hits_q  <= '0;
      st_compl_q <= '0;
      st_lru_q   <= '0;
      st_tmo_q   <= '0;
      st_stall_req_q <= '0;
      st_stall_rsp_q <= '0;
      st_bypass_q <= '0;
      st_pass_q  <= '0;
      st_mal_q   <= '0;
      st_ref_q   <= '0;
      hwm_q      <= '0;
    end else begin
      // ---- headers taken; the one decided leaves its register
      if (hdr_done) hv_q[hs] <= 1'b0;
      for (int s = 0; s < 2; s++)
        if (take[s]) begin
          hv_q[s]    <= 1'b1;
          hdr_q[s]   <= {7'd0, flit_in[s][HIT_LSB:0]};
          hcode_q[s] <= hdr_check(flit_in[s][HDR_W-1:0], s == 1);
        end
      // The turn alternates while both streams hold a header, one
      // considered a decision; else it is the stream that holds one.
      if ((hv_q[0] && !(hdr_done && !hs)) || take[0]) begin
        if ((hv_q[1] && !(hdr_done && hs)) || take[1]) turn_q <= hdr_act ? !turn_q : turn_q;
        else turn_q <= 1'b0;
      end else begin
        turn_q <= (hv_q[1] && !(hdr_done && hs)) || take[1];
      end

      // ---- the entry, the match vectors, the timeouts
      match_q[0] <= match_d[0];
      match_q[1] <= match_d[1];
      expired_q  <= expired_d;
      for (int e = 0; e < ENTRIES; e++) begin
        if (alloc && de_oh[e]) begin
          v_q[e]    <= 1'b1;
          tag_q[e]  <= k_alloc;
          cnt_q[e]  <= h_pull ? 8'd0 : h_cnt;
          need_q[e] <= h_exp - h_cnt;  // a pull: what its responses carry
          exp_q[e]  <= h_pull ? h_exp - h_cnt : h_exp;
          home_q[e] <= h_home;
          dt_q[e]   <= h_dt;
          len_q[e]  <= ELEN_W'(h_len);
        end else if ((act == A_ADD || act == A_STORE_FILL) && de_oh[e]) begin
          cnt_q[e]  <= cnt_q[e] + h_cnt;
          need_q[e] <= need_q[e] - h_cnt;
        end else if (free_e && de_oh[e]) begin
          v_q[e] <= 1'b0;
        end
        age_q[e] <= (touch && de_oh[e]) ? '0 : age_next[e];
        lru_q[e] <= lru_d[e];
      end
      occ_q <= occ_d;
      if (alloc && hwm_up) hwm_q <= occ_p1;

      // ---- the data phase: on, or the next one in, or the one decided
      if (issue) begin
        dp_left_q <= dp_left_q - 1'b1;
        dp_addr_q <= dp_addr_q + 1'b1;
        dp_slot_q <= dp_slot_q + 1'b1;
      end
      if (dp_free && dpn_q) begin
        dp_q      <= 1'b1;
        dp_src_q  <= dpn_src_q;
        dp_mode_q <= dpn_mode_q;
        dp_left_q <= dpn_left_q;
        dp_addr_q <= dpn_addr_q;
        dp_slot_q <= dpn_slot_q;
        dp_dt_q   <= dpn_dt_q;
        dpn_q     <= 1'b0;
      end else if (dp_free && start) begin
        dp_q      <= 1'b1;
        dp_src_q  <= (start_mode == M_EVICT) ? 2'd2 : {1'b0, hs};
        dp_mode_q <= start_mode;
        dp_left_q <= start_left;
        dp_addr_q <= start_addr;
        dp_slot_q <= dwptr_q;
        dp_dt_q   <= start_dt;
      end else if (dp_free) begin
        dp_q <= 1'b0;
      end else if (start) begin
        dpn_q      <= 1'b1;
        dpn_src_q  <= (start_mode == M_EVICT) ? 2'd2 : {1'b0, hs};
        dpn_mode_q <= start_mode;
        dpn_left_q <= start_left;
        dpn_addr_q <= start_addr;
        dpn_slot_q <= dwptr_q;
        dpn_dt_q   <= start_dt;
      end

      // ---- the pipeline
      s_v_q[1]      <= issue && dp_mode_q != M_DROP;
      s_sum_q[1]    <= dp_mode_q == M_ADD || dp_mode_q == M_ADDO;
      s_narrow_q[1] <= ACC32 == 1 && dp_dt_q != DT_FP32 && (dp_mode_q == M_ADDO || dp_mode_q == M_EVICT);
      s_dest_q[1]   <= (dp_mode_q == M_STORE || dp_mode_q == M_ADD) ? D_MEM : D_FIFO;
      s_dt_q[1]     <= dp_dt_q;
      s_addr_q[1]   <= dp_addr_q;
      s_slot_q[1]   <= dp_slot_q;
      s1_evict_q    <= dp_mode_q == M_EVICT;
      if (issue) s1_flit_q <= (dp_mode_q == M_PASS) ? DW'(flit_in[dp_src_q[0]]) : widened;
      fs_pass_q <= fwd4 && !s_sum_q[4];
      fs_y16_q  <= fwd4 && s_sum_q[4] && ACC32 == 0 && s_dt_q[4] == DT_FP16;
      fs_ybf_q  <= fwd4 && s_sum_q[4] && ACC32 == 0 && s_dt_q[4] == DT_BF16;
      fs_y32_q  <= fwd4 && s_sum_q[4] && (ACC32 == 1 || s_dt_q[4] == DT_FP32);
      fs_last_q <= !fwd4 && fwd5;
      fs_rd_q   <= !fwd4 && !fwd5;
      for (int k = 2; k <= 5; k++) begin
        s_v_q[k]      <= s_v_q[k-1];
        s_sum_q[k]    <= s_sum_q[k-1];
        s_narrow_q[k] <= s_narrow_q[k-1];
        s_dest_q[k]   <= s_dest_q[k-1];
        s_dt_q[k]     <= s_dt_q[k-1];
        s_addr_q[k]   <= s_addr_q[k-1];
        s_slot_q[k]   <= s_slot_q[k-1];
      end
      if (s_v_q[1]) p_q[2] <= s1_evict_q ? cur : s1_flit_q;
      for (int k = 3; k <= 5; k++)
        if (s_v_q[k-1]) p_q[k] <= p_q[k-1];
      if (mem_we) last_q <= wb;

      // ---- the output FIFOs and the reader
      // The output header: its slot counted at the decision, written a cycle later.
      ohp_v_q       <= reserve;
      ohp_hdr_src_q <= act == A_BYPASS || act == A_PASS_ALONE || (act == A_ADDO && h_push);
      ohp_result_q  <= act != A_BYPASS;
      ohp_full_q    <= act == A_ADDO || act == A_PASS_FILL;
      ohp_hdr_q     <= h;
      ohp_de_q      <= de_oh;
      if (ohp_v_q) hwptr_q <= hwptr_q + 1'b1;
      if (rd_hdr)  hrptr_q <= hrptr_q + 1'b1;
      hfill_q <= hfill_q + 3'(reserve) - 3'(rd_hdr);
      if (reserve) dwptr_q <= dwptr_q + OD_W'(start_left);
      dres_q <= dres_q + (reserve ? (OD_W + 1)'(start_left) : '0) - (OD_W + 1)'(rd_data);
      for (int i = 0; i < OD; i++) begin
        if (fifo_we && s_slot_q[5] == OD_W'(i)) wr_q[i] <= 1'b1;
        if (rd_data && drptr_q == OD_W'(i))     wr_q[i] <= 1'b0;
      end
      if (rd_data) begin
        drptr_q <= drptr_q + 1'b1;
        rem_q   <= rem_d;
      end
      if (rd_hdr || rd_data) begin
        pend_q     <= 1'b1;
        pend_hdr_q <= rd_hdr;
      end else if (pend_q && out_ready_i) begin
        pend_q     <= 1'b0;
        pend_hdr_q <= 1'b0;
      end

      // ---- status
      evt_mal_q <= act == A_DROP;
      evt_ref_q <= act == A_REFUSE;
      if (act == A_DROP || act == A_REFUSE) begin
        err_code_q   <= act == A_REFUSE ? refusal : hcode_q[hs];
        err_stream_q <= hs;
        err_op_q     <= h_op;
      end
      if (alloc) st_alloc_q <= st_alloc_q + 1'b1;
      if (act == A_ADD || act == A_STORE_FILL || act == A_ADDO || act == A_PASS_FILL)
        st_hits_q <= st_hits_q + 1'b1;
      if (act == A_ADDO || act == A_PASS_FILL || act == A_PASS_ALONE) st_compl_q <= st_compl_q + 1'b1;
      if (act == A_EVICT_LRU || act == A_FREE_LRU) st_lru_q <= st_lru_q + 1'b1;
      if (act == A_EVICT_TMO || act == A_FREE_TMO) st_tmo_q <= st_tmo_q + 1'b1;
      if (valid[0] && !ready[0]) st_stall_req_q <= st_stall_req_q + 1'b1;
      if (valid[1] && !ready[1]) st_stall_rsp_q <= st_stall_rsp_q + 1'b1;
      if (act == A_BYPASS) st_bypass_q <= st_bypass_q + 1'b1;
      if (act == A_PULL_PASSED) st_pass_q <= st_pass_q + 1'b1;
      if (act == A_DROP) st_mal_q <= st_mal_q + 1'b1;
      if (act == A_REFUSE) st_ref_q <= st_ref_q + 1'b1;
    end
  end

  // ================================================================ outputs
  assign busy_o = occ_q != '0 || dp_q || dpn_q || hfill_q != '0 || dres_q != '0 || pend_q || |hv_q ||
                  |s_v_q;
  assign occupancy_o          = occ_q;
  assign err_code_o           = err_code_q;
  assign err_stream_o         = err_stream_q;
  assign err_op_o             = err_op_q;
  assign evt_malformed_o      = evt_mal_q;
  assign evt_refused_o        = evt_ref_q;
  assign stat_alloc_o         = st_alloc_q;
  assign stat_hits_o          = st_hits_q;
  assign stat_completions_o   = st_compl_q;
  assign stat_evict_lru_o     = st_lru_q;
  assign stat_evict_timeout_o = st_tmo_q;
  assign stat_stall_req_o     = st_stall_req_q;
  assign stat_stall_rsp_o     = st_stall_rsp_q;
  assign stat_bypasses_o      = st_bypass_q;
  assign stat_pull_passed_o   = st_pass_q;
  assign stat_malformed_o     = st_mal_q;
  assign stat_refused_o       = st_ref_q;
  assign stat_hwm_o           = hwm_q;

endmodule
