#include "hilsim/model/gtkw.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include "hilsim/base/io.h"
#include "hilsim/errors.h"

namespace hilsim::model {
namespace {

using SignalInfo = Tracer::SignalInfo;

// A translate filter file naming the values of an enumerated signal.
struct GtkwFilter {
  int index;         // GTKWave's filter number, from 1
  std::string path;  // absolute
  std::string text;  // "value name" lines
  std::function<bool(const SignalInfo&)> applies;
};

std::vector<GtkwFilter> gtkwFilters(const std::vector<SignalInfo>& signals,
                                    const std::string& gtkw_path) {
  const std::string ext = ".gtkw";
  std::string stem = gtkw_path;
  if (stem.size() > ext.size() && stem.compare(stem.size() - ext.size(), ext.size(), ext) == 0)
    stem.resize(stem.size() - ext.size());
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(stem, ec);
  if (!ec) stem = absolute.lexically_normal().string();

  // Bus ports 0..C-1 are the DMA channels, port C the host CPU.
  uint32_t channels = 0;
  for (const SignalInfo& s : signals)
    if (s.scope.rfind("dma.ch", 0) == 0 && s.name == "busy") ++channels;
  std::string ports;
  for (uint32_t c = 0; c < channels; ++c)
    ports += std::to_string(c) + " dma.ch" + std::to_string(c) + "\n";
  ports += std::to_string(channels) + " cpu\n";

  std::vector<GtkwFilter> filters;
  auto add = [&](const char* suffix, std::string text, std::function<bool(const SignalInfo&)> f) {
    for (const SignalInfo& s : signals)
      if (f(s)) {
        filters.push_back({static_cast<int>(filters.size()) + 1, stem + suffix,
                           "# hilsim: " + std::string(suffix + 1) + "\n" + std::move(text), f});
        return;
      }
  };
  add(".cpu_state.filter", "0 idle\n1 kernel\n2 driver\n",
      [](const SignalInfo& s) { return s.scope == "cpu" && s.name == "state"; });
  add(".core_phase.filter", "0 idle\n1 startup\n2 load\n3 compute\n4 store\n",
      [](const SignalInfo& s) { return s.scope.rfind("core", 0) == 0 && s.name == "phase"; });
  add(".bus_owner.filter", ports,
      [](const SignalInfo& s) { return s.scope == "bus" && s.name == "owner"; });
  return filters;
}

// Writes `text` to `path` through a temporary file; throws InputError naming `what`.
void writeText(const std::string& path, const std::string& text, const std::string& what) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  const RegisteredTemporary registration(tmp);
  std::ofstream file(tmp, std::ios::binary);
  file << text;
  file.close();
  if (!file || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw InputError("cannot write " + what + " '" + path + "'");
  }
}

}  // namespace

void writeGtkw(const Tracer& tracer, const std::string& gtkw_path, const std::string& vcd_path) {
  const std::vector<SignalInfo>& signals = tracer.signals();
  // GTKWave trace flags: right-justified names, with binary (1-bit) or decimal values; a group is
  // a blank line opening it and one closing it.
  constexpr const char* kBinary = "@28";
  constexpr const char* kDecimal = "@24";
  constexpr const char* kGroupBegin = "@800200";
  constexpr const char* kGroupEnd = "@1000200";
  // Decimal values shown through a translate filter file (TR_FTRANSLATED).
  constexpr const char* kTranslated = "@2024";

  // Groups in display order: the host view (layer, CPU state, interrupt), the cores, the DMA
  // channels, the DMA engine, the bus, anything else.
  auto rank = [](const std::string& scope) {
    if (scope.empty() || scope == "cpu") return 0;
    if (scope.rfind("core", 0) == 0) return 1;
    if (scope.rfind("dma.", 0) == 0) return 2;
    if (scope == "dma") return 3;
    if (scope == "bus") return 4;
    return 5;
  };
  auto place = [](const SignalInfo& s) {  // order inside the host group
    return s.scope.empty() && s.name == "layer" ? 0 : s.scope == "cpu" ? 1 : 2;
  };
  std::vector<std::string> groups;  // in order of first declaration
  std::map<std::string, std::vector<size_t>> members;
  for (size_t i = 0; i < signals.size(); ++i) {
    const std::string group = rank(signals[i].scope) == 0 ? "cpu" : signals[i].scope;
    if (!members.count(group)) groups.push_back(group);
    members[group].push_back(i);
  }
  std::stable_sort(groups.begin(), groups.end(),
                   [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
  if (auto host = members.find("cpu"); host != members.end())
    std::stable_sort(host->second.begin(), host->second.end(),
                     [&](size_t a, size_t b) { return place(signals[a]) < place(signals[b]); });

  // Both files by name: with a [savefile] line, GTKWave looks for a relative [dumpfile] beside
  // the save file, wherever the pair is moved and whatever the working directory.
  auto fileName = [](const std::string& path) {
    const size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
  };
  const std::string vcd_name = fileName(vcd_path);

  // Enumerations get a translate filter file beside the save file ("value name" lines matching
  // the decimal text GTKWave shows). GTKWave opens a filter by the path in the save file, so it is
  // absolute.
  const std::vector<GtkwFilter> filters = gtkwFilters(signals, gtkw_path);
  auto filterOf = [&](const SignalInfo& s) -> const GtkwFilter* {
    for (const GtkwFilter& f : filters)
      if (f.applies(s)) return &f;
    return nullptr;
  };

  // Zoomed to show the whole trace (or its window) across the wave pane, as GTKWave's "zoom fit"
  // computes it: zoom = -log2(time units / (pane pixels - 4) x 200), at most 0. The 1400-pixel
  // window with its tree and signal panes leaves a wave pane of 776 pixels; a little less keeps
  // the end in view on a narrower one. Named markers A and B mark the ends.
  constexpr double kPanePixels = 740;
  const auto [start_ps, end_ps] = tracer.timeRange();
  const double span = std::max(1.0, static_cast<double>(end_ps - start_ps) + 1);
  const double zoom = std::min(0.0, -std::log2(span / (kPanePixels - 4) * 200));
  std::ostringstream out;
  out << "[*] GTKWave save file of the hilsim trace " << vcd_name << "\n"
      << "[dumpfile] \"" << vcd_name << "\"\n"
      << "[savefile] \"" << fileName(gtkw_path) << "\"\n"
      << "[timestart] " << start_ps << "\n"
      << "[size] 1400 800\n"
      << "[signals_width] 320\n"
      << "[sst_expanded] 1\n";
  char zoom_text[32];
  std::snprintf(zoom_text, sizeof zoom_text, "%f", zoom);
  out << "*" << zoom_text << " -1 " << start_ps << " " << end_ps;
  for (int i = 2; i < 26; ++i) out << " -1";
  out << "\n"
      << "[treeopen] hilsim.\n";
  std::string flags;
  auto setFlags = [&](const char* f) {
    if (flags != f) out << f << "\n";
    flags = f;
  };
  for (const std::string& group : groups) {
    setFlags(kGroupBegin);
    out << "-" << group << "\n";
    for (size_t i : members[group]) {
      const SignalInfo& s = signals[i];
      const GtkwFilter* filter = filterOf(s);
      setFlags(s.width == 1 ? kBinary : filter ? kTranslated : kDecimal);
      if (filter) out << "^" << filter->index << " " << filter->path << "\n";
      // GTKWave names a vector declared without a bit select by its name and "[msb:0]".
      out << "hilsim." << (s.scope.empty() ? "" : s.scope + ".") << s.name
          << (s.width == 1 ? "" : "[" + std::to_string(s.width - 1) + ":0]") << "\n";
    }
    setFlags(kGroupEnd);
    out << "-" << group << "\n";
  }

  for (const GtkwFilter& f : filters) writeText(f.path, f.text, "GTKWave filter file");
  writeText(gtkw_path, out.str(), "GTKWave save file");
}

}  // namespace hilsim::model
