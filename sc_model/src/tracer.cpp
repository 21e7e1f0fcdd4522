#include "hilsim/model/tracer.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
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
  tmp_registration_ = RegisteredTemporary(tmp_path_);
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

std::pair<uint64_t, uint64_t> Tracer::timeRange() const {
  if (windowKnown()) return {*window_from_, *window_to_};
  return {0, last_time_ps_};
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
