#include "hilsim/vcd/trace_stats.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <unordered_set>

namespace hilsim::vcd {
namespace {

// A value in a form that compares equal exactly when two values are equal: known values of at
// most 64 significant bits (and reals) as a word, others as their bits extended to full width.
struct Value {
  bool word_form = true;
  uint64_t word = 0;
  std::string bits;
  bool known = false;
  bool nonzero = false;

  bool operator==(const Value& o) const {
    return word_form == o.word_form && (word_form ? word == o.word : bits == o.bits);
  }
};

// Reads `text` (bits of 0 1 x z, most significant first) into `v` for a signal `width` bits
// wide, applying IEEE 1364's left-extension. Reuses v's storage.
void parseBits(std::string_view text, uint32_t width, Value* v) {
  const bool has_xz = text.find_first_of("xz") != std::string_view::npos;
  v->known = !has_xz;
  if (!has_xz) {
    const size_t first_one = text.find('1');
    const std::string_view significant =
        first_one == std::string_view::npos ? std::string_view() : text.substr(first_one);
    v->nonzero = !significant.empty();
    if (significant.size() <= 64) {
      v->word_form = true;
      v->word = 0;
      for (char c : significant) v->word = (v->word << 1) | static_cast<uint64_t>(c == '1');
    } else {
      v->word_form = false;
      v->bits.assign(significant.data(), significant.size());
    }
    return;
  }
  v->nonzero = false;
  v->word_form = false;
  const char pad = (text[0] == 'x' || text[0] == 'z') ? text[0] : '0';
  v->bits.assign(width > text.size() ? width - text.size() : 0, pad);
  v->bits.append(text.data(), text.size());
}

void parseReal(std::string_view text, Value* v) {
  double d = 0;
  std::from_chars(text.data(), text.data() + text.size(), d);  // the reader checked the text
  // -0.0 and 0.0 are one value.
  if (d == 0) d = 0;
  v->word_form = true;
  std::memcpy(&v->word, &d, sizeof d);
  v->known = !std::isnan(d);
  v->nonzero = v->known && d != 0;
}

struct CodeState {
  uint32_t width = 1;
  bool has_value = false;
  Value value;
  uint64_t since = 0;
  uint64_t changes = 0;
  uint64_t first_change = 0;
  uint64_t last_change = 0;
  uint64_t time_known = 0;
  uint64_t time_nonzero = 0;
  bool count_distinct = false;
  bool distinct_capped = false;
  std::unordered_set<uint64_t> words;
  std::unordered_set<std::string> texts;

  // Adds the time from `since` to `t` spent at the current value.
  void account(uint64_t t) {
    if (!has_value) return;
    const uint64_t d = t - since;
    if (value.known) time_known += d;
    if (value.nonzero) time_nonzero += d;
    since = t;
  }
  // Time spent at a non-zero value up to `t`.
  uint64_t nonzeroUntil(uint64_t t) const {
    return time_nonzero + (has_value && value.nonzero ? t - since : 0);
  }
  void noteDistinct() {
    if (!count_distinct || distinct_capped) return;
    if (value.word_form)
      words.insert(value.word);
    else if (texts.find(value.bits) == texts.end())
      texts.insert(value.bits);
    if (words.size() + texts.size() >= kDistinctLimit) distinct_capped = true;
  }
};

// Parses "core<digits>.busy" after "hilsim."; returns the core number.
std::optional<uint32_t> hilsimCore(const std::string& name) {
  const std::string prefix = "hilsim.core", suffix = ".busy";
  if (name.size() <= prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
    return std::nullopt;
  const std::string digits =
      name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  uint32_t core = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), core);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return core;
}

class Collector final : public vcd::Handler {
 public:
  explicit Collector(TraceStats* out) : out_(*out) {}

  void header(const vcd::Header& h) override {
    header_ = h;
    codes_.resize(h.code_count);
    for (size_t i = 0; i < h.code_count; ++i) {
      codes_[i].width = h.code_width[i];
      codes_[i].count_distinct = h.code_width[i] > 1 || h.code_real[i];
    }
    std::vector<std::pair<uint32_t, size_t>> cores;
    std::optional<size_t> layer;
    for (const vcd::Var& v : h.vars) {
      if (v.name == "hilsim.layer" && v.range.empty()) layer = v.code_index;
      if (v.name == "hilsim.invocation" && v.range.empty()) invocation_code_ = v.code_index;
      if (const auto core = hilsimCore(v.name); core && v.width == 1)
        cores.push_back({*core, v.code_index});
    }
    if (layer && !cores.empty()) {
      std::sort(cores.begin(), cores.end());
      layer_code_ = *layer;
      out_.hilsim.emplace();
      for (const auto& [core, code] : cores) {
        out_.hilsim->cores.push_back(core);
        core_codes_.push_back(code);
      }
      const std::string key = "hilsim cpu_clock_mhz ";
      for (const std::string& c : h.comments)
        if (c.compare(0, key.size(), key) == 0) {
          double mhz = 0;
          const char* begin = c.data() + key.size();
          const auto [end, ec] = std::from_chars(begin, c.data() + c.size(), mhz);
          if (ec == std::errc() && mhz > 0) out_.hilsim->cpu_clock_mhz = mhz;
        }
    }
  }

  void time(uint64_t t) override {
    if (!started_) out_.start_time = t;
    started_ = true;
    now_ = t;
  }

  void change(size_t code_index, vcd::ValueKind kind, std::string_view text) override {
    started_ = true;
    CodeState& s = codes_[code_index];
    if (kind == vcd::ValueKind::kReal)
      parseReal(text, &next_);
    else
      parseBits(text, s.width, &next_);
    if (s.has_value && s.value == next_) return;
    if (code_index == layer_code_) closeWindow(true);
    if (code_index == invocation_code_ && out_.hilsim) {
      // A new invocation of the layer still running (the layer index itself did not change).
      const bool reopen = window_open_;
      const uint64_t layer = reopen ? open_.layer : 0;
      closeWindow(true);
      parseBits(text, s.width, &next_);
      if (next_.known && next_.word_form) invocation_ = static_cast<uint32_t>(next_.word);
      if (reopen) openWindow(layer);
      if (kind == vcd::ValueKind::kReal)
        parseReal(text, &next_);
      else
        parseBits(text, s.width, &next_);
    }
    s.account(now_);
    if (s.has_value) {
      if (s.changes++ == 0) s.first_change = now_;
      s.last_change = now_;
    }
    s.has_value = true;
    s.since = now_;
    std::swap(s.value, next_);
    s.noteDistinct();
    if (code_index == layer_code_ && s.value.known && s.value.word_form) openWindow(s.value.word);
  }

  void finish() {
    out_.end_time = now_;
    closeWindow(false);
    for (CodeState& s : codes_) s.account(now_);
    out_.version = header_.version;
    out_.date = header_.date;
    out_.timescale = header_.timescale;
    for (const CodeState& s : codes_) out_.total_changes += s.changes;
    for (const vcd::Var& v : header_.vars) {
      const CodeState& s = codes_[v.code_index];
      SignalStats st;
      st.name = v.name;
      st.range = v.range;
      st.type = v.type;
      st.code = v.code;
      st.width = v.width;
      st.real = header_.code_real[v.code_index];
      st.changes = s.changes;
      if (s.changes > 0) {
        st.first_change = s.first_change;
        st.last_change = s.last_change;
      }
      st.time_known = s.time_known;
      st.time_nonzero = s.time_nonzero;
      st.distinct_values = s.count_distinct ? s.words.size() + s.texts.size() : 0;
      st.distinct_exact = !s.distinct_capped;
      out_.signals.push_back(std::move(st));
    }
    if (out_.hilsim)
      for (size_t c : core_codes_) out_.hilsim->core_busy.push_back(codes_[c].time_nonzero);
  }

 private:
  void openWindow(uint64_t layer) {
    open_ = LayerWindow{};
    open_.layer = layer;
    if (invocation_code_ != SIZE_MAX)
      open_.invocation = invocation_;
    else if (last_kept_)
      open_.invocation = last_kept_->second + (layer <= last_kept_->first ? 1 : 0);
    open_.start = now_;
    for (size_t c : core_codes_) open_.core_busy.push_back(codes_[c].nonzeroUntil(now_));
    window_open_ = true;
  }

  void closeWindow(bool complete) {
    if (!window_open_) return;
    window_open_ = false;
    if (now_ == open_.start)
      return;  // replaced at the same instant (e.g. at the edges of
               // --vcd-layers)
    open_.end = now_;
    open_.complete = complete;
    for (size_t i = 0; i < core_codes_.size(); ++i)
      open_.core_busy[i] = codes_[core_codes_[i]].nonzeroUntil(now_) - open_.core_busy[i];
    HilsimStats& h = *out_.hilsim;
    if (!h.window_file) h.window_file = std::make_shared<Spool>();
    Spool& file = *h.window_file;
    file.putU64(open_.layer);
    file.putU64(open_.invocation);
    file.putU64(open_.start);
    file.putU64(open_.end);
    file.putU64(open_.complete ? 1 : 0);
    for (uint64_t busy : open_.core_busy) file.putU64(busy);
    file.endRecord();
    ++h.window_count;
    last_kept_ = {open_.layer, open_.invocation};
  }

  TraceStats& out_;
  vcd::Header header_;
  std::vector<CodeState> codes_;
  Value next_;
  uint64_t now_ = 0;
  bool started_ = false;
  size_t layer_code_ = SIZE_MAX;
  size_t invocation_code_ = SIZE_MAX;
  uint32_t invocation_ = 0;
  std::vector<size_t> core_codes_;
  bool window_open_ = false;
  LayerWindow open_;  // the window of the layer running now, while window_open_
  // Layer and invocation of the last window kept.
  std::optional<std::pair<uint64_t, uint32_t>> last_kept_;
};

}  // namespace

void HilsimStats::forEachWindow(const std::function<void(const LayerWindow&)>& f) const {
  if (!window_file) return;
  Spool& file = *window_file;
  file.rewind();
  LayerWindow w;
  w.core_busy.resize(cores.size());
  for (uint64_t i = 0; i < window_count; ++i) {
    w.layer = file.getU64();
    w.invocation = static_cast<uint32_t>(file.getU64());
    w.start = file.getU64();
    w.end = file.getU64();
    w.complete = file.getU64() != 0;
    for (uint64_t& busy : w.core_busy) busy = file.getU64();
    f(w);
  }
}

std::vector<LayerWindow> HilsimStats::windows() const {
  std::vector<LayerWindow> all;
  forEachWindow([&all](const LayerWindow& w) { all.push_back(w); });
  return all;
}

TraceStats computeTraceStats(std::istream& in, const std::string& name) {
  TraceStats stats;
  stats.file = name;
  Collector collector(&stats);
  vcd::readStream(in, name, collector);
  collector.finish();
  return stats;
}

TraceStats computeTraceStats(const std::string& path) {
  TraceStats stats;
  stats.file = path;
  Collector collector(&stats);
  vcd::readFile(path, collector);
  collector.finish();
  return stats;
}

}  // namespace hilsim::vcd
