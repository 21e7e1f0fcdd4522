#include "hilsim/planner/plan_codec.h"

#include <cstdio>
#include <cstring>
#include <set>

#include "hilsim/errors.h"
#include "hilsim/planner/conv_plan.h"
#include "hilsim/schema/chunk_plan_generated.h"
#include "hilsim/schema/flatbuffer_vectors.h"

namespace hilsim::planner {
namespace fb = hilsim::plan;
static_assert(static_cast<int>(fb::Objective::Cycles) ==
                  static_cast<int>(hilsim::planner::Objective::kCycles) &&
              static_cast<int>(fb::Objective::Energy) ==
                  static_cast<int>(hilsim::planner::Objective::kEnergy) &&
              static_cast<int>(fb::Objective::Edp) ==
                  static_cast<int>(hilsim::planner::Objective::kEdp));

namespace {

fb::Dataflow toFb(timing::Dataflow d) {
  switch (d) {
    case timing::Dataflow::kOutputStationary:
      return fb::Dataflow::OS;
    case timing::Dataflow::kInputStationary:
      return fb::Dataflow::IS;
    default:
      return fb::Dataflow::WS;
  }
}

const char* dataflowName(timing::Dataflow d) {
  switch (d) {
    case timing::Dataflow::kOutputStationary:
      return "os";
    case timing::Dataflow::kInputStationary:
      return "is";
    default:
      return "ws";
  }
}

// The stored decision as the plan's summary ends: its reason names the path ("offload (pays:
// ...)"); a reason written without it gets the path in front.
std::string decisionText(const Decision& d) {
  const std::string path = d.offload ? "offload" : "keep on CPU";
  if (d.reason.rfind(path, 0) == 0) return d.reason;
  return path + " (" + d.reason + ")";
}

std::string describeConvPlan(const AnnotatedPlan& a);

// "1 chunk", "3 chunks".
std::string counted(uint64_t count, const char* noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

// ", CPU cortex-m55 at 400 MHz", or that the plan does not say.
std::string cpuText(const AnnotatedPlan& a) {
  if (!a.cpu) return ", CPU not recorded";
  char clock[32];
  std::snprintf(clock, sizeof clock, "%g", a.cpu->clock_mhz);
  return ", CPU " + a.cpu->preset + " at " + clock + " MHz";
}

fb::PlanKind toFb(PlanKind k) {
  switch (k) {
    case PlanKind::kConv2D:
      return fb::PlanKind::CONV_2D;
    case PlanKind::kDepthwiseConv2D:
      return fb::PlanKind::DEPTHWISE_CONV_2D;
    default:
      return fb::PlanKind::FULLY_CONNECTED;
  }
}

flatbuffers::Offset<fb::ConvGeometry> encodeGeometry(flatbuffers::FlatBufferBuilder& b,
                                                     const ConvGeometry& g) {
  return fb::CreateConvGeometry(b, g.batches, g.in_h, g.in_w, g.in_c, g.filter_h, g.filter_w,
                                g.stride_h, g.stride_w, g.dilation_h, g.dilation_w, g.pad_h,
                                g.pad_w, g.out_h, g.out_w, g.out_c, g.depth_multiplier);
}

ConvGeometry decodeGeometry(const fb::ConvGeometry& f, bool depthwise) {
  ConvGeometry g;
  g.batches = f.batches();
  g.in_h = f.in_h();
  g.in_w = f.in_w();
  g.in_c = f.in_c();
  g.filter_h = f.filter_h();
  g.filter_w = f.filter_w();
  g.stride_h = f.stride_h();
  g.stride_w = f.stride_w();
  g.dilation_h = f.dilation_h();
  g.dilation_w = f.dilation_w();
  g.pad_h = f.pad_h();
  g.pad_w = f.pad_w();
  g.out_h = f.out_h();
  g.out_w = f.out_w();
  g.out_c = f.out_c();
  g.depthwise = depthwise;
  g.depth_multiplier = f.depth_multiplier();
  return g;
}

}  // namespace

std::vector<uint8_t> encodePlan(const AnnotatedPlan& a) {
  const Plan& p = a.plan;
  const bool conv = p.kind != PlanKind::kFullyConnected;
  flatbuffers::FlatBufferBuilder b(512);
  std::vector<flatbuffers::Offset<fb::Chunk>> chunks;
  for (const Chunk& c : p.chunks) {
    std::vector<uint64_t> params;
    for (uint64_t t : c.sram_tile) params.push_back(t + uint64_t{c.tile_n} * p.shape.k);
    const auto tiles = b.CreateVector(c.sram_tile);
    const auto param_offsets = b.CreateVector(params);
    flatbuffers::Offset<flatbuffers::Vector<uint64_t>> inputs, outputs;
    if (conv) {
      inputs = b.CreateVector(c.sram_inputs);
      outputs = b.CreateVector(c.sram_outputs);
    }
    // Version 1 plans leave the version 2 fields out (their defaults are not written).
    chunks.push_back(fb::CreateChunk(b, c.core, c.n_begin, c.n_count, c.tile_n, c.num_tiles,
                                     c.sram_input, tiles, param_offsets, c.sram_output, c.sram_used,
                                     c.m_begin, c.m_count, c.band_rows, c.num_bands, inputs,
                                     outputs));
  }
  const auto hw = fb::CreateHardware(b, p.hardware.num_cores, p.hardware.array_rows,
                                     p.hardware.array_cols, toFb(p.hardware.dataflow),
                                     p.hardware.sram_bytes, p.hardware.double_buffer);
  const fb::LayerShape shape(p.shape.rows, p.shape.k, p.shape.n);
  const auto decision = fb::CreateDecision(
      b, a.decision.offload, a.decision.predicted_accel_cycles, a.decision.predicted_ref_cycles,
      a.decision.break_even_macs, b.CreateString(a.decision.policy),
      b.CreateString(a.decision.reason), static_cast<fb::Objective>(a.decision.objective),
      a.decision.predicted_accel_energy_uj, a.decision.predicted_ref_energy_uj,
      a.decision.break_even_energy_macs);
  const auto chunk_vector = b.CreateVector(chunks);
  const auto geometry = conv ? encodeGeometry(b, p.conv) : 0;
  flatbuffers::Offset<fb::Cpu> cpu = 0;
  if (a.cpu)
    cpu = fb::CreateCpu(b, b.CreateString(a.cpu->preset), b.CreateString(a.cpu->kernels),
                        b.CreateString(a.cpu->model), a.cpu->clock_mhz, a.cpu->driver_job_cycles,
                        a.cpu->driver_reg_cycles, a.cpu->irq_handler_cycles,
                        b.CreateString(a.cpu->firmware_opt));
  const auto root = fb::CreateChunkPlan(b, conv ? kPlanVersionConv : kPlanVersion, hw, &shape,
                                        chunk_vector, decision, toFb(p.kind), geometry, cpu);
  b.Finish(root, kPlanIdentifier);
  return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

bool hasPlanIdentifier(const uint8_t* data, size_t size) {
  return size >= 8 && flatbuffers::BufferHasIdentifier(data, kPlanIdentifier);
}

AnnotatedPlan decodePlan(const uint8_t* data, size_t size) {
  if (!hasPlanIdentifier(data, size))
    throw ModelError("not a hilsim chunk plan (identifier is not '" + std::string(kPlanIdentifier) +
                     "')");
  // Plans live inside other buffers with no alignment guarantee: verify and read an aligned copy.
  std::vector<uint8_t> copy(data, data + size);
  flatbuffers::Verifier verifier(copy.data(), copy.size(), 32, 100000);
  if (!fb::VerifyChunkPlanBuffer(verifier))
    throw ModelError("chunk plan is corrupt (flatbuffer verification failed)");
  const fb::ChunkPlan& p = *fb::GetChunkPlan(copy.data());
  if (p.version() != kPlanVersion && p.version() != kPlanVersionConv)
    throw ModelError("chunk plan version " + std::to_string(p.version()) +
                     " is not supported (hilsim reads versions " + std::to_string(kPlanVersion) +
                     " and " + std::to_string(kPlanVersionConv) + ")");
  if (!p.hardware() || !p.shape() || !p.chunks() || !p.decision())
    throw ModelError("chunk plan lacks its hardware, shape, chunks or decision");
  if (p.kind() < fb::PlanKind::MIN || p.kind() > fb::PlanKind::MAX)
    throw ModelError("chunk plan names an unknown layer kind");
  if (p.version() == kPlanVersion && p.kind() != fb::PlanKind::FULLY_CONNECTED)
    throw ModelError("chunk plan version 1 is for FULLY_CONNECTED layers only");
  AnnotatedPlan a;
  a.plan.kind = p.kind() == fb::PlanKind::CONV_2D             ? PlanKind::kConv2D
                : p.kind() == fb::PlanKind::DEPTHWISE_CONV_2D ? PlanKind::kDepthwiseConv2D
                                                              : PlanKind::kFullyConnected;
  const bool conv = a.plan.kind != PlanKind::kFullyConnected;
  if (conv) {
    if (!p.conv()) throw ModelError("convolution plan lacks its geometry");
    a.plan.conv = decodeGeometry(*p.conv(), a.plan.kind == PlanKind::kDepthwiseConv2D);
  }
  const fb::Hardware& hw = *p.hardware();
  if (hw.dataflow() < fb::Dataflow::MIN || hw.dataflow() > fb::Dataflow::MAX)
    throw ModelError("chunk plan names an unknown dataflow");
  a.plan.hardware.num_cores = hw.num_cores();
  a.plan.hardware.array_rows = hw.array_rows();
  a.plan.hardware.array_cols = hw.array_cols();
  a.plan.hardware.dataflow = hw.dataflow() == fb::Dataflow::OS ? timing::Dataflow::kOutputStationary
                             : hw.dataflow() == fb::Dataflow::IS
                                 ? timing::Dataflow::kInputStationary
                                 : timing::Dataflow::kWeightStationary;
  a.plan.hardware.sram_bytes = hw.sram_bytes();
  a.plan.hardware.double_buffer = hw.double_buffer();
  a.plan.shape = {p.shape()->rows(), p.shape()->k(), p.shape()->n()};
  for (const fb::Chunk* c : *p.chunks()) {
    if (!c->sram_weight_offset() || !c->sram_params_offset())
      throw ModelError("chunk plan has a chunk without buffer offsets");
    Chunk chunk;
    chunk.core = c->core();
    chunk.n_begin = c->n_begin();
    chunk.n_count = c->n_count();
    chunk.tile_n = c->tile_n();
    chunk.num_tiles = c->num_tiles();
    chunk.sram_input = c->sram_input_offset();
    chunk.sram_tile = schema::copyScalars(c->sram_weight_offset());
    const std::vector<uint64_t> params = schema::copyScalars(c->sram_params_offset());
    chunk.sram_output = c->sram_output_offset();
    chunk.sram_used = c->sram_bytes_used();
    if (conv) {
      if (!c->sram_input_buffers() || !c->sram_output_buffers())
        throw ModelError("convolution plan has a chunk without input or output buffers");
      chunk.m_begin = c->m_begin();
      chunk.m_count = c->m_count();
      chunk.band_rows = c->band_rows();
      chunk.num_bands = c->num_bands();
      chunk.sram_inputs = schema::copyScalars(c->sram_input_buffers());
      chunk.sram_outputs = schema::copyScalars(c->sram_output_buffers());
    }
    if (params.size() != chunk.sram_tile.size())
      throw ModelError("chunk plan: core " + std::to_string(chunk.core) +
                       " has different numbers of weight and parameter buffers");
    for (size_t i = 0; i < chunk.sram_tile.size(); ++i)
      if (params[i] != chunk.sram_tile[i] + uint64_t{chunk.tile_n} * a.plan.shape.k)
        throw ModelError("chunk plan: core " + std::to_string(chunk.core) +
                         " puts its parameters where its weights do not end");
    a.plan.chunks.push_back(std::move(chunk));
  }
  const fb::Decision& d = *p.decision();
  a.decision.offload = d.offload();
  a.decision.predicted_accel_cycles = d.predicted_accel_cycles();
  a.decision.predicted_ref_cycles = d.predicted_ref_cycles();
  a.decision.break_even_macs = d.break_even_macs();
  a.decision.policy = d.policy() ? d.policy()->str() : "";
  a.decision.reason = d.reason() ? d.reason()->str() : "";
  if (d.objective() > fb::Objective::MAX)
    throw ModelError("chunk plan's decision has an unknown objective (" +
                     std::to_string(static_cast<int>(d.objective())) + ")");
  a.decision.objective = static_cast<Objective>(d.objective());
  a.decision.predicted_accel_energy_uj = d.predicted_accel_energy_uj();
  a.decision.predicted_ref_energy_uj = d.predicted_ref_energy_uj();
  a.decision.break_even_energy_macs = d.break_even_energy_macs();
  if (const fb::Cpu* cpu = p.cpu()) {
    if (!cpu->preset() || !cpu->kernels() || !cpu->model())
      throw ModelError("chunk plan's CPU record lacks its preset, kernels or model");
    a.cpu =
        CpuAssumptions{cpu->preset()->str(),     cpu->kernels()->str(),    cpu->model()->str(),
                       cpu->clock_mhz(),         cpu->driver_job_cycles(), cpu->driver_reg_cycles(),
                       cpu->irq_handler_cycles()};
    if (cpu->firmware_opt()) a.cpu->firmware_opt = cpu->firmware_opt()->str();
  }
  return a;
}

std::string describeCpu(const CpuAssumptions& c) {
  char clock[32];
  std::snprintf(clock, sizeof clock, "%g", c.clock_mhz);
  return c.preset + " at " + clock + " MHz, " + c.kernels + " kernels, cpu.model " + c.model +
         ", driver " + std::to_string(c.driver_job_cycles) + " cycles per job + " +
         std::to_string(c.driver_reg_cycles) + " per register access + " +
         std::to_string(c.irq_handler_cycles) + " per interrupt, firmware -" + c.firmware_opt;
}

namespace {

std::string describeConvPlan(const AnnotatedPlan& a) {
  const Plan& p = a.plan;
  std::set<std::pair<uint32_t, uint32_t>> channels, rows;
  uint64_t steps = 0;
  for (const Chunk& c : p.chunks) {
    channels.insert({c.n_begin, c.n_count});
    rows.insert({c.m_begin, c.m_count});
    steps += uint64_t{c.num_bands} * c.num_tiles;
  }
  std::string text =
      "plan v" + std::to_string(kPlanVersionConv) + " " + planKindName(p.kind) + " for " +
      std::to_string(p.hardware.num_cores) + " cores " + std::to_string(p.hardware.array_rows) +
      "x" + std::to_string(p.hardware.array_cols) + " " + dataflowName(p.hardware.dataflow) +
      " SRAM " + std::to_string(p.hardware.sram_bytes) + cpuText(a) + ": GEMM " +
      std::to_string(p.shape.rows) + "x" + std::to_string(p.shape.k) + "->" +
      std::to_string(p.shape.n) + ", " + counted(p.chunks.size(), "chunk") + " (" +
      std::to_string(channels.size()) + " channel x " + std::to_string(rows.size()) +
      " row ranges), " + counted(steps, "step");
  // Only a consistent plan has bands worth counting (the text also describes corrupt ones).
  if (validateConvPlan(p, p.layer()).empty()) {
    char factor[32];
    std::snprintf(factor, sizeof factor, "%.2f", inputReadFactor(p));
    text += ", input read " + std::string(factor) + "x";
  }
  return text + "; " + decisionText(a.decision);
}

}  // namespace

std::vector<uint8_t> encodePlanSet(const std::vector<PlanEntry>& entries) {
  flatbuffers::FlatBufferBuilder b(1024);
  std::vector<flatbuffers::Offset<fb::PlanEntry>> offsets;
  for (const PlanEntry& e : entries)
    offsets.push_back(fb::CreatePlanEntry(b, e.subgraph, e.operator_index, b.CreateVector(e.plan)));
  b.Finish(fb::CreatePlanSet(b, kPlanVersion, b.CreateVector(offsets)), kPlanSetIdentifier);
  return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

std::vector<PlanEntry> decodePlanSet(const uint8_t* data, size_t size) {
  if (size < 8 || !flatbuffers::BufferHasIdentifier(data, kPlanSetIdentifier))
    throw ModelError(std::string("metadata '") + kMetadataName + "' is not a hilsim plan set");
  std::vector<uint8_t> copy(data, data + size);
  flatbuffers::Verifier verifier(copy.data(), copy.size(), 32, 1000000);
  if (!verifier.VerifyBuffer<fb::PlanSet>(kPlanSetIdentifier))
    throw ModelError(std::string("metadata '") + kMetadataName + "' is corrupt");
  const fb::PlanSet& set = *flatbuffers::GetRoot<fb::PlanSet>(copy.data());
  if (set.version() != kPlanVersion)
    throw ModelError(std::string("metadata '") + kMetadataName + "' has version " +
                     std::to_string(set.version()) + " (hilsim reads version " +
                     std::to_string(kPlanVersion) + ")");
  std::vector<PlanEntry> entries;
  if (set.entries())
    for (const fb::PlanEntry* e : *set.entries()) {
      PlanEntry entry;
      entry.subgraph = e->subgraph();
      entry.operator_index = e->operator_index();
      if (e->plan()) entry.plan.assign(e->plan()->begin(), e->plan()->end());
      entries.push_back(std::move(entry));
    }
  return entries;
}

std::string describePlan(const AnnotatedPlan& a) {
  const Plan& p = a.plan;
  if (p.kind != PlanKind::kFullyConnected) return describeConvPlan(a);
  std::string text =
      "plan v" + std::to_string(kPlanVersion) + " for " + std::to_string(p.hardware.num_cores) +
      " cores " + std::to_string(p.hardware.array_rows) + "x" +
      std::to_string(p.hardware.array_cols) + " " + dataflowName(p.hardware.dataflow) + " SRAM " +
      std::to_string(p.hardware.sram_bytes) + cpuText(a) + ": " + counted(p.chunks.size(), "chunk");
  uint32_t tiles = 0;
  for (const Chunk& c : p.chunks) tiles += c.num_tiles;
  text += ", " + counted(tiles, "tile") + "; " + decisionText(a.decision);
  return text;
}

}  // namespace hilsim::planner
