#include "chunk_checks.h"

namespace hilsim::planner {

std::string planHardwareProblem(const Plan& plan) {
  const Hardware& hw = plan.hardware;
  if (hw.num_cores == 0 || hw.sram_bytes == 0 || hw.array_rows == 0 || hw.array_cols == 0)
    return "plan records no hardware";
  if (plan.chunks.empty()) return "plan has no chunks";
  if (plan.chunks.size() > hw.num_cores)
    return "plan has " + std::to_string(plan.chunks.size()) + " chunks for " +
           std::to_string(hw.num_cores) + " cores";
  return "";
}

std::string chunkCoreProblem(const Chunk& chunk, uint32_t num_cores, std::set<uint32_t>* seen) {
  if (chunk.core >= num_cores)
    return "chunk for core " + std::to_string(chunk.core) + " on " + std::to_string(num_cores) +
           "-core hardware";
  if (!seen->insert(chunk.core).second) return "two chunks for core " + std::to_string(chunk.core);
  return "";
}

std::string sramBufferProblem(const std::string& who, const std::vector<SramBuffer>& buffers,
                              uint64_t sram_bytes, uint64_t max_offset) {
  for (const SramBuffer& b : buffers)
    if (b.offset > sram_bytes || b.bytes > sram_bytes - b.offset || b.offset > max_offset)
      return who + ": buffer at offset " + std::to_string(b.offset) + " (" +
             std::to_string(b.bytes) + " bytes) lies beyond " + std::to_string(sram_bytes) +
             " bytes of SRAM";
  for (size_t i = 0; i < buffers.size(); ++i)
    for (size_t j = i + 1; j < buffers.size(); ++j) {
      const SramBuffer& a = buffers[i];
      const SramBuffer& o = buffers[j];
      if (a.offset < o.offset + o.bytes && o.offset < a.offset + a.bytes)
        return who + ": SRAM buffers overlap";
    }
  return "";
}

}  // namespace hilsim::planner
