#include "mca_arbiter/mca_arbiter.h"

namespace t3 {

McaArbiterConfig mca_arbiter_config(const McaArbiterReg2Hw& r) {
  McaArbiterConfig c;
  c.policy = r.ctrl_policy;
  c.thr_auto = r.ctrl_thr_auto != 0;
  c.thr_sel = r.ctrl_thr_sel;
  c.level[0] = r.thr_level0_occ;
  c.level[1] = r.thr_level1_occ;
  c.level[2] = r.thr_level2_occ;
  c.bound[0] = r.auto_bound0_occ;
  c.bound[1] = r.auto_bound1_occ;
  c.bound[2] = r.auto_bound2_occ;
  c.learn_log2 = r.learn_log2;
  c.starve_limit = r.starve_limit_cycles;
  return c;
}

void McaArbiterGlue::configure(const Params&, const McaArbiterReg2Hw& r, McaArbiterCoreInputs& c) {
  c.cfg = mca_arbiter_config(r);
}

McaArbiterHw2Reg McaArbiterGlue::hw2reg(const Params& p, const McaArbiterCoreOutputs& o) {
  McaArbiterHw2Reg h;
  h.intr_state_cfg_error_set = o.cfg_error;
  h.intr_state_starved_set = o.starved;
  h.status_cfg_error = o.cfg_error;
  h.status_learn_busy = o.learn_busy;
  h.status_thr_sel = o.thr_sel;
  h.status_thr = o.thr;
  h.learn_avg_occ = o.learn_avg;
  h.stat_grants_cmp_count = o.stat_grants_cmp;
  h.stat_grants_com_count = o.stat_grants_com;
  h.stat_wait_cmp_count = o.stat_wait_cmp;
  h.stat_wait_com_count = o.stat_wait_com;
  h.stat_starved_count = o.stat_starved;
  h.param_widths_data_w = p.data_w;
  h.param_widths_occ_w = p.occ_w;
  h.param_widths_cnt_w = p.cnt_w;
  h.param_widths_learn_w = p.learn_w;
  h.param_stat_stat_w = p.stat_w;
  h.busy = o.learn_busy;
  return h;
}

}  // namespace t3
