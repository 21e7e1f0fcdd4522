#include "hilsim/timing/core_schedule.h"

namespace hilsim::timing {

std::vector<CoreStep> fcSchedule(uint32_t num_tiles, bool double_buffer) {
  const bool two_buffers = double_buffer && num_tiles > 1;
  std::vector<CoreStep> steps(num_tiles);
  for (uint32_t t = 0; t < num_tiles; ++t) {
    CoreStep& s = steps[t];
    s.tile = t;
    s.load_band = t == 0;
    s.load_tile = true;
    s.tile_early = two_buffers && t > 0;
    s.tile_buffer = two_buffers ? t % 2 : 0;
  }
  return steps;
}

}  // namespace hilsim::timing
