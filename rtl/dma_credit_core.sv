// The endpoint's DMA credit controller (ISCA 2020 in-network collectives
// paper, §IV "endpoint", the figure of the DMA and its controller): requests
// from the processor allocate a counter of the credit counter array, the
// request generator splits them into PUSH/PULL packets under the injection
// limit, results are matched to their counter by the ctr id they carry, and
// completion records go to a queue the processor reads through registers.
// The C++ model of the same core is hw/dma_credit/dma_credit_core.{h,cpp}
// (cycle- and bit-exact); the block around it, rtl/dma_credit.sv, is
// generated from hw/dma_credit/dma_credit.yaml; docs/blocks/dma_credit.md
// has the rules and the cycle table.
//
// Storage: the command queue, the completion queue and the counters' tags
// are t3_mem arrays (1R1W, read latency 1; each queue's head is its
// memory's read register). Per counter, the live and all-issued bits, the
// packets outstanding and the timer are flops: every timer advances and is
// compared with TIMEOUT in every cycle, the free-counter search reads every
// live bit, and a cycle may update two counters' outstanding counts (an issue
// and a result), more ports than a t3_mem has.
module dma_credit_core #(
  parameter int unsigned CTRS      = 8,
  parameter int unsigned FLIT_W    = 128,
  parameter int unsigned MAX_LEN   = 4,
  parameter int unsigned LEN_W     = 20,
  parameter int unsigned RETRY_W   = 8,
  parameter int unsigned TIMEOUT_W = 16,
  parameter int unsigned CMD_DEPTH = 4,
  parameter int unsigned CPL_DEPTH = 8,
  parameter int unsigned STAT_W    = 32,
  localparam int unsigned CTR_W = (CTRS > 1) ? $clog2(CTRS) : 1,
  localparam int unsigned CRD_W = $clog2(CTRS + 1),
  localparam int unsigned TOT_W = LEN_W + CTR_W
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // requests
  input  logic                 cmd_valid_i,
  output logic                 cmd_ready_o,
  input  logic [47:0]          cmd_local_addr_i,
  input  logic [47:0]          cmd_net_addr_i,
  input  logic [LEN_W-1:0]     cmd_len_i,
  input  logic [1:0]           cmd_red_op_i,
  input  logic [1:0]           cmd_dtype_i,
  input  logic                 cmd_pull_i,
  input  logic [7:0]           cmd_src_i,
  input  logic [7:0]           cmd_dst_i,
  input  logic [7:0]           cmd_tag_i,
  // packet descriptors
  output logic                 pkt_valid_o,
  input  logic                 pkt_ready_i,
  output logic [FLIT_W-1:0]    pkt_hdr_o,
  output logic [47:0]          pkt_local_addr_o,
  // results
  input  logic                 res_valid_i,
  output logic                 res_ready_o,
  /* verilator lint_off UNUSEDSIGNAL */  // a header's fields sit in its low 128 bits
  input  logic [FLIT_W-1:0]    res_hdr_i,
  /* verilator lint_on UNUSEDSIGNAL */
  // the completion record written in this cycle
  output logic                 cpl_wr_o,
  output logic [2:0]           cpl_status_o,
  output logic [CTR_W-1:0]     cpl_ctr_o,
  output logic [7:0]           cpl_tag_o,
  output logic [CRD_W-1:0]     credits_o,
  output logic [TOT_W-1:0]     outstanding_o,
  // registers
  input  logic [31:0]          cfg_inj_limit_i,
  input  logic [RETRY_W-1:0]   cfg_retry_interval_i,
  input  logic [RETRY_W-1:0]   cfg_retry_limit_i,
  input  logic [TIMEOUT_W-1:0] cfg_timeout_i,
  input  logic [47:0]          reg_local_addr_i,
  input  logic [47:0]          reg_net_addr_i,
  input  logic [31:0]          reg_len_i,
  input  logic [1:0]           reg_red_op_i,
  input  logic [1:0]           reg_dtype_i,
  input  logic                 reg_pull_i,
  input  logic [7:0]           reg_src_i,
  input  logic [7:0]           reg_dst_i,
  input  logic [7:0]           reg_tag_i,
  input  logic                 reg_go_i,
  input  logic                 cpl_pop_i,
  output logic                 go_pending_o,
  output logic                 eng_busy_o,
  output logic [6:0]           cmd_count_o,
  output logic [6:0]           cpl_count_o,
  output logic                 cpl_head_valid_o,
  output logic [2:0]           cpl_head_status_o,
  output logic [CTR_W-1:0]     cpl_head_ctr_o,
  output logic [7:0]           cpl_head_tag_o,
  output logic                 ev_cpl_ok_o,
  output logic                 ev_cpl_err_o,
  output logic                 ev_stray_o,
  output logic [STAT_W-1:0]    stat_alloc_fail_o,
  output logic [STAT_W-1:0]    stat_retries_o,
  output logic [STAT_W-1:0]    stat_no_credit_o,
  output logic [STAT_W-1:0]    stat_timeouts_o,
  output logic [STAT_W-1:0]    stat_bytes_o,
  output logic [STAT_W-1:0]    stat_pkts_o,
  output logic [STAT_W-1:0]    stat_results_o,
  output logic [STAT_W-1:0]    stat_strays_o,
  output logic [STAT_W-1:0]    stat_bad_res_o,
  output logic [STAT_W-1:0]    stat_cpl_ok_o,
  output logic [STAT_W-1:0]    stat_refused_o
);

  localparam int unsigned FB     = FLIT_W / 8;  // bytes a flit
  localparam int unsigned FBL    = $clog2(FB);
  localparam int unsigned CQ_AW  = (CMD_DEPTH > 1) ? $clog2(CMD_DEPTH) : 1;
  localparam int unsigned CP_AW  = (CPL_DEPTH > 1) ? $clog2(CPL_DEPTH) : 1;
  localparam int unsigned CQN_W  = $clog2(CMD_DEPTH + 1);
  localparam int unsigned CPN_W  = $clog2(CPL_DEPTH + 1);
  // a queued request: {cause, local, net, len, dtype, pull, src, dst, tag}
  localparam int unsigned CMD_EW = 3 + 48 + 48 + LEN_W + 2 + 1 + 24;
  // a completion record: {status, ctr, tag}
  localparam int unsigned REC_W  = 3 + CTR_W + 8;

  localparam logic [2:0] ST_OK = 3'd0, ST_TIMEOUT = 3'd1, ST_NO_CREDIT = 3'd2, ST_BAD_LEN = 3'd3,
                         ST_BAD_RED_OP = 3'd4, ST_BAD_DTYPE = 3'd5, ST_BAD_ADDR = 3'd6;

  // The refusal rule (DmaCplStatus, dma_request_check): the first that holds.
  // The range check addr + len x FLIT_W/8 > 2^48 on the low RK bits (timing):
  // with len below 2^LEN_W (else BAD_LEN holds first) the bytes are below
  // 2^RK, so the sum passes 2^48 exactly when addr[47:RK] is all ones and
  // addr[RK-1:0] + bytes passes 2^RK.
  localparam int unsigned RK = LEN_W + FBL;  // at most 30: below 48
  function automatic logic [2:0] req_check(input logic [31:0] len, input logic [1:0] red_op,
                                           input logic [1:0] dtype, input logic [47:0] la,
                                           input logic [47:0] na);
    logic [RK:0] bytes, lsum, nsum;
    logic        lover, nover;
    bytes = (RK+1)'(len[LEN_W-1:0]) << FBL;
    lsum  = {1'b0, la[RK-1:0]} + bytes;
    nsum  = {1'b0, na[RK-1:0]} + bytes;
    lover = &la[47:RK] && lsum > {1'b1, {RK{1'b0}}};
    nover = &na[47:RK] && nsum > {1'b1, {RK{1'b0}}};
    if (len == '0 || (len >> LEN_W) != '0) req_check = ST_BAD_LEN;
    else if (red_op != t3_pkt_pkg::RED_ADD) req_check = ST_BAD_RED_OP;
    else if (dtype > t3_pkt_pkg::DT_FP32) req_check = ST_BAD_DTYPE;
    else if (la[FBL-1:0] != '0 || na[FBL-1:0] != '0 || lover || nover) req_check = ST_BAD_ADDR;
    else req_check = ST_OK;
  endfunction

  // ---------------------------------------------------------------- state
  logic [CQ_AW-1:0] cq_wr_q, cq_rd_q;
  logic [CQN_W-1:0] cq_n_q;
  logic             cq_hv_q, go_pend_q;
  logic [RETRY_W-1:0] tries_q, wait_q;
  // request generator
  logic             eng_valid_q;
  logic [CTR_W-1:0] eng_ctr_q;
  logic [47:0]      eng_local_q, eng_net_q;
  logic [LEN_W-1:0] eng_len_q;
  logic [1:0]       eng_dtype_q;
  logic             eng_pull_q;
  logic [7:0]       eng_src_q, eng_dst_q;
  // packet descriptor register
  logic             pkt_valid_q, pkt_pull_q;
  logic [1:0]       pkt_dtype_q;
  logic [7:0]       pkt_len_q, pkt_src_q, pkt_dst_q, pkt_ctr_q;
  logic [47:0]      pkt_addr_q, pkt_local_q;
  // counters
  logic [CTRS-1:0]      valid_q, all_q;
  logic [LEN_W-1:0]     out_q   [CTRS];
  logic [TIMEOUT_W-1:0] timer_q [CTRS];
  logic [TOT_W-1:0]     tot_q;
  logic [CRD_W-1:0]     credits_q;
  // completion stage and queue
  logic             st_valid_q, st_mem_q;
  logic [2:0]       st_status_q;
  logic [CTR_W-1:0] st_ctr_q;
  logic [7:0]       st_tag_q;
  logic [CP_AW-1:0] cp_wr_q, cp_rd_q;
  logic [CPN_W-1:0] cp_n_q;
  logic             cp_hv_q, cpl_full_q;
  logic [STAT_W-1:0] st_alloc_fail_q, st_retries_q, st_no_credit_q, st_timeouts_q, st_bytes_q,
                     st_pkts_q, st_results_q, st_strays_q, st_bad_res_q, st_cpl_ok_q, st_refused_q;

  // ---------------------------------------------------------------- memories
  logic              cq_we, cq_re;
  logic [CMD_EW-1:0] cq_wdata, cq_rdata;
  logic              tg_we, tg_re;
  logic [CTR_W-1:0]  tg_waddr, tg_raddr;
  logic [7:0]        tg_rdata;
  logic              cp_we, cp_re;
  logic [REC_W-1:0]  cp_wdata, cp_rdata;

  t3_mem #(.DEPTH(CMD_DEPTH), .WIDTH(CMD_EW)) u_cmdq (
    .clk_i, .we_i(cq_we), .waddr_i(cq_wr_q), .wdata_i(cq_wdata), .re_i(cq_re), .raddr_i(cq_rd_q),
    .rdata_o(cq_rdata)
  );
  t3_mem #(.DEPTH(CTRS), .WIDTH(8)) u_tags (
    .clk_i, .we_i(tg_we), .waddr_i(tg_waddr), .wdata_i(cq_rdata[7:0]), .re_i(tg_re),
    .raddr_i(tg_raddr), .rdata_o(tg_rdata)
  );
  t3_mem #(.DEPTH(CPL_DEPTH), .WIDTH(REC_W)) u_cplq (
    .clk_i, .we_i(cp_we), .waddr_i(cp_wr_q), .wdata_i(cp_wdata), .re_i(cp_re), .raddr_i(cp_rd_q),
    .rdata_o(cp_rdata)
  );

  // the head request's fields
  logic [2:0]       h_cause;
  logic [47:0]      h_local, h_net;
  logic [LEN_W-1:0] h_len;
  logic [1:0]       h_dtype;
  logic             h_pull;
  logic [7:0]       h_src, h_dst, h_tag;
  assign {h_cause, h_local, h_net, h_len, h_dtype, h_pull, h_src, h_dst, h_tag} = cq_rdata;

  // ---------------------------------------------------------------- requests in
  logic        go, room, push;
  logic [47:0] la, na;
  logic [2:0]  reg_cause, port_cause;
  // both sources checked in parallel, the one taken chosen last (timing)
  assign reg_cause  = req_check(reg_len_i, reg_red_op_i, reg_dtype_i, reg_local_addr_i, reg_net_addr_i);
  assign port_cause = req_check(32'(cmd_len_i), cmd_red_op_i, cmd_dtype_i, cmd_local_addr_i,
                                cmd_net_addr_i);
  always_comb begin
    go   = reg_go_i || go_pend_q;  // CMD_GO before the command port
    room = 32'(cq_n_q) < CMD_DEPTH;
    push = room && (go || cmd_valid_i);
    la   = go ? reg_local_addr_i : cmd_local_addr_i;
    na   = go ? reg_net_addr_i : cmd_net_addr_i;
    cq_wdata = {go ? reg_cause : port_cause, la, na,
                go ? reg_len_i[LEN_W-1:0] : cmd_len_i,
                go ? reg_dtype_i : cmd_dtype_i,
                go ? reg_pull_i : cmd_pull_i,
                go ? reg_src_i : cmd_src_i,
                go ? reg_dst_i : cmd_dst_i,
                go ? reg_tag_i : cmd_tag_i};
  end

  // ---------------------------------------------------------------- the completion port
  // One record a cycle, in this priority: a timeout, the head's record (a
  // refusal, NO_CREDIT), a request's last result; none while the completion
  // queue has no room. No source waits on the result decode (timing).
  // cpl_full_q is the room flag inverted (cp_n_q + st_valid_q >= CPL_DEPTH),
  // computed at the edge before from the next count (timing: the compare fed
  // the timeout, the head and the result's take, and through them the
  // outstanding count). Kept inverted so that its value before the first
  // reset edge (a flop's 0, as every other) is its reset value.
  logic cpl_room;
  assign cpl_room = !cpl_full_q;

  // ---------------------------------------------------------------- timeouts
  // exp_q (one-hot) is the counter chosen at the last edge: the lowest whose
  // timer had reached TIMEOUT (none if a result restarted it, or if it timed
  // out at that edge). It still waits for results (nothing else frees it),
  // and times out now if a record can be written. The compares, the choice
  // and whether there is one (exp_any_q) are registered (timing).
  logic [CTRS-1:0]  exp_q, due, exp_raw, exp_low, exp_nx;
  logic             exp_any_q;
  logic [LEN_W-1:0] exp_out_q, exp_out;  // the chosen counter's outstanding packets
  // the total less those packets, less and plus one, each one adder from
  // flops (timing: a subtract, then +1, was two adders in a row): with
  // n = ~x, t - x - 1 = t + n, t - x = t + n + 1, t - x + 1 = t + n + 2, the
  // last through a carry-save step (t, n, 2 -> sum, carry) into one adder
  logic [TOT_W-1:0] exp_not, csa_s, csa_c;
  assign exp_not = ~(TOT_W'(exp_out_q));
  assign csa_s   = tot_q ^ exp_not ^ TOT_W'(2);
  assign csa_c   = ((tot_q & exp_not) | ((tot_q | exp_not) & TOT_W'(2))) << 1;
  logic             to_fire;
  logic [CTR_W-1:0] to_ctr;
  assign due = exp_q;
  always_comb begin
    to_ctr = '0;
    for (int unsigned c = 0; c < CTRS; c++)
      if (due[c]) to_ctr = to_ctr | CTR_W'(c);  // one-hot to binary
    to_fire = exp_any_q && cpl_room;
    // the next choice
    exp_low = '0;
    for (int unsigned c = 0; c < CTRS; c++) begin
      exp_raw[c] = valid_q[c] && all_q[c] && cfg_timeout_i != '0 && timer_q[c] >= cfg_timeout_i;
      if (exp_raw[c] && (exp_raw & ((CTRS'(1) << c) - 1'b1)) == '0) exp_low[c] = 1'b1;
    end
    // no result or issue changes them before it times out: it waits for
    // results (no issue), and a result for it now cancels the choice
    exp_out = '0;
    for (int unsigned c = 0; c < CTRS; c++)
      if (exp_low[c]) exp_out = exp_out | out_q[c];
  end

  // ---------------------------------------------------------------- the head
  logic             h_refuse, h_alloc, h_fail, h_give_up, pop_head, any_free;
  logic [CTR_W-1:0] alloc_ctr;
  always_comb begin
    any_free  = 1'b0;
    alloc_ctr = '0;
    for (int unsigned c = 0; c < CTRS; c++) begin
      if (!any_free && !valid_q[c]) begin
        any_free  = 1'b1;
        alloc_ctr = CTR_W'(c);
      end
    end
    h_refuse  = cq_hv_q && cpl_room && !to_fire && h_cause != ST_OK;
    h_alloc   = 1'b0;
    h_fail    = 1'b0;
    h_give_up = 1'b0;
    if (cq_hv_q && cpl_room && !to_fire && h_cause == ST_OK && !eng_valid_q && wait_q == '0) begin
      if (any_free) h_alloc = 1'b1;
      else if (tries_q >= cfg_retry_limit_i) h_give_up = 1'b1;
      else h_fail = 1'b1;
    end
    pop_head = h_refuse || h_alloc || h_give_up;
  end

  // ---------------------------------------------------------------- results
  logic [127:0] rh;
  logic [3:0]   r_op;
  logic [7:0]   r_ctr;
  logic         res_ready, res_fire, res_bad, res_match, res_match_pre, res_done, res_done_pre;
  logic         head_takes;
  // the counter the result names; res_sel_pre: the same before the head's
  // decision that takes the completion port (timing: the retry count's
  // compare with RETRY.LIMIT then selects the outstanding count last)
  logic [CTRS-1:0] res_sel, res_sel_pre;
  assign rh        = res_hdr_i[127:0];
  assign r_op      = rh[t3_pkt_pkg::OP_LSB +: t3_pkt_pkg::OP_W];
  assign r_ctr     = rh[t3_pkt_pkg::CTR_LSB +: t3_pkt_pkg::CTR_W];
  assign head_takes = h_refuse || h_give_up;
  assign res_ready = cpl_room && !to_fire && !head_takes;
  assign res_fire  = res_valid_i && res_ready;
  always_comb begin
    res_bad = !(r_op == t3_pkt_pkg::OP_RESULT || r_op == t3_pkt_pkg::OP_PULL_RSP) ||
              t3_pkt_pkg::pkt_check(rh, 8'(MAX_LEN), FBL) != t3_pkt_pkg::MAL_NONE;
    res_match_pre = 1'b0;
    res_done_pre  = 1'b0;
    for (int unsigned c = 0; c < CTRS; c++) begin
      res_sel_pre[c] = res_valid_i && cpl_room && !to_fire && !res_bad && r_ctr == 8'(c) &&
                       valid_q[c] && out_q[c] != '0;
      res_sel[c] = res_sel_pre[c] && !head_takes;
      if (res_sel_pre[c]) begin
        res_match_pre = 1'b1;
        res_done_pre  = all_q[c] && out_q[c] == LEN_W'(1);
      end
    end
    res_match = res_match_pre && !head_takes;
    res_done  = res_done_pre && !head_takes;
  end

  // ---------------------------------------------------------------- the request generator
  logic             issue, last;
  logic [7:0]       plen;
  assign issue = eng_valid_q && (!pkt_valid_q || pkt_ready_i) && cfg_inj_limit_i != '0 &&
                 32'(tot_q) < cfg_inj_limit_i;
  // the packet's length and whether it is the last, registered with the
  // length they are of (timing: the compare no longer precedes the address
  // adders); eng_len_nx: the length left after this packet
  logic             eng_last_q, h_last, nx_last;
  logic [7:0]       eng_plen_q, h_plen, nx_plen;
  logic [LEN_W-1:0] eng_len_nx;
  assign last       = eng_last_q;
  assign plen       = eng_plen_q;
  assign eng_len_nx = eng_len_q - LEN_W'(plen);
  assign h_last     = 32'(h_len) <= MAX_LEN;
  assign h_plen     = h_last ? 8'(h_len) : 8'(MAX_LEN);
  assign nx_last    = 32'(eng_len_nx) <= MAX_LEN;
  assign nx_plen    = nx_last ? 8'(eng_len_nx) : 8'(MAX_LEN);

  // ---------------------------------------------------------------- the completion record
  logic             ev;
  logic [2:0]       ev_status;
  logic [CTR_W-1:0] ev_ctr;
  always_comb begin
    ev = 1'b1;
    ev_status = ST_OK;
    ev_ctr = '0;
    if (to_fire) begin
      ev_status = ST_TIMEOUT;
      ev_ctr = to_ctr;
    end else if (h_refuse) ev_status = h_cause;
    else if (h_give_up) ev_status = ST_NO_CREDIT;
    else if (res_done) ev_ctr = r_ctr[CTR_W-1:0];
    else ev = 1'b0;
  end

  // ---------------------------------------------------------------- memory ports
  logic cq_load, cp_pop, cp_load;
  assign cq_load  = cq_n_q != '0 && (!cq_hv_q || pop_head);
  assign cq_we    = rst_ni && push;
  assign cq_re    = rst_ni && cq_load;
  assign tg_we    = rst_ni && h_alloc;
  assign tg_waddr = alloc_ctr;
  // read every cycle, at the timed-out counter or at the one res_hdr_i names
  // (valid or not: no path from the result decode to the address)
  assign tg_re    = rst_ni;
  assign tg_raddr = to_fire ? to_ctr : r_ctr[CTR_W-1:0];
  assign cp_pop   = cpl_pop_i && cp_hv_q;
  assign cp_load  = cp_n_q != '0 && (!cp_hv_q || cp_pop);
  assign cp_we    = rst_ni && st_valid_q;
  assign cp_re    = rst_ni && cp_load;
  assign cp_wdata = {st_status_q, st_ctr_q, st_mem_q ? tg_rdata : st_tag_q};

  // ---------------------------------------------------------------- outputs
  logic [2:0]       cph_status;
  logic [CTR_W-1:0] cph_ctr;
  logic [7:0]       cph_tag;
  assign {cph_status, cph_ctr, cph_tag} = cp_rdata;

  always_comb begin
    pkt_hdr_o = '0;
    if (pkt_valid_q) begin
      pkt_hdr_o[t3_pkt_pkg::OP_LSB +: 4]     = pkt_pull_q ? t3_pkt_pkg::OP_PULL : t3_pkt_pkg::OP_PUSH;
      pkt_hdr_o[t3_pkt_pkg::RED_OP_LSB +: 2] = t3_pkt_pkg::RED_ADD;
      pkt_hdr_o[t3_pkt_pkg::DTYPE_LSB +: 2]  = pkt_dtype_q;
      pkt_hdr_o[t3_pkt_pkg::LEN_LSB +: 8]    = pkt_len_q;
      pkt_hdr_o[t3_pkt_pkg::SRC_LSB +: 8]    = pkt_src_q;
      pkt_hdr_o[t3_pkt_pkg::DST_LSB +: 8]    = pkt_dst_q;
      pkt_hdr_o[t3_pkt_pkg::COUNT_LSB +: 8]  = 8'd1;
      pkt_hdr_o[t3_pkt_pkg::CTR_LSB +: 8]    = pkt_ctr_q;
      pkt_hdr_o[t3_pkt_pkg::ADDR_LSB +: 48]  = pkt_addr_q;
    end
  end
  assign pkt_valid_o       = pkt_valid_q;
  assign pkt_local_addr_o  = pkt_valid_q ? pkt_local_q : '0;
  assign cmd_ready_o       = room && !go;
  assign res_ready_o       = res_ready;
  assign cpl_wr_o          = st_valid_q;
  assign cpl_status_o      = st_valid_q ? st_status_q : '0;
  assign cpl_ctr_o         = st_valid_q ? st_ctr_q : '0;
  assign cpl_tag_o         = st_valid_q ? (st_mem_q ? tg_rdata : st_tag_q) : '0;
  assign credits_o         = credits_q;
  assign outstanding_o     = tot_q;
  assign go_pending_o      = go_pend_q;
  assign eng_busy_o        = eng_valid_q;
  assign cmd_count_o       = 7'(cq_n_q) + 7'(cq_hv_q);
  assign cpl_count_o       = 7'(cp_n_q) + 7'(cp_hv_q);
  assign cpl_head_valid_o  = cp_hv_q;
  assign cpl_head_status_o = cp_hv_q ? cph_status : '0;
  assign cpl_head_ctr_o    = cp_hv_q ? cph_ctr : '0;
  assign cpl_head_tag_o    = cp_hv_q ? cph_tag : '0;
  assign ev_cpl_ok_o       = st_valid_q && st_status_q == ST_OK;
  assign ev_cpl_err_o      = st_valid_q && st_status_q != ST_OK;
  assign ev_stray_o        = res_fire && !res_match;
  assign stat_alloc_fail_o = st_alloc_fail_q;
  assign stat_retries_o    = st_retries_q;
  assign stat_no_credit_o  = st_no_credit_q;
  assign stat_timeouts_o   = st_timeouts_q;
  assign stat_bytes_o      = st_bytes_q;
  assign stat_pkts_o       = st_pkts_q;
  assign stat_results_o    = st_results_q;
  assign stat_strays_o     = st_strays_q;
  assign stat_bad_res_o    = st_bad_res_q;
  assign stat_cpl_ok_o     = st_cpl_ok_q;
  assign stat_refused_o    = st_refused_q;

  // ---------------------------------------------------------------- the edge

  // the next timeout choice: not a counter a result restarts now, nor the
  // one timing out now
  assign exp_nx = exp_low & ~res_sel & ~(to_fire ? exp_q : '0);

  // next outstanding counts with and without the result's decrement
  logic [LEN_W-1:0] out_inc [CTRS];
  logic [LEN_W-1:0] out_dec [CTRS];
  logic [TOT_W-1:0] tot_base, tot_sub, tot_p1, tot_m1;  // less a timed-out counter's packets
  logic [CRD_W-1:0] crd_p1, crd_m1;
  assign crd_p1 = credits_q + 1'b1;
  assign crd_m1 = credits_q - 1'b1;
  always_comb begin
    for (int unsigned c = 0; c < CTRS; c++) begin
      // +1 and -1 from flops, the issue (a late input: pkt_ready_i, the
      // injection limit's compare) choosing after the adders
      out_inc[c] = (issue && eng_ctr_q == CTR_W'(c)) ? out_q[c] + 1'b1 : out_q[c];
      out_dec[c] = (issue && eng_ctr_q == CTR_W'(c)) ? out_q[c] : out_q[c] - 1'b1;
    end
    // both bases from flops, and each +1 / -1, chosen by the late events
    tot_sub  = tot_q + exp_not + 1'b1;
    tot_base = to_fire ? tot_sub : tot_q;
    tot_p1   = to_fire ? csa_s + csa_c : tot_q + 1'b1;
    tot_m1   = to_fire ? tot_q + exp_not : tot_q - 1'b1;
  end

  // the next cycle's completion-queue room: the next count (less the head's
  // reload, plus the stage's record landing) without and with this cycle's
  // record, the record (the late input) chosen last
  logic [31:0] cp_n_nx;
  logic        room_nx0, room_nx1;
  always_comb begin
    cp_n_nx  = 32'(cp_n_q) + 32'(st_valid_q) - 32'(cp_load);
    room_nx0 = cp_n_nx < CPL_DEPTH;
    room_nx1 = cp_n_nx + 1 < CPL_DEPTH;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      cq_wr_q <= '0; cq_rd_q <= '0; cq_n_q <= '0; cq_hv_q <= 1'b0; go_pend_q <= 1'b0;
      tries_q <= '0; wait_q <= '0;
      eng_valid_q <= 1'b0; eng_ctr_q <= '0; eng_local_q <= '0; eng_net_q <= '0; eng_len_q <= '0;
      eng_last_q <= 1'b1; eng_plen_q <= '0;  // those of length 0
      eng_dtype_q <= '0; eng_pull_q <= 1'b0; eng_src_q <= '0; eng_dst_q <= '0;
      pkt_valid_q <= 1'b0; pkt_pull_q <= 1'b0; pkt_dtype_q <= '0; pkt_len_q <= '0;
      pkt_src_q <= '0; pkt_dst_q <= '0; pkt_ctr_q <= '0; pkt_addr_q <= '0; pkt_local_q <= '0;
      valid_q <= '0; all_q <= '0; exp_q <= '0; exp_any_q <= 1'b0; exp_out_q <= '0;
      for (int unsigned c = 0; c < CTRS; c++) begin
        out_q[c]   <= '0;
        timer_q[c] <= '0;
      end
      tot_q <= '0; credits_q <= '0;
      st_valid_q <= 1'b0; st_mem_q <= 1'b0; st_status_q <= '0; st_ctr_q <= '0; st_tag_q <= '0;
      cp_wr_q <= '0; cp_rd_q <= '0; cp_n_q <= '0; cp_hv_q <= 1'b0; cpl_full_q <= 1'b0;
      st_alloc_fail_q <= '0; st_retries_q <= '0; st_no_credit_q <= '0; st_timeouts_q <= '0;
      st_bytes_q <= '0; st_pkts_q <= '0; st_results_q <= '0; st_strays_q <= '0;
      st_bad_res_q <= '0; st_cpl_ok_q <= '0; st_refused_q <= '0;
    end else begin
      // completion queue
      if (st_valid_q) cp_wr_q <= (32'(cp_wr_q) == CPL_DEPTH - 1) ? '0 : cp_wr_q + 1'b1;
      if (cp_load) cp_rd_q <= (32'(cp_rd_q) == CPL_DEPTH - 1) ? '0 : cp_rd_q + 1'b1;
      cp_n_q  <= cp_n_q + CPN_W'(st_valid_q) - CPN_W'(cp_load);
      cp_hv_q <= cp_load || (cp_hv_q && !cp_pop);
      cpl_full_q <= ev ? !room_nx1 : !room_nx0;
      // completion stage
      st_valid_q  <= ev;
      st_status_q <= ev_status;
      st_ctr_q    <= ev_ctr;
      st_mem_q    <= res_done || to_fire;
      st_tag_q    <= (h_refuse || h_give_up) ? h_tag : '0;
      // command queue
      if (push) cq_wr_q <= (32'(cq_wr_q) == CMD_DEPTH - 1) ? '0 : cq_wr_q + 1'b1;
      if (cq_load) cq_rd_q <= (32'(cq_rd_q) == CMD_DEPTH - 1) ? '0 : cq_rd_q + 1'b1;
      cq_n_q    <= cq_n_q + CQN_W'(push) - CQN_W'(cq_load);
      cq_hv_q   <= cq_load || (cq_hv_q && !pop_head);
      go_pend_q <= go && !room;
      // retries (paper §IV: no counter, the DMA retries, then reports an error)
      if (h_fail) begin
        tries_q <= tries_q + 1'b1;
        wait_q  <= cfg_retry_interval_i;
      end else if (pop_head) begin
        tries_q <= '0;
        wait_q  <= '0;
      end else if (wait_q != '0) begin
        wait_q <= wait_q - 1'b1;
      end
      // counters
      exp_out_q <= exp_out;
      exp_q     <= exp_nx;
      exp_any_q <= |exp_nx;
      for (int unsigned c = 0; c < CTRS; c++) begin
        if (h_alloc && alloc_ctr == CTR_W'(c)) timer_q[c] <= '0;
        else if (res_sel[c]) timer_q[c] <= '0;
        else if (issue && last && eng_ctr_q == CTR_W'(c)) timer_q[c] <= '0;
        else if (valid_q[c] && all_q[c] && timer_q[c] != '1) timer_q[c] <= timer_q[c] + 1'b1;
        // the head's decision chosen last, then the result's decrement (both late)
        if (h_alloc && alloc_ctr == CTR_W'(c)) out_q[c] <= '0;
        else if (head_takes) out_q[c] <= out_inc[c];
        else out_q[c] <= res_sel_pre[c] ? out_dec[c] : out_inc[c];
        if (h_alloc && alloc_ctr == CTR_W'(c)) begin
          valid_q[c] <= 1'b1;
          all_q[c]   <= 1'b0;
        end else begin
          if ((res_sel_pre[c] && res_done_pre && !head_takes) || (to_fire && to_ctr == CTR_W'(c)))
            valid_q[c] <= 1'b0;
          if (issue && last && eng_ctr_q == CTR_W'(c)) all_q[c] <= 1'b1;
        end
      end
      // the head's decision (it takes the completion port: no result) last
      if (head_takes) tot_q <= issue ? tot_p1 : tot_base;
      else if (issue && !res_match_pre) tot_q <= tot_p1;
      else if (!issue && res_match_pre) tot_q <= tot_m1;
      else tot_q <= tot_base;
      // +1 / -1 from the flops, chosen by the late events (a timeout comes
      // without an allocation or a result)
      // the head's decision last: it comes without a timeout, an allocation
      // or a result
      if (!head_takes) begin
        if (to_fire || (res_done_pre && !h_alloc)) credits_q <= crd_m1;
        else if (h_alloc && !res_done_pre) credits_q <= crd_p1;
      end
      // packet descriptor register
      if (issue) begin
        pkt_valid_q <= 1'b1;
        pkt_pull_q  <= eng_pull_q;
        pkt_dtype_q <= eng_dtype_q;
        pkt_len_q   <= plen;
        pkt_src_q   <= eng_src_q;
        pkt_dst_q   <= eng_dst_q;
        pkt_ctr_q   <= 8'(eng_ctr_q);
        pkt_addr_q  <= eng_net_q;
        pkt_local_q <= eng_local_q;
      end else if (pkt_ready_i) begin
        pkt_valid_q <= 1'b0;
      end
      // request generator
      if (h_alloc) begin
        eng_valid_q <= 1'b1;
        eng_ctr_q   <= alloc_ctr;
        eng_local_q <= h_local;
        eng_net_q   <= h_net;
        eng_len_q   <= h_len;
        eng_last_q  <= h_last;
        eng_plen_q  <= h_plen;
        eng_dtype_q <= h_dtype;
        eng_pull_q  <= h_pull;
        eng_src_q   <= h_src;
        eng_dst_q   <= h_dst;
      end else if (issue) begin
        eng_len_q   <= eng_len_nx;
        eng_last_q  <= nx_last;
        eng_plen_q  <= nx_plen;
        eng_local_q <= eng_local_q + (48'(plen) << FBL);
        eng_net_q   <= eng_net_q + (48'(plen) << FBL);
        if (last) eng_valid_q <= 1'b0;
      end
      // status counters (they wrap); each event an enable, not a carry-in:
      // the increments do not wait for the result decode (timing)
      if (h_fail || h_give_up) st_alloc_fail_q <= st_alloc_fail_q + 1'b1;
      if ((h_alloc || h_fail || h_give_up) && tries_q != '0) st_retries_q <= st_retries_q + 1'b1;
      if (h_give_up) st_no_credit_q <= st_no_credit_q + 1'b1;
      if (to_fire) st_timeouts_q <= st_timeouts_q + 1'b1;
      if (issue) st_bytes_q <= st_bytes_q + STAT_W'(32'(plen) << FBL);
      if (issue) st_pkts_q <= st_pkts_q + 1'b1;
      if (res_match) st_results_q <= st_results_q + 1'b1;
      if (res_fire && !res_bad && !res_match) st_strays_q <= st_strays_q + 1'b1;
      if (res_fire && res_bad) st_bad_res_q <= st_bad_res_q + 1'b1;
      if (res_done) st_cpl_ok_q <= st_cpl_ok_q + 1'b1;
      if (h_refuse) st_refused_q <= st_refused_q + 1'b1;
    end
  end

endmodule
