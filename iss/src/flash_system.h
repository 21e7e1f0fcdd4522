#pragma once
// The flash memory system's state: the line the fetch last read, the prefetched line, and the
// instruction and data caches (iss/README.md, "Flash memory system"). Private to the library.
//
// Instruction fetches are checked a block at a time: each block knows the lines it spans, and a
// block all of whose lines hit is remembered with the counts of cache fills at that time, so that
// running it again before the caches it uses changed costs a comparison or two.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "block_timing.h"
#include "hilsim/iss/flash.h"

namespace hilsim::iss {

// A set-associative cache of flash lines, least recently used replacement.
class LineCache {
 public:
  LineCache() = default;
  LineCache(uint32_t lines, uint32_t ways)
      : ways_(ways),
        set_mask_(lines == 0 ? 0 : lines / ways - 1),
        tags_(lines, kEmpty),
        stamps_(lines, 0),
        pairs_(ways == 2 ? lines / 2 : 0, kEmptyPair) {}

  bool enabled() const { return !tags_.empty(); }

  // True on a hit; on a miss the line replaces the set's least recently used one.
  bool access(uint32_t line) {
    if (ways_ == 2) {
      // The common case: each set is one word, the most recently used line in its upper half,
      // so that a check is one load and one store, without branches (whether a line hits is as
      // hard to predict for the host as it is for the part).
      uint64_t& set = pairs_[line & set_mask_];
      const uint64_t pair = set;
      const uint32_t mru = uint32_t(pair >> 32), lru = uint32_t(pair);
      const bool hit = mru == line || lru == line;
      set = uint64_t(line) << 32 | (mru == line ? lru : mru);
      return hit;
    }
    const uint32_t first = (line & set_mask_) * ways_;
    uint32_t victim = first;
    ++clock_;
    for (uint32_t w = first; w < first + ways_; ++w) {
      if (tags_[w] == line) {
        stamps_[w] = clock_;
        return true;
      }
      if (stamps_[w] < stamps_[victim]) victim = w;
    }
    tags_[victim] = line;
    stamps_[victim] = clock_;
    return false;
  }

  void clear() {
    std::fill(tags_.begin(), tags_.end(), kEmpty);
    std::fill(stamps_.begin(), stamps_.end(), 0);
    std::fill(pairs_.begin(), pairs_.end(), kEmptyPair);
  }

 private:
  static constexpr uint32_t kEmpty = 0xFFFF'FFFF;
  static constexpr uint64_t kEmptyPair = ~uint64_t{0};
  uint32_t ways_ = 1;
  uint32_t set_mask_ = 0;
  std::vector<uint32_t> tags_;
  std::vector<uint64_t> stamps_;  // last use of each way (more than 2 ways)
  std::vector<uint64_t> pairs_;   // 2 ways: each set's lines, most recently used first
  uint64_t clock_ = 0;
};

class FlashSystem {
 public:
  FlashSystem(const FlashOptions& o, uint32_t wait_states, uint32_t sram_wait_states)
      : options_(o),
        wait_states_(wait_states),
        sram_wait_states_(sram_wait_states),
        shift_(uint32_t(__builtin_ctz(o.line_bytes))),
        icache_(o.icache_lines, o.icache_ways),
        dcache_(o.dcache_lines, o.dcache_ways),
        data_cache_(o.data_through_icache ? &icache_ : (o.dcache_lines > 0 ? &dcache_ : nullptr)) {}

  const FlashOptions& options() const { return options_; }
  uint32_t lineOf(uint32_t address) const { return address >> shift_; }
  const FlashStats& stats() const { return stats_; }

  // The wait cycles of fetching block `b` (its lines and its literal loads); `sequential`: the
  // block follows the previous one without a branch.
  uint32_t blockCycles(const BlockTiming& b, bool sequential) {
    if (b.flash_epoch == ifills_ && (b.literal_lines.empty() || b.flash_data_epoch == dfills_)) {
      // The block's first line hit the cache when it last ran, its other lines came from the
      // prefetch or hit too, and no cache filled since: the same again.
      const uint32_t rest = b.fetch_lines - 1;
      stats_.icache_hits += 1 + (options_.prefetch ? 0 : rest);
      stats_.line_reads += options_.prefetch ? rest : 0;
      const uint32_t literals = uint32_t(b.literal_lines.size());
      countDataHits(literals);
      fetch_line_ = b.fetch_first_line + rest;
      return data_cache_ == nullptr ? literals * wait_states_ : 0;  // uncached literals wait
    }
    const uint64_t ifills = ifills_, dfills = dfills_;
    uint32_t wait = 0;
    bool first_in_cache = false;
    for (uint32_t k = 0; k < b.fetch_lines; ++k)
      wait +=
          fetch(b.fetch_first_line + k, sequential || k > 0, k == 0 ? &first_in_cache : nullptr);
    for (uint32_t line : b.literal_lines) wait += data(line);
    if (first_in_cache && ifills_ == ifills && dfills_ == dfills) {
      b.flash_epoch = ifills_;
      b.flash_data_epoch = dfills_;
    }
    return wait;
  }

  // A data load of model flash: its wait cycles beyond the SRAM access its block charged.
  int64_t modelLoadCycles(uint32_t address) {
    const uint32_t line = address >> shift_;
    if (line == data_line_ && data_cache_ != nullptr) {
      countDataHits(1);
      return -int64_t(sram_wait_states_);
    }
    data_line_ = line;
    return int64_t(data(line)) - int64_t(sram_wait_states_);
  }

  // Code was loaded anew: the caches hold none of it.
  void invalidate() {
    icache_.clear();
    dcache_.clear();
    ++ifills_;
    ++dfills_;
    fetch_line_ = data_line_ = kNoLine;
  }

 private:
  static constexpr uint32_t kNoLine = 0xFFFF'FFFF;

  void countDataHits(uint32_t n) {
    if (data_cache_ == nullptr) {  // every literal load reads the flash
      stats_.line_reads += n;
      return;
    }
    (data_cache_ == &icache_ ? stats_.icache_hits : stats_.dcache_hits) += n;
  }

  // One instruction line, as ST's ART serves it: the line just read when execution continues in
  // it, the prefetch buffer's line, a hit in the instruction cache, or a read that waits (and is
  // copied into the cache). Lines served by the prefetch buffer are not copied into the cache.
  uint32_t fetch(uint32_t line, bool continuing, bool* in_cache) {
    const uint32_t previous = fetch_line_;
    fetch_line_ = line;
    if (continuing && line == previous) return 0;
    if (options_.prefetch && previous != kNoLine && line == previous + 1) {
      ++stats_.line_reads;  // read ahead while the previous line executed
      return 0;
    }
    if (icache_.enabled()) {
      if (icache_.access(line)) {
        ++stats_.icache_hits;
        if (in_cache) *in_cache = true;
        return 0;
      }
      ++stats_.icache_misses;
      ++ifills_;
    }
    ++stats_.line_reads;
    return wait_states_;
  }

  // One data line: a cache hit, or a read that waits.
  uint32_t data(uint32_t line) {
    if (data_cache_ != nullptr) {
      const bool through_icache = data_cache_ == &icache_;
      if (data_cache_->access(line)) {
        ++(through_icache ? stats_.icache_hits : stats_.dcache_hits);
        return 0;
      }
      ++(through_icache ? stats_.icache_misses : stats_.dcache_misses);
      ++(through_icache ? ifills_ : dfills_);
    }
    ++stats_.line_reads;
    return wait_states_;
  }

  FlashOptions options_;
  uint32_t wait_states_;
  uint32_t sram_wait_states_;
  uint32_t shift_;
  LineCache icache_, dcache_;
  LineCache* data_cache_;
  uint64_t ifills_ = 0;  // fills of each cache: a block's lines all hit until one changes
  uint64_t dfills_ = 0;
  uint32_t fetch_line_ = kNoLine;
  uint32_t data_line_ = kNoLine;
  FlashStats stats_;
};

}  // namespace hilsim::iss
