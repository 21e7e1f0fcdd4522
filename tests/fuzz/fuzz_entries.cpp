#include "fuzz_entries.h"

#include <string>
#include <vector>

#include "hilsim/config/loader.h"
#include "hilsim/errors.h"
#include "hilsim/planner/plan_codec.h"
#include "hilsim/rt/interpreter.h"

namespace hilsim::fuzz {

void fuzzModel(const uint8_t* data, size_t size) {
  try {
    rt::Model model = rt::Model::fromBytes(std::vector<uint8_t>(data, data + size), "fuzz input");
    const rt::OpResolver resolver = rt::referenceOpResolver();
    rt::InterpreterOptions options;
    options.max_arena_bytes = 64u << 20;  // keeps each input fast; the limit path is exercised
    rt::Interpreter interp(model, resolver, options);
    interp.allocate();
    uint64_t work = 0;  // runs only models that take well under a millisecond
    for (const timing::OpWork& w : interp.work()) work += w.macs + w.elements + w.window_elements;
    if (work < 2'000'000) interp.invoke();
  } catch (const Error&) {
  }
}

void fuzzPlan(const uint8_t* data, size_t size) {
  try {
    const planner::AnnotatedPlan a = planner::decodePlan(data, size);
    (void)planner::validatePlan(a.plan, a.plan.layer());
    (void)planner::describePlan(a);
  } catch (const Error&) {
  }
  try {
    for (const planner::PlanEntry& e : planner::decodePlanSet(data, size)) {
      try {
        const planner::AnnotatedPlan a = planner::decodePlan(e.plan.data(), e.plan.size());
        (void)planner::validatePlan(a.plan, a.plan.layer());
      } catch (const Error&) {
      }
    }
  } catch (const Error&) {
  }
}

void fuzzConfig(const uint8_t* data, size_t size) {
  try {
    (void)config::loadConfigText(std::string(reinterpret_cast<const char*>(data), size),
                                 "fuzz.yaml");
  } catch (const Error&) {
  }
}

}  // namespace hilsim::fuzz
