#pragma once
// --per-invocation: every invocation's layer records, put in temporary files (Spool) as they
// complete instead of in memory, and written as the JSON report's `layers` and the CSV's rows
// once the run-wide figures are known. The files are exactly what reportJson and reportCsv write
// for a report that holds every record; memory holds one record at a time however long the run.

#include <cstdint>
#include <optional>
#include <string>

#include "hilsim/base/spool.h"
#include "hilsim/config/hardware_config.h"
#include "hilsim/rt/layer_record.h"

namespace hilsim::report {

struct RunReport;

class PerInvocationWriter {
 public:
  // `json`, `csv`: which of the two files will be written. `config` and `with_accelerator` are the
  // run's (RunReport::config, RunReport::with_accelerator).
  PerInvocationWriter(const config::HardwareConfig& config, bool with_accelerator, bool json,
                      bool csv);

  // One record, as the interpreter completes it (every invocation, in order).
  void add(const rt::LayerRecord& record);
  uint64_t records() const { return records_; }

  // Write through a temporary file renamed into place; `report` gives the run-wide figures
  // (its own `layers` are not written). Each may be called once.
  void writeJson(const RunReport& report, const std::string& path);
  void writeCsv(const RunReport& report, const std::string& path);

 private:
  void addJson(const rt::LayerRecord& record);
  void addCsv(const rt::LayerRecord& record);

  const config::HardwareConfig& config_;
  bool with_accelerator_;
  std::optional<Spool> json_, csv_;
  uint64_t records_ = 0;
};

}  // namespace hilsim::report
