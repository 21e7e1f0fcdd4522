#include "job_support.h"

#include <cstring>
#include <stdexcept>

#include "hilsim/planner/layer_image.h"

namespace hilsim::test {

JobResult runLayerJob(drv::Driver& driver, const rt::FullyConnectedParams& params,
                      const planner::Plan& plan, const int8_t* input) {
  planner::LayerArithmetic arith;
  arith.weights = params.filter->as<int8_t>();
  arith.bias.assign(plan.shape.n, 0);
  if (params.bias) std::memcpy(arith.bias.data(), params.bias->data, plan.shape.n * 4);
  arith.multipliers = params.multipliers;
  arith.shifts = params.shifts;
  arith.input_zero_point = params.input_zero_point;
  arith.output_zero_point = params.output_zero_point;
  arith.act_min = params.act_min;
  arith.act_max = params.act_max;
  const planner::LayerImage image = planner::buildTiles(plan, arith);
  drv::Buffer tiles, in, out, table;
  const uint64_t in_bytes = uint64_t{plan.shape.rows} * plan.shape.k;
  const uint64_t out_bytes = uint64_t{plan.shape.rows} * plan.shape.n;
  if (driver.allocate(image.tiles.size(), 64, &tiles) != drv::Status::kOk ||
      driver.allocate(in_bytes, 64, &in) != drv::Status::kOk ||
      driver.allocate(out_bytes, 64, &out) != drv::Status::kOk ||
      driver.allocate(uint64_t{plan.hardware.num_cores} * 128, 64, &table) != drv::Status::kOk)
    throw std::runtime_error("device memory: " + driver.lastError());
  const std::vector<uint8_t> descriptors =
      planner::buildDescriptorTable(plan, arith, image, {tiles.addr, in.addr, out.addr});
  if (driver.write(tiles, 0, image.tiles.data(), image.tiles.size()) != drv::Status::kOk ||
      driver.write(table, 0, descriptors.data(), descriptors.size()) != drv::Status::kOk ||
      driver.write(in, 0, input, in_bytes) != drv::Status::kOk)
    throw std::runtime_error("copy: " + driver.lastError());
  JobResult result;
  const uint64_t deltas = sc_core::sc_delta_count();
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  const drv::Status s = driver.run({table.addr, planner::coreMask(plan)});
  result.delta_cycles = sc_core::sc_delta_count() - deltas;
  result.duration = sc_core::sc_time_stamp() - start;
  if (s != drv::Status::kOk)
    throw std::runtime_error(std::string("job: ") + drv::statusName(s) + ": " + driver.lastError());
  result.output.resize(out_bytes);
  if (driver.read(out, 0, result.output.data(), out_bytes) != drv::Status::kOk)
    throw std::runtime_error("read: " + driver.lastError());
  return result;
}

}  // namespace hilsim::test
