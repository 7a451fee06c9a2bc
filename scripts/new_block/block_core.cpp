#include "@name@/@name@_core.h"

#include "common/bits.h"

namespace t3 {

void @Camel@Params::validate() const { validate_param_ranges(*this, "@name@"); }

@Camel@Core::@Camel@Core(const @Camel@Params& p) : p_(p) { p_.validate(); }

@Camel@CoreOutputs @Camel@Core::eval(const @Camel@CoreInputs& in) const {
  @Camel@CoreOutputs o;
  o.out_valid = full_;
  o.out_data = data_;
  o.stat_count = count_;
  o.busy = full_;
  // A word leaving frees the stage for one arriving in the same cycle.
  o.in_ready = in.cfg_enable && (!full_ || in.out_ready);
  o.wrap = in.in_valid && o.in_ready && count_ == low_mask(p_.stat_w);
  return o;
}

void @Camel@Core::clock(const @Camel@CoreInputs& in) {
  if (!in.rst_n) {
    full_ = false;
    data_ = 0;
    count_ = 0;
    return;
  }
  const @Camel@CoreOutputs o = eval(in);
  if (full_ && in.out_ready) full_ = false;
  if (in.in_valid && o.in_ready) {
    full_ = true;
    data_ = in.in_data & low_mask(p_.data_w);
    count_ = uint32_t((count_ + 1) & low_mask(p_.stat_w));
  }
}

}  // namespace t3
