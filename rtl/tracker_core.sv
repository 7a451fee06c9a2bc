// T3 Tracker core (T3 §4.2.1, Fig. 9): counts the local, remote and DMA writes that
// land in a tracked region per wavefront tile and emits one trigger when a
// tile has received wf_tile_size x updates_per_element element updates.
//
// Organisation: SETS sets indexed by the WG-id LSBs, WAYS ways per set tagged
// by {WG-id MSBs, WF-id}; an entry holds the lowest address seen and the
// element-update counter. The rows (tag, start address, counter) sit in one
// t3_mem per way (SETS words each, a synchronous read as an SRAM macro
// reads); the valid bits, which need a reset, are flops here.
//
// Three stages, one write a cycle (docs/blocks/tracker.md, "Pipeline"),
// behind a register of the configuration and the verdict on it (C):
//   P   the write is presented; in_ready_o decides from flops only (of its
//       set, two summary bits: a free way, two); the set's rows are read
//       (every presented write, accepted or not).
//   S1  the rows arrive; forwarded from the two writes not yet in them (wb_q,
//       being written, and lw_q, written at the last edge); hit, fire, way.
//       An accepted write's result goes to wb_q; a refused write's to lk_q.
//   WB  wb_q writes its way's row (the start address picked here) and valid
//       bit and its set's summary, pushes the trigger into the output
//       queue, moves live_o.
// A write is accepted only when it is sure to complete (nothing ever stalls
// after P): either from flops alone (its set has a free way even if every
// write in flight takes one, or its tile is known to hold one, and the output
// queue has room even if every write in flight fires), or, when that cannot
// be told, from lk_q: the lookup
// of the same write presented two cycles before, with no write accepted
// since, which is the exact decision of the one-cycle Tracker.
//
// The block firmware programs, rtl/tracker.sv, is this core behind its
// register block. The C++ cycle model hw/tracker/tracker_core.{h,cpp}
// implements exactly this behaviour; testbench/tracker compares the two
// (inside their blocks) every cycle.
//
// Parameters: the list is hw/tracker/tracker.yaml (defaults and ranges
// there; scripts/check_params.py holds this file to it).
module tracker_core #(
  parameter int unsigned SETS    = 256,  // power of two, 2..65536
  parameter int unsigned WAYS    = 8,    // 1..64
  parameter int unsigned WG_ID_W = 12,   // log2(SETS)+1..32; the MSBs above the set index are tag
  parameter int unsigned WF_ID_W = 3,    // 1..16 (T3 §4.2.1: 8 WFs per WG)
  parameter int unsigned ADDR_W  = 48,   // 1..64
  parameter int unsigned CNT_W   = 16,   // 1..31; update counter, also a write's size
  parameter int unsigned UPE_W   = 4,    // 1..8; updates-per-element field
  parameter int unsigned STAT_W  = 32,   // 1..32; status counters, wrapping
  localparam int unsigned LIVE_W = $clog2(SETS * WAYS + 1)  // width of live_o
) (
  input  logic              clk_i,
  input  logic              rst_ni,

  // Configuration (the registers, programmed by the driver before the
  // producer runs, T3 §4.4).
  input  logic              cfg_enable_i,
  input  logic [ADDR_W-1:0] cfg_base_i,       // tracked region is [base, limit)
  input  logic [ADDR_W-1:0] cfg_limit_i,
  input  logic [CNT_W-1:0]  cfg_tile_size_i,  // elements per WF tile
  input  logic [UPE_W-1:0]  cfg_updates_per_elem_i,
  output logic              cfg_error_o,      // enabled with an unusable configuration
  output logic              busy_o,           // a tile is live or a write is in flight: region and threshold locked

  // Observed memory writes. in_ready_o accepts the write presented in this
  // cycle; a refused write leaves no state behind, so the upstream queue may
  // present another write in the next cycle. A write refused because it may
  // need what is full (a way, the output queue) is decided exactly when it
  // is presented again two cycles later with nothing accepted in between.
  input  logic              in_valid_i,
  output logic              in_ready_o,
  input  logic [WG_ID_W-1:0] in_wg_id_i,
  input  logic [WF_ID_W-1:0] in_wf_id_i,
  input  logic [ADDR_W-1:0] in_addr_i,
  input  logic [CNT_W-1:0]  in_size_i,        // elements written
  input  logic [1:0]        in_src_i,         // 0 local, 1 remote, 2 DMA; all count alike

  // Trigger stream towards the DMA trigger table (T3 §4.2.2).
  output logic              trig_valid_o,
  input  logic              trig_ready_i,
  output logic [WG_ID_W-1:0] trig_wg_id_o,
  output logic [WF_ID_W-1:0] trig_wf_id_o,
  output logic [ADDR_W-1:0] trig_addr_o,

  // Status.
  output logic [STAT_W-1:0] stat_updates_o,   // tracked writes accepted
  output logic [STAT_W-1:0] stat_triggers_o,  // triggers emitted
  output logic [STAT_W-1:0] stat_stalls_o,    // cycles a write was refused
  output logic [STAT_W-1:0] stat_untracked_o, // writes outside the region or while disabled
  output logic [LIVE_W-1:0] live_o,           // entries in use
  output logic              set_full_o        // the presented write waits for a free way
);

  localparam int unsigned SET_W   = $clog2(SETS);
  localparam int unsigned TAG_W   = WG_ID_W - SET_W + WF_ID_W;
  localparam int unsigned WAY_W   = (WAYS > 1) ? $clog2(WAYS) : 1;
  localparam int unsigned THR_W   = CNT_W + UPE_W;
  localparam int unsigned ROW_W   = TAG_W + ADDR_W + CNT_W;  // one way's row in t3_mem
  localparam int unsigned TQ_N    = 6;                       // trigger output queue (TrackerCore::kTrigQueue)
  localparam int unsigned TQ_W    = $clog2(TQ_N + 1);        // 0..TQ_N
  localparam int unsigned TQH_W   = $clog2(TQ_N);            // a slot
  localparam int unsigned TRIG_W  = WG_ID_W + WF_ID_W + ADDR_W;
  localparam int unsigned KN_N    = 8;                       // known live tiles (TrackerCore::kKnown)
  localparam int unsigned LIM_W   = CNT_W + 1;               // tile_size's limit
  localparam int unsigned QN_W    = TQ_W + 2;                // the queue's count plus what may come
  localparam int unsigned OWN_W   = WG_ID_W - SET_W;         // a set owner's WG-id MSBs
  // WF ids the owner summary covers (TrackerParams::own_wf_n): a set holds
  // at most WAYS tiles of one WG.
  localparam int unsigned OWF_N   = (WF_ID_W < 7 && (1 << WF_ID_W) < WAYS) ? (1 << WF_ID_W) : WAYS;

  // ------------------------------------------------- parameter ranges (elaboration)
  if (SETS < 2 || SETS > 65536 || (SETS & (SETS - 1)) != 0) begin : g_bad_sets
    $error("SETS = %0d is out of range; allowed: a power of two from 2 to 65536", SETS);
  end
  if (WAYS < 1 || WAYS > 64) begin : g_bad_ways
    $error("WAYS = %0d is out of range; allowed: 1..64", WAYS);
  end
  if (WG_ID_W < 2 || WG_ID_W > 32 || WG_ID_W <= SET_W) begin : g_bad_wg_id_w
    $error("WG_ID_W = %0d is out of range; allowed: log2(SETS)+1 = %0d..32", WG_ID_W, SET_W + 1);
  end
  if (WF_ID_W < 1 || WF_ID_W > 16) begin : g_bad_wf_id_w
    $error("WF_ID_W = %0d is out of range; allowed: 1..16", WF_ID_W);
  end
  if (ADDR_W < 1 || ADDR_W > 64) begin : g_bad_addr_w
    $error("ADDR_W = %0d is out of range; allowed: 1..64", ADDR_W);
  end
  if (CNT_W < 1 || CNT_W > 31) begin : g_bad_cnt_w
    $error("CNT_W = %0d is out of range; allowed: 1..31", CNT_W);
  end
  if (UPE_W < 1 || UPE_W > 8) begin : g_bad_upe_w
    $error("UPE_W = %0d is out of range; allowed: 1..8", UPE_W);
  end
  if (STAT_W < 1 || STAT_W > 32) begin : g_bad_stat_w
    $error("STAT_W = %0d is out of range; allowed: 1..32", STAT_W);
  end

  // ------------------------------------------------------------ the state
  logic [SETS*WAYS-1:0] valid_q;            // entry valid, set s way w at s*WAYS+w (the rows: t3_mem)
  // A summary of each set's valid bits, for P's decision: at least one free
  // way, at least two (updated with them at WB, from wb_fr*_q).
  logic [SETS-1:0]      fr1_q, fr2_q;
  logic [ROW_W-1:0]     rdata [WAYS];       // the rows of the set read at the last edge
  // A summary of each set's tiles, for P's decision on a write into a full
  // set: the set's owner (the WG-id MSBs of the first tile to take a way of
  // an empty owner) and, per WF id, whether the owner's tile of that WF
  // holds a way. A set bit means a hit. In flops, as fr1_q: P reads it in
  // the cycle of the write (updated at WB).
  logic [OWN_W-1:0]     own_wg_q [SETS];
  logic [SETS*OWF_N-1:0] own_wf_q;     // set s at s*OWF_N

  // S1: the write presented in the last cycle (accepted or a lookup).
  logic               s1_q, s1_acc_q;
  logic [SET_W-1:0]   s1_set_q;
  logic [TAG_W-1:0]   s1_tag_q;
  logic [WG_ID_W-1:0] s1_wg_q;
  logic [WF_ID_W-1:0] s1_wf_q;
  logic [ADDR_W-1:0]  s1_addr_q;
  logic [CNT_W-1:0]   s1_size_q, s1_rem_q, s1_tile_q;
  logic [UPE_W-1:0]   s1_upe_q;
  logic               s1_done_q;            // size >= threshold: fires whatever the count
  logic [WAYS-1:0]    s1_valid_q;           // the set's valid bits as the read saw them
  logic [WAYS-1:0]    s1_fwd_lw_q;          // ways lw_q holds for this set (chosen at P)
  logic               s1_same_q;            // the write ahead in S1 was of this set
  logic               s1_wbm_q, s1_lwm_q;   // wb_q's, lw_q's tag is this write's (compared at P)

  // WB: the result of the accepted write of the last cycle; lw_q the one
  // written at the last edge (both forwarded into S1).
  logic               wb_q, wb_chg_q, wb_vnew_q, wb_push_q, wb_alloc_q, wb_free_q;
  logic [SET_W-1:0]   wb_set_q;
  logic [WAY_W-1:0]   wb_way_q;
  // wb_q's row: the tag, the count, and its start address as the lower of
  // the write's (wb_wa_q) and the entry's (wb_ea_q), the pick decided at S1
  // (wb_take_q: the write's) and made here, at WB (wb_addr).
  logic [TAG_W-1:0]   wb_tag_q;
  logic [CNT_W-1:0]   wb_cnt_q;
  logic [ADDR_W-1:0]  wb_wa_q, wb_ea_q;
  logic               wb_take_q;
  logic [WAYS-1:0]    wb_oh_q;            // wb_way_q one-hot (the forward into S1)
  logic [ADDR_W-1:0]  lw_addr_q;          // lw_q's address and count (its tag compare: s1_lwm_q)
  logic [CNT_W-1:0]   lw_cnt_q;
  // The same, for the rows' write port alone (its fan-out), loaded only when
  // written (so that synthesis keeps them registers of their own).
  logic [TAG_W-1:0]   wm_tag_q;
  logic [CNT_W-1:0]   wm_cnt_q;
  logic [ADDR_W-1:0]  wm_wa_q, wm_ea_q;
  logic               wm_take_q;
  logic [SET_W-1:0]   wm_set_q;
  logic               inc_upd_q, inc_stall_q, inc_untr_q;  // the status counters count a cycle late
  logic [WG_ID_W+WF_ID_W-1:0] wb_id_q;   // the trigger's WG and WF (its address: wb_addr)
  logic               wb_fr1_q, wb_fr2_q; // wb_q's set after its change: >= 1, >= 2 free ways
  // The owner summary of the set, carried with the write as the summary's
  // free-way bits are: read at P (s1_own_*), its new value made at S1 from
  // what the writes ahead did to the set (wb_own_*: after this write's
  // change; lw_own_*: the one written at the last edge), written at WB
  // without a read of the array (a read there was the critical path).
  logic [OWN_W-1:0]   s1_own_wg_q, wb_own_wg_q, lw_own_wg_q;
  logic [OWF_N-1:0]   s1_own_wf_q, wb_own_wf_q, lw_own_wf_q;
  logic               s1_own_lw_q;        // lw_q's write was of this write's set (compared at P)
  logic               lw_vnew_q;          // lw_q's way and set: s1_fwd_lw_q

  // The last lookup of a refused write, and the write it was for.
  logic               lk_q, lk_hit_q, lk_fire_q, lk_free_q;
  logic [SET_W-1:0]   lk_set_q;
  logic [TAG_W-1:0]   lk_tag_q;
  logic [CNT_W-1:0]   lk_size_q, lk_tile_q;
  logic [UPE_W-1:0]   lk_upe_q;

  // Tiles known to hold a way, as of the writes S1 has decided: a write of
  // one needs no free way (it hits, or takes the way its own tile frees).
  logic [KN_N-1:0]    kn_q;
  logic [SET_W-1:0]   kn_set_q [KN_N];
  logic [TAG_W-1:0]   kn_tag_q [KN_N];
  logic [$clog2(KN_N)-1:0] kn_rr_q;

  // Trigger output queue.
  logic [TRIG_W-1:0]  tq_q [TQ_N];
  logic [TQH_W-1:0]   tq_head_q;
  logic [TRIG_W-1:0]  tq_hd_q;    // a copy of the head slot: the outputs from a flop
  logic [TQH_W-1:0]   tq_hnx;     // the slot after the head
  logic [TQ_W-1:0]    tq_cnt_q;

  logic [STAT_W-1:0]  stat_updates_q, stat_triggers_q, stat_stalls_q, stat_untracked_q;
  logic [LIVE_W-1:0]  live_q;

  // ---------------------------------------------------------- configuration
  // The configuration is registered here (C, the cycle before P): the core
  // works on the register block's values of the last cycle and on its
  // verdict on them, so that neither the threshold's multiplier nor the
  // 48-bit region check is on in_ready_o's path. The rule is that of
  // TrackerConfig::fault() in hw/tracker/tracker_core.cpp; a product is 0
  // when a field is, and reaches 2^CNT_W when tile_size >=
  // ceil(2^CNT_W / updates_per_elem), a constant for each value of the
  // narrow field. Only the enable has a reset (a reset edge sees the register
  // block's values from before it): the rest load at every edge.
  function automatic logic [LIM_W-1:0] tile_limit(input logic [63:0] upe);
    logic [63:0] full;
    full = 64'd1 << CNT_W;
    tile_limit = LIM_W'((full + upe - 64'd1) / upe);
  endfunction

  logic               cfg_en_q, fault_q;
  logic [ADDR_W-1:0]  base_q, limit_q;
  logic [CNT_W-1:0]   tile_q, thr_q;        // thr_q fits CNT_W whenever tracking
  logic [UPE_W-1:0]   upe_q;
  logic [LIM_W-1:0]   tile_lim;
  logic               thr_zero, thr_wide, tracking;
  always_comb begin
    tile_lim  = '1;
    for (int u = 1; u < 2 ** UPE_W; u++)
      if (32'(cfg_updates_per_elem_i) == u) tile_lim = tile_limit(64'(u));
    thr_zero  = cfg_tile_size_i == '0 || cfg_updates_per_elem_i == '0;
    thr_wide  = !thr_zero && {1'b0, cfg_tile_size_i} >= tile_lim;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) cfg_en_q <= 1'b0;
    else         cfg_en_q <= cfg_enable_i;
  end

  always_ff @(posedge clk_i) begin
    fault_q  <= thr_zero || thr_wide || cfg_base_i >= cfg_limit_i;
    base_q   <= cfg_base_i;
    limit_q  <= cfg_limit_i;
    tile_q   <= cfg_tile_size_i;
    upe_q    <= cfg_updates_per_elem_i;
    thr_q    <= CNT_W'(THR_W'(cfg_tile_size_i) * THR_W'(cfg_updates_per_elem_i));
  end

  always_comb begin
    cfg_error_o = cfg_en_q && fault_q;
    tracking    = cfg_en_q && !fault_q;
  end

  // --------------------------------------------------------------------- P
  logic [SET_W-1:0] in_set;
  logic [TAG_W-1:0] in_tag;
  logic             tracked, pop, s1_other, known, own_bit, way_ok, out_ok, out_room, fast,
                    lk_match, slow, accept, f1, f2;
  logic [OWF_N-1:0] own_wfs;
  logic [KN_N-1:0]  kn_eq;
  logic [QN_W-1:0]  q_next;

  always_comb begin
    in_set  = in_wg_id_i[SET_W-1:0];
    in_tag  = {in_wg_id_i[WG_ID_W-1:SET_W], in_wf_id_i};
    tracked = in_valid_i && tracking && in_addr_i >= base_q && in_addr_i < limit_q;

    // The set's free ways after the edge (wb_q's change lands at it), from
    // the per-set summary: one free way or more, two or more. Two bits of a
    // set, not its WAYS valid bits and a count.
    f1 = fr1_q[in_set];
    f2 = fr2_q[in_set];
    if (wb_chg_q && wb_set_q == in_set) begin
      f1 = wb_fr1_q;
      f2 = wb_fr2_q;
    end
    // The write in S1 may take a way of this set if it is another tile; one
    // of the same tile takes at most the way this write would take.
    s1_other = s1_acc_q && s1_set_q == in_set && s1_tag_q != in_tag;
    // A known tile keeps its way through the writes in flight, unless the
    // one in WB (not yet in the list) completes it.
    for (int k = 0; k < KN_N; k++)
      kn_eq[k] = kn_q[k] && kn_set_q[k] == in_set && kn_tag_q[k] == in_tag;
    // Or the set's owner summary says so: the write's WG owns the set and
    // its WF's tile holds a way (a full set of one WG's WF tiles, T3 §4.2.1's
    // layout, is then no reason to wait).
    own_wfs  = own_wf_q[32'(in_set) * OWF_N +: OWF_N];
    own_bit  = 1'b0;
    for (int f = 0; f < OWF_N; f++)
      if (32'(in_wf_id_i) == f) own_bit = own_wfs[f];
    known    = (kn_eq != '0 || (own_bit && own_wg_q[in_set] == in_wg_id_i[WG_ID_W-1:SET_W])) &&
               !(wb_push_q && wb_set_q == in_set && wb_tag_q == in_tag);
    way_ok   = known || (s1_other ? f2 : f1);

    // The output queue after this edge, then room for a trigger from the
    // write in S1 and from this one. The consumer's take in this cycle is
    // not counted: in_ready_o does not depend on trig_ready_i, so no path
    // runs from the consumer through the Tracker to its producer.
    pop      = tq_cnt_q != '0 && trig_ready_i;
    q_next   = QN_W'(tq_cnt_q) + QN_W'(wb_push_q);
    out_ok   = q_next + QN_W'(s1_acc_q) < QN_W'(TQ_N);
    out_room = q_next < QN_W'(TQ_N);
    fast     = way_ok && out_ok;

    // The exact decision: this write was looked up, nothing accepted since
    // (the pipeline is empty: s1_acc_q is the write taken in the cycle
    // after the lookup's), the threshold unchanged.
    lk_match = lk_q && !s1_acc_q && lk_set_q == in_set && lk_tag_q == in_tag &&
               lk_size_q == in_size_i && lk_tile_q == tile_q && lk_upe_q == upe_q;
    slow     = lk_match && (lk_fire_q ? out_room : (lk_hit_q || lk_free_q));

    // Back-pressure, never drop (T3 §4.2.1 sizing makes it rare).
    in_ready_o = !tracked || fast || slow;
    set_full_o = tracked && lk_match && !lk_fire_q && !lk_hit_q && !lk_free_q;
    accept     = tracked && in_ready_o;
  end

  // -------------------------------------------------------------------- S1
  // Each way as it is after the edge: wb_q's write lands at it, lw_q's
  // landed at the last one (the read returned the word before both). Which
  // way is forwarded is known from flops (s1_fwd_lw_q from P, wb_oh_q the
  // one-hot way of wb_q); the compares run on all three candidates of every
  // way at once and the forward picks among their results (the tag compares
  // of wb_q and lw_q were made at P: s1_wbm_q, s1_lwm_q), so the path is
  // compare (or count + size), pick, then a balanced AND-OR over the one-hot
  // match. The start address is not selected here: S1 passes on the entry's
  // (ent_addr) and whether the write's is lower (take_wa), and WB picks.
  logic [WAYS-1:0]    v, match, ge, lt, fwd_wb, fwd_lw, free_oh;
  logic [TAG_W-1:0]   r_tag  [WAYS];
  logic [ADDR_W-1:0]  r_addr [WAYS];     // the row's address as it is after the edge
  logic [CNT_W:0]     sum    [WAYS];     // count + size, with its carry
  logic [ADDR_W-1:0]  wb_addr, rd_addr;  // wb_addr: wb_q's start address (the pick at WB)
  logic [CNT_W-1:0]   rd_cnt;
  logic [CNT_W:0]     wb_sum, lw_sum;
  logic               wb_ge, lw_ge, wb_lt, lw_lt;
  logic               hit, fire, has_free, take_wa;
  logic [WAY_W-1:0]   hit_way, free_way;
  logic [CNT_W-1:0]   new_cnt;
  logic [ADDR_W-1:0]  ent_addr;          // the hit entry's start address (0 on a miss)
  // The set's free ways before this write's change, at least 1, 2, 3: a
  // balanced tree of saturating counts (node i over nodes 2i and 2i+1).
  localparam int unsigned NF_N = 1 << $clog2(WAYS);  // leaves, a power of two
  logic [3*2*NF_N-1:0] nf;
  // The hit's fields ORed over the ways by balanced trees of words (node i
  // over nodes 2i and 2i+1, the ways at the leaves masked by their match):
  // a chain of WAYS would be the path, and word-wide the simulator does
  // WAYS ORs, not one per bit.
  logic [CNT_W-1:0]    t_cnt  [2*NF_N];
  logic [ADDR_W-1:0]   t_addr [2*NF_N];
  logic [WAY_W-1:0]    t_way  [2*NF_N];
  logic               fr_a1, fr_a2, fr_a3, s1_fr1, s1_fr2;

  always_comb begin
    wb_addr  = wb_take_q ? wb_wa_q : wb_ea_q;
    // The new count of a hit (kept only when it does not fire: < 2^CNT_W).
    wb_sum   = {1'b0, wb_cnt_q} + {1'b0, s1_size_q};
    lw_sum   = {1'b0, lw_cnt_q} + {1'b0, s1_size_q};
    // count + size >= threshold, as count >= threshold - size, every way
    // at once (a size reaching the threshold fires whatever the count).
    wb_ge    = s1_done_q || wb_cnt_q >= s1_rem_q;
    lw_ge    = s1_done_q || lw_cnt_q >= s1_rem_q;
    wb_lt    = s1_addr_q < wb_addr;
    lw_lt    = s1_addr_q < lw_addr_q;
    for (int w = 0; w < WAYS; w++) begin
      {r_tag[w], rd_addr, rd_cnt} = rdata[w];
      fwd_wb[w] = s1_same_q && wb_chg_q && wb_oh_q[w];
      fwd_lw[w] = s1_fwd_lw_q[w];
      v[w]      = fwd_wb[w] ? wb_vnew_q : fwd_lw[w] ? lw_vnew_q : s1_valid_q[w];
      match[w]  = v[w] && (fwd_wb[w] ? s1_wbm_q : fwd_lw[w] ? s1_lwm_q : r_tag[w] == s1_tag_q);
      sum[w]    = fwd_wb[w] ? wb_sum : fwd_lw[w] ? lw_sum : {1'b0, rd_cnt} + {1'b0, s1_size_q};
      ge[w]     = fwd_wb[w] ? wb_ge : fwd_lw[w] ? lw_ge : (s1_done_q || rd_cnt >= s1_rem_q);
      lt[w]     = fwd_wb[w] ? wb_lt : fwd_lw[w] ? lw_lt : s1_addr_q < rd_addr;
      r_addr[w] = fwd_wb[w] ? wb_addr : fwd_lw[w] ? lw_addr_q : rd_addr;
    end

    // A tile holds one way at most: the match is one-hot, and the hit's
    // fields are an AND-OR of the ways, not a priority chain.
    hit      = match != '0;
    take_wa  = !hit || (match & lt) != '0;
    for (int i = 0; i < NF_N; i++) begin
      t_cnt[NF_N+i]  = i < WAYS ? {CNT_W{match[i % WAYS]}} & sum[i % WAYS][CNT_W-1:0] : '0;
      t_addr[NF_N+i] = i < WAYS ? {ADDR_W{match[i % WAYS]}} & r_addr[i % WAYS] : '0;
      t_way[NF_N+i]  = i < WAYS ? {WAY_W{match[i % WAYS]}} & WAY_W'(i) : '0;
    end
    t_cnt[0]  = '0;  // unused (the root is node 1)
    t_addr[0] = '0;
    t_way[0]  = '0;
    for (int i = NF_N - 1; i >= 1; i--) begin
      t_cnt[i]  = t_cnt[2*i]  | t_cnt[2*i+1];
      t_addr[i] = t_addr[2*i] | t_addr[2*i+1];
      t_way[i]  = t_way[2*i]  | t_way[2*i+1];
    end
    new_cnt  = hit ? t_cnt[1] : s1_size_q;
    ent_addr = t_addr[1];
    hit_way  = t_way[1];
    // The lowest free way, also one-hot (from v: early).
    has_free = v != '1;
    free_oh  = '0;
    free_way = '0;
    // Highest index first so that the lowest free way wins.
    for (int w = WAYS - 1; w >= 0; w--) begin
      if (!v[w]) begin
        free_oh    = '0;
        free_oh[w] = 1'b1;
        free_way   = WAY_W'(w);
      end
    end
    fire     = hit ? (match & ge) != '0 : s1_done_q;

    // The set's free ways after this write's change, for the summary at WB:
    // the count before it (v, from flops: early) at least 1, 2, 3, then
    // picked by what the write does to its set (late: hit, fire).
    nf = '0;
    for (int i = 0; i < NF_N; i++) nf[3*(NF_N+i) +: 3] = {2'b00, i < WAYS && !v[i]};
    for (int i = NF_N - 1; i >= 1; i--) begin
      // {>= 3, >= 2, >= 1} of the two halves' sum.
      nf[3*i]     = nf[3*(2*i)] || nf[3*(2*i+1)];
      nf[3*i + 1] = nf[3*(2*i) + 1] || nf[3*(2*i+1) + 1] || (nf[3*(2*i)] && nf[3*(2*i+1)]);
      nf[3*i + 2] = nf[3*(2*i) + 2] || nf[3*(2*i+1) + 2] || (nf[3*(2*i) + 1] && nf[3*(2*i+1)]) ||
                    (nf[3*(2*i)] && nf[3*(2*i+1) + 1]);
    end
    {fr_a3, fr_a2, fr_a1} = nf[3 +: 3];  // the root
    if (hit && fire) begin          // frees its way
      s1_fr1 = 1'b1;
      s1_fr2 = fr_a1;
    end else if (!hit && !fire) begin  // takes a free way
      s1_fr1 = fr_a2;
      s1_fr2 = fr_a3;
    end else begin                  // keeps its way, or takes none
      s1_fr1 = fr_a1;
      s1_fr2 = fr_a2;
    end
  end

  // The set's owner summary after this write's change (for WB): the set as
  // the writes ahead leave it (wb_q's, then lw_q's, then the read at P),
  // each candidate made early and picked by what the write does (late).
  logic [OWN_W-1:0] s1_own_new_wg, base_own_wg, s1_m;
  logic [OWF_N-1:0] s1_own_new_wf, base_own_wf, s1_bit;
  always_comb begin
    base_own_wg = s1_own_wg_q;
    base_own_wf = s1_own_wf_q;
    if (s1_own_lw_q) begin
      base_own_wg = lw_own_wg_q;
      base_own_wf = lw_own_wf_q;
    end
    if (s1_same_q && wb_q) begin
      base_own_wg = wb_own_wg_q;
      base_own_wf = wb_own_wf_q;
    end
    s1_m   = s1_tag_q[TAG_W-1:WF_ID_W];
    s1_bit = '0;
    for (int f = 0; f < OWF_N; f++)
      if (32'(s1_tag_q[WF_ID_W-1:0]) == f) s1_bit[f] = 1'b1;
    s1_own_new_wg = base_own_wg;
    s1_own_new_wf = base_own_wf;
    if (!hit && !fire) begin            // takes a way
      if (base_own_wf == '0) begin
        s1_own_new_wg = s1_m;
        s1_own_new_wf = s1_bit;
      end else if (base_own_wg == s1_m) begin
        s1_own_new_wf = base_own_wf | s1_bit;
      end
    end else if (hit && fire) begin    // frees its way
      if (base_own_wg == s1_m) s1_own_new_wf = base_own_wf & ~s1_bit;
    end
  end

  // ------------------------------------------------------------------ state
  always_ff @(posedge clk_i) begin
    // P -> S1: every presented write, for its lookup.
    s1_set_q   <= in_set;
    s1_tag_q   <= in_tag;
    s1_wg_q    <= in_wg_id_i;
    s1_wf_q    <= in_wf_id_i;
    s1_addr_q  <= in_addr_i;
    s1_size_q  <= in_size_i;
    s1_rem_q   <= thr_q - in_size_i;
    s1_done_q  <= in_size_i >= thr_q;
    s1_tile_q  <= tile_q;
    s1_upe_q   <= upe_q;
    s1_valid_q <= valid_q[32'(in_set) * WAYS +: WAYS];
    for (int w = 0; w < WAYS; w++)
      s1_fwd_lw_q[w] <= rst_ni && wb_chg_q && wb_set_q == in_set && 32'(wb_way_q) == w;
    s1_same_q  <= s1_set_q == in_set;
    s1_own_wg_q <= own_wg_q[in_set];
    s1_own_wf_q <= own_wfs;
    s1_own_lw_q <= wb_q && wb_set_q == in_set;
    lw_own_wg_q <= wb_own_wg_q;
    lw_own_wf_q <= wb_own_wf_q;
    wb_own_wg_q <= s1_own_new_wg;
    wb_own_wf_q <= s1_own_new_wf;
    s1_wbm_q   <= s1_tag_q == in_tag;
    s1_lwm_q   <= wb_tag_q == in_tag;
    // S1 -> WB.
    wb_way_q   <= hit ? hit_way : free_way;
    wb_oh_q    <= hit ? match : free_oh;
    wb_set_q   <= s1_set_q;
    wb_tag_q   <= s1_tag_q;
    wb_cnt_q   <= new_cnt;
    wb_wa_q    <= s1_addr_q;
    wb_ea_q    <= ent_addr;
    wb_take_q  <= take_wa;
    // The same row for the write port, loaded only when written (so that
    // synthesis keeps it registers of their own): the port's wide fan-out
    // stays off the forwarding compares.
    if (s1_acc_q) begin
      wm_tag_q  <= s1_tag_q;
      wm_cnt_q  <= new_cnt;
      wm_wa_q   <= s1_addr_q;
      wm_ea_q   <= ent_addr;
      wm_take_q <= take_wa;
      wm_set_q  <= s1_set_q;
    end
    wb_id_q    <= {s1_wg_q, s1_wf_q};
    wb_vnew_q  <= !fire;
    wb_alloc_q <= !hit && !fire;
    wb_fr1_q   <= s1_fr1;
    wb_fr2_q   <= s1_fr2;
    wb_free_q  <= hit && fire;
    lk_set_q   <= s1_set_q;
    lk_tag_q   <= s1_tag_q;
    lk_size_q  <= s1_size_q;
    lk_tile_q  <= s1_tile_q;
    lk_upe_q   <= s1_upe_q;
    lk_hit_q   <= hit;
    lk_fire_q  <= fire;
    lk_free_q  <= has_free;
    lw_addr_q  <= wb_addr;
    lw_cnt_q   <= wb_cnt_q;
    lw_vnew_q  <= wb_vnew_q;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      s1_q      <= 1'b0;
      s1_acc_q  <= 1'b0;
      wb_q      <= 1'b0;
      wb_chg_q  <= 1'b0;
      wb_push_q <= 1'b0;
      lk_q      <= 1'b0;
    end else begin
      s1_q      <= tracked;
      s1_acc_q  <= accept;
      wb_q      <= s1_acc_q;
      // A hit changes its way (count, or freed by firing); a miss that
      // does not fire takes the free way; a miss that fires takes none.
      wb_chg_q  <= s1_acc_q && (hit || !fire);
      wb_push_q <= s1_acc_q && fire;
      // A lookup of a refused write; P uses it only if nothing is accepted
      // in this cycle either (s1_acc_q then), so that accept is not on its D.
      lk_q      <= s1_q && !s1_acc_q;
    end
  end

  // WB: the valid bits, the trigger queue, the live count.
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      valid_q   <= '0;
      fr1_q     <= '1;
      fr2_q     <= (WAYS > 1) ? '1 : '0;
      live_q    <= '0;
      tq_head_q <= '0;
      tq_cnt_q  <= '0;
    end else begin
      if (wb_chg_q) begin
        valid_q[32'(wb_set_q) * WAYS + 32'(wb_way_q)] <= wb_vnew_q;
        fr1_q[wb_set_q] <= wb_fr1_q;
        fr2_q[wb_set_q] <= wb_fr2_q;
      end
      if (wb_q && wb_alloc_q) live_q <= live_q + 1'b1;
      if (wb_q && wb_free_q)  live_q <= live_q - 1'b1;
      if (pop) tq_head_q <= tq_hnx;
      tq_cnt_q <= tq_cnt_q - TQ_W'(pop) + TQ_W'(wb_push_q);
    end
  end

  // The known live tiles, at WB (off S1's path): a write that fires forgets
  // its tile, one that does not makes it known (round-robin replacement).
  logic [KN_N-1:0] kn_hit;
  always_comb begin
    for (int k = 0; k < KN_N; k++)
      kn_hit[k] = kn_q[k] && kn_set_q[k] == wb_set_q && kn_tag_q[k] == wb_tag_q;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      kn_q    <= '0;
      kn_rr_q <= '0;
    end else if (wb_q) begin
      if (wb_push_q) begin
        kn_q <= kn_q & ~kn_hit;
      end else if (kn_hit == '0) begin
        kn_q[kn_rr_q] <= 1'b1;
        kn_rr_q       <= kn_rr_q + 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (wb_q && !wb_push_q && kn_hit == '0) begin
      kn_set_q[kn_rr_q] <= wb_set_q;
      kn_tag_q[kn_rr_q] <= wb_tag_q;
    end
  end

  // The owner summary, at WB: the set's new value made at S1. A tile of the
  // owner that takes a way sets its WF's bit, one that frees its way clears
  // it; the first tile into a set whose owner has no tile left makes its WG
  // the owner. A bit is set only while its tile holds a way, so the owner
  // needs no reset.
  always_ff @(posedge clk_i) begin
    if (!rst_ni) own_wf_q <= '0;
    else if (wb_q) own_wf_q[32'(wb_set_q) * OWF_N +: OWF_N] <= wb_own_wf_q;
  end

  always_ff @(posedge clk_i) begin
    if (wb_q) own_wg_q[wb_set_q] <= wb_own_wg_q;
  end

  // The queue's slots are read only while counted: no reset.
  logic [TQH_W-1:0] tq_tail;
  always_comb begin
    // (head + count) mod TQ_N; the sum stays below twice TQ_N.
    tq_tail = 32'(tq_head_q) + 32'(tq_cnt_q) >= TQ_N
                  ? TQH_W'(32'(tq_head_q) + 32'(tq_cnt_q) - TQ_N)
                  : TQH_W'(32'(tq_head_q) + 32'(tq_cnt_q));
  end
  always_ff @(posedge clk_i) begin
    if (wb_push_q) tq_q[tq_tail] <= {wb_id_q, wb_addr};
  end

  // The head slot kept in a register (RTL only: the model reads the slot).
  // The slot read mux then ends in a flop instead of in the DMA table's
  // region compares, the subsystem's worst path at 250 MHz. The register
  // loads the next slot on a pop from two or more, else the trigger pushed
  // now (the head of an empty queue, or of one that a pop of its last
  // empties); what it holds while the queue is empty is never shown.
  always_comb tq_hnx = 32'(tq_head_q) == TQ_N - 1 ? '0 : tq_head_q + 1'b1;
  always_ff @(posedge clk_i) begin
    if (pop || tq_cnt_q == '0)
      tq_hd_q <= pop && 32'(tq_cnt_q) >= 2 ? tq_q[tq_hnx] : {wb_id_q, wb_addr};
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      stat_updates_q   <= '0;
      stat_triggers_q  <= '0;
      stat_stalls_q    <= '0;
      stat_untracked_q <= '0;
      inc_upd_q        <= 1'b0;
      inc_stall_q      <= 1'b0;
      inc_untr_q       <= 1'b0;
    end else begin
      // What P decided counts at the next edge, off in_ready_o's path.
      inc_upd_q   <= accept;
      inc_stall_q <= in_valid_i && !in_ready_o;
      inc_untr_q  <= in_valid_i && !tracked;
      if (wb_push_q)   stat_triggers_q  <= stat_triggers_q + 1'b1;
      if (inc_upd_q)   stat_updates_q   <= stat_updates_q + 1'b1;
      if (inc_stall_q) stat_stalls_q    <= stat_stalls_q + 1'b1;
      if (inc_untr_q)  stat_untracked_q <= stat_untracked_q + 1'b1;
    end
  end

  // ------------------------------------------------------------- the rows
  // One t3_mem per way: a row is written alone, all ways read at once.
  for (genvar w = 0; w < WAYS; w++) begin : g_way
    t3_mem #(.DEPTH(SETS), .WIDTH(ROW_W)) u_rows (
      .clk_i   (clk_i),
      .we_i    (rst_ni && wb_chg_q && wb_vnew_q && 32'(wb_way_q) == w),
      .waddr_i (wm_set_q),
      .wdata_i ({wm_tag_q, wm_take_q ? wm_wa_q : wm_ea_q, wm_cnt_q}),
      .re_i    (in_valid_i),
      .raddr_i (in_set),
      .rdata_o (rdata[w])
    );
  end

  logic [TRIG_W-1:0] tq_head;
  always_comb begin
    tq_head = tq_hd_q;
    if (tq_cnt_q == '0) tq_head = '0;  // defined outputs while empty
  end

  assign {trig_wg_id_o, trig_wf_id_o, trig_addr_o} = tq_head;
  assign trig_valid_o     = tq_cnt_q != '0;
  assign stat_updates_o   = stat_updates_q;
  assign stat_triggers_o  = stat_triggers_q;
  assign stat_stalls_o    = stat_stalls_q;
  assign stat_untracked_o = stat_untracked_q;
  assign live_o           = live_q;
  assign busy_o           = live_q != '0 || s1_acc_q || wb_q;

  // in_src_i is carried for the memory controller and the waveform; the
  // Tracker counts local, remote and DMA writes alike (T3 §4.2.1).
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_src;
  assign unused_src = ^in_src_i;
  /* verilator lint_on UNUSEDSIGNAL */

endmodule
