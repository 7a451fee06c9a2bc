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


}  // namespace t3
