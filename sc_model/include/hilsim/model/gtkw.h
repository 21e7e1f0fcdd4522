#pragma once
// The GTKWave save file beside a VCD the Tracer wrote (traces/README.md "GTKWave").

#include <string>

#include "hilsim/model/tracer.h"

namespace hilsim::model {

// Writes a GTKWave save file for the trace `tracer` wrote to `vcd_path`: the trace referenced by
// its file name, the view zoomed to the whole trace (or its window), the signals grouped by scope,
// multi-bit signals in decimal, enumerations (cpu.state, the cores' phase, bus.owner) named
// through translate filter files written beside it (t.gtkw -> t.cpu_state.filter, ...). Call
// after Tracer::finish(). Each file goes through a temporary file renamed into place. Throws
// InputError.
void writeGtkw(const Tracer& tracer, const std::string& gtkw_path, const std::string& vcd_path);

}  // namespace hilsim::model
