#pragma once
// Chrome trace-event / Perfetto timeline of the platform (traces/README.md "Timeline"): complete
// ("X") spans at simulated time on one track per component (the host CPU, each DMA channel, the
// bus, each matmul core), named by metadata ("M") events. It listens to the Tracer's signals, so
// it sees activity at exactly the points the VCD does, and streams each span to the file as it
// ends: memory holds only the spans still open, however long the run.

#include <cstdint>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "hilsim/base/io.h"
#include "hilsim/base/json.h"
#include "hilsim/model/tracer.h"

namespace hilsim::model {

class Timeline final : public TraceSink {
 public:
  // Opens a temporary file beside `path`; commit() renames it into place. `layers`: keep only
  // the spans of the first invocation's layers A..B. Throws InputError.
  Timeline(std::string path, std::optional<std::pair<int, int>> layers);
  ~Timeline() override;  // removes the temporary file unless committed
  Timeline(const Timeline&) = delete;
  Timeline& operator=(const Timeline&) = delete;

  // Names the track of each component as the platform declares its signals, so every core has
  // a track even if it never works.
  void onAdd(const Tracer::SignalInfo& info) override;
  void onChange(Tracer::Signal signal, const Tracer::SignalInfo& info,
                std::optional<uint64_t> value, const sc_core::sc_time& t) override;

  // A layer's span on the CPU track (the report's record of it), times in simulated time.
  void layer(uint32_t invocation, int index, const std::string& name, const std::string& op,
             const std::string& path, const sc_core::sc_time& begin, const sc_core::sc_time& end);

  // Closes the open spans at `end`, finishes the JSON and renames the file into place. Throws
  // UsageError when a layer range was asked for and the run had no such layers, InputError when
  // the file cannot be written.
  void commit(const sc_core::sc_time& end);

 private:
  struct Track {
    int pid;
    int tid;
  };
  struct Open {  // a span begun and not yet ended
    uint64_t begin_ps = 0;
    std::string name;
    Json args;  // an object
  };

  Track track(const std::string& process, int pid, const std::string& thread, int tid);
  Track coreTrack(const std::string& scope);  // "core2"
  Track dmaTrack(const std::string& scope);   // "dma.ch1"
  void span(const Track& track, const std::string& name, uint64_t begin_ps, uint64_t end_ps,
            Json args);
  void close(const Track& track, std::optional<Open>& open, uint64_t end_ps);
  void event(const Json& event);
  void flushCpuSpans();
  bool inWindow(uint64_t begin_ps) const;
  Json layerArg() const;  // {"layer": N}, or {} before the first layer

  std::string path_;
  std::string tmp_;
  RegisteredTemporary tmp_registration_;  // removes tmp_ on a stop signal
  std::ofstream out_;
  bool first_event_ = true;
  // The host CPU's kernel/driver/wait spans since the last layer span: written after the layer's
  // own span, so that a viewer ordering spans of equal times by file order nests them in it.
  std::vector<Json> pending_cpu_;
  bool committed_ = false;
  std::set<std::pair<int, int>> named_tracks_;
  std::set<int> named_processes_;

  std::optional<std::pair<int, int>> layers_;
  std::optional<uint64_t> window_from_ps_, window_to_ps_;
  std::optional<uint32_t> invocation_;
  std::optional<int> layer_;       // the layer the host is in; nullopt between layers
  std::optional<int> last_layer_;  // the last layer entered (hardware may finish after it ends)

  // Open spans, by signal scope.
  std::optional<Open> cpu_state_;
  std::map<std::string, std::optional<Open>> core_job_, core_phase_, dma_transfer_;
  std::map<std::string, uint64_t> core_tiles_;
  std::map<std::string, std::optional<uint64_t>> core_tile_;
  std::optional<Open> bus_span_;
  uint64_t bus_active_ = 0;
  std::optional<uint64_t> bus_owner_;
  uint64_t dma_channels_ = 0;  // bus ports 0..C-1 are the DMA channels, port C the host CPU
  std::map<std::string, uint64_t> dma_bytes_;
};

}  // namespace hilsim::model
