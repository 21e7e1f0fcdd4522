#include "hilsim/model/tracer.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "hilsim/errors.h"

namespace hilsim::model {
namespace {

// VCD identifier codes: base-94 over the printable characters '!'..'~'.
std::string identifier(uint32_t index) {
  std::string id;
  do {
    id += static_cast<char>('!' + index % 94);
    index /= 94;
  } while (index > 0);
  return id;
}

std::string valueText(const Tracer::SignalInfo& s, bool known, uint64_t value,
                      const std::string& id) {
  if (s.width == 1) return std::string(known ? (value ? "1" : "0") : "x") + id;
  std::string bits;
  if (!known) {
    bits = "x";
  } else {
    for (int b = static_cast<int>(s.width) - 1; b >= 0; --b)
      if (!bits.empty() || (value >> b) & 1u) bits += ((value >> b) & 1u) ? '1' : '0';
    if (bits.empty()) bits = "0";
  }
  return "b" + bits + " " + id;
}

}  // namespace

namespace {
constexpr size_t kOutBytes = size_t{1} << 16;  // text gathered before one fwrite
}  // namespace

Tracer::~Tracer() {
  if (file_) {
    std::fclose(file_);
    std::remove(tmp_path_.c_str());
  }
}

void Tracer::open(const std::string& path, const std::string& version) {
  path_ = path;
  version_ = version;
  tmp_path_ = path + ".tmp." + std::to_string(::getpid());
  file_ = std::fopen(tmp_path_.c_str(), "wb");
  if (!file_) throw InputError("cannot write trace '" + path + "'");
  out_.reserve(kOutBytes + 256);
}

Tracer::Signal Tracer::add(const std::string& scope, const std::string& name, uint32_t width_bits,
                           std::optional<uint64_t> initial) {
  if (dumped_) throw std::logic_error("Tracer::add after the trace's header was written");
  signals_.push_back({scope, name, width_bits, initial});
  if (sink_) sink_->onAdd(signals_.back());
  return static_cast<Signal>(signals_.size() - 1);
}

void Tracer::set(Signal signal, std::optional<uint64_t> value, const sc_core::sc_time& t) {
  if (sink_) sink_->onChange(signal, signals_[signal], value, t);
  if (!file_) return;
  ++recorded_;
  last_time_ps_ = std::max<uint64_t>(last_time_ps_, t.value());
  if (t.value() < written_until_ps_)
    throw SimulationError("trace: a change of " + signals_[signal].scope + "." +
                          signals_[signal].name + " at " + std::to_string(t.value()) +
                          " ps was recorded after the trace was written up to " +
                          std::to_string(written_until_ps_) + " ps");
  pending_.push_back({t.value(), seq_++, signal, value.has_value(), value.value_or(0)});
  if (pending_.size() >= flush_at_) {
    // Nothing is recorded before the current time any more, so the changes before it are final.
    flush(sc_core::sc_time_stamp().value());
    flush_at_ = std::max(kFlushChanges, 2 * pending_.size());
  }
}

void Tracer::windowStart(sc_core::sc_time from) {
  windowed_ = true;
  window_from_ = from.value();
  window_to_at_least_ = std::max<uint64_t>(window_to_at_least_, from.value());
}

void Tracer::windowEndsAfter(sc_core::sc_time t) {
  window_to_at_least_ = std::max<uint64_t>(window_to_at_least_, t.value());
}

void Tracer::windowEnd(sc_core::sc_time to) {
  window_to_ = to.value();
}

void Tracer::abandon() {
  abandoned_ = true;
  closeFile();
  std::remove(tmp_path_.c_str());
  pending_.clear();
  pending_.shrink_to_fit();
}

void Tracer::emit(const std::string& text) {
  out_ += text;
  if (out_.size() >= kOutBytes) {
    if (std::fwrite(out_.data(), 1, out_.size(), file_) != out_.size()) failed_ = true;
    out_.clear();
  }
}

void Tracer::closeFile() {
  if (!file_) return;
  if (!out_.empty() && std::fwrite(out_.data(), 1, out_.size(), file_) != out_.size())
    failed_ = true;
  out_.clear();
  if (std::fclose(file_) != 0) failed_ = true;
  file_ = nullptr;
}

void Tracer::writeDump() {
  std::ostringstream head;
  head << "$version " << version_ << " $end\n";
  for (const std::string& c : comments_) head << "$comment " << c << " $end\n";
  head << "$timescale 1ps $end\n";
  writeScopes(head);
  head << "$enddefinitions $end\n";
  const uint64_t from = window_from_.value_or(0);
  head << "#" << from << "\n$dumpvars\n";
  emit(head.str());
  for (size_t i = 0; i < signals_.size(); ++i)
    emit(valueText(signals_[i], current_[i].first, current_[i].second, ids_[i]) + "\n");
  emit("$end\n");
  dumped_ = true;
}

void Tracer::flush(uint64_t horizon_ps) {
  if (!file_) return;
  if (ids_.empty() && !signals_.empty()) {
    for (size_t i = 0; i < signals_.size(); ++i) {
      ids_.push_back(identifier(static_cast<uint32_t>(i)));
      current_.emplace_back(signals_[i].initial.has_value(), signals_[i].initial.value_or(0));
    }
    last_change_.assign(signals_.size(), -1);
  }
  // Changes are recorded nearly in time order; seq keeps the recording order within a time.
  std::sort(pending_.begin(), pending_.end(), [](const Change& a, const Change& b) {
    return a.time_ps != b.time_ps ? a.time_ps < b.time_ps : a.seq < b.seq;
  });
  // Before windowStart() every final change precedes the window (it starts at a later time).
  const uint64_t from = windowed_ ? window_from_.value_or(UINT64_MAX) : 0;
  // Up to which time changes can be written: all of the window, once its end is known.
  const uint64_t writable = !windowed_ || window_to_ ? UINT64_MAX : window_to_at_least_;
  const uint64_t to = windowed_ && window_to_ ? *window_to_ : UINT64_MAX;

  // Changes at one timestamp collapse to each signal's last value there.
  std::vector<Signal> touched;
  size_t c = 0;
  while (c < pending_.size() && pending_[c].time_ps < horizon_ps) {
    const uint64_t time = pending_[c].time_ps;
    if (time >= from && time > writable) break;  // the window may end before it: hold
    size_t end = c;
    touched.clear();
    for (; end < pending_.size() && pending_[end].time_ps == time; ++end) {
      if (last_change_[pending_[end].signal] < 0) touched.push_back(pending_[end].signal);
      last_change_[pending_[end].signal] = static_cast<int64_t>(end);
    }
    if (time >= from && !dumped_) writeDump();
    bool stamped = time == from;
    for (Signal sig : touched) {
      const Change& ch = pending_[static_cast<size_t>(last_change_[sig])];
      last_change_[sig] = -1;
      if (time > to) continue;  // after the window: dropped
      auto& cur = current_[sig];
      if (cur.first == ch.known && cur.second == ch.value) continue;
      cur = {ch.known, ch.value};
      if (time < from) continue;  // before the window: only the value current at its start
      if (!stamped) {
        emit("#" + std::to_string(time) + "\n");
        stamped = true;
      }
      emit(valueText(signals_[sig], ch.known, ch.value, ids_[sig]) + "\n");
    }
    c = end;
    written_until_ps_ = time + 1;
  }
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(c));
}

void Tracer::finish() {
  if (abandoned_ || (windowed_ && !windowKnown()))
    throw InputError("trace '" + path_ + "': its window was never reached");
  flush(UINT64_MAX);
  if (!dumped_) writeDump();
  closeFile();
  if (failed_ || std::rename(tmp_path_.c_str(), path_.c_str()) != 0) {
    std::remove(tmp_path_.c_str());
    throw InputError("cannot write trace '" + path_ + "'");
  }
}

void Tracer::writeGtkw(const std::string& gtkw_path, const std::string& vcd_path) const {
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
  for (size_t i = 0; i < signals_.size(); ++i) {
    const std::string group = rank(signals_[i].scope) == 0 ? "cpu" : signals_[i].scope;
    if (!members.count(group)) groups.push_back(group);
    members[group].push_back(i);
  }
  std::stable_sort(groups.begin(), groups.end(),
                   [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
  if (auto host = members.find("cpu"); host != members.end())
    std::stable_sort(host->second.begin(), host->second.end(),
                     [&](size_t a, size_t b) { return place(signals_[a]) < place(signals_[b]); });

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
  const std::vector<GtkwFilter> filters = gtkwFilters(gtkw_path);
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
  const auto [start_ps, end_ps] = timeRange();
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
      const SignalInfo& s = signals_[i];
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

std::vector<Tracer::GtkwFilter> Tracer::gtkwFilters(const std::string& gtkw_path) const {
  const std::string ext = ".gtkw";
  std::string stem = gtkw_path;
  if (stem.size() > ext.size() && stem.compare(stem.size() - ext.size(), ext.size(), ext) == 0)
    stem.resize(stem.size() - ext.size());
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(stem, ec);
  if (!ec) stem = absolute.lexically_normal().string();

  // Bus ports 0..C-1 are the DMA channels, port C the host CPU.
  uint32_t channels = 0;
  for (const SignalInfo& s : signals_)
    if (s.scope.rfind("dma.ch", 0) == 0 && s.name == "busy") ++channels;
  std::string ports;
  for (uint32_t c = 0; c < channels; ++c)
    ports += std::to_string(c) + " dma.ch" + std::to_string(c) + "\n";
  ports += std::to_string(channels) + " cpu\n";

  std::vector<GtkwFilter> filters;
  auto add = [&](const char* suffix, std::string text, std::function<bool(const SignalInfo&)> f) {
    for (const SignalInfo& s : signals_)
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

std::pair<uint64_t, uint64_t> Tracer::timeRange() const {
  if (windowKnown()) return {*window_from_, *window_to_};
  return {0, last_time_ps_};
}

void Tracer::writeText(const std::string& path, const std::string& text, const std::string& what) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  std::ofstream file(tmp, std::ios::binary);
  file << text;
  file.close();
  if (!file || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw InputError("cannot write " + what + " '" + path + "'");
  }
}

void Tracer::writeScopes(std::ostream& out) const {
  // Scopes form a tree, in order of first declaration.
  struct Scope {
    std::vector<std::string> order;
    std::map<std::string, Scope> children;
    std::vector<size_t> signals;
  };
  Scope root;
  for (size_t i = 0; i < signals_.size(); ++i) {
    Scope* at = &root;
    const std::string& path = signals_[i].scope;
    size_t start = 0;
    while (!path.empty() && start <= path.size()) {
      const size_t dot = std::min(path.find('.', start), path.size());
      const std::string part = path.substr(start, dot - start);
      if (!at->children.count(part)) at->order.push_back(part);
      at = &at->children[part];
      start = dot + 1;
    }
    at->signals.push_back(i);
  }
  std::function<void(const std::string&, const Scope&)> emit = [&](const std::string& name,
                                                                   const Scope& scope) {
    out << "$scope module " << name << " $end\n";
    for (size_t i : scope.signals)
      out << "$var " << (signals_[i].width == 1 ? "wire" : "reg") << " " << signals_[i].width << " "
          << identifier(static_cast<uint32_t>(i)) << " " << signals_[i].name << " $end\n";
    for (const std::string& child : scope.order) emit(child, scope.children.at(child));
    out << "$upscope $end\n";
  };
  emit("hilsim", root);
}

}  // namespace hilsim::model
