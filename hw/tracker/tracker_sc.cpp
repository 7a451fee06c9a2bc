#include "tracker/tracker_sc.h"

template class t3::ScModel<t3::TrackerBlock>;
