#pragma once
// The flash memory system's state: the line the fetch last read, the prefetched line, and the
// instruction and data caches (iss/README.md, "Flash memory system"). Private to the library.
//
// Instruction fetches are checked a block at a time: each block knows the lines it spans, and a
// block all of whose lines hit is marked with its caches' epochs, and the sets it relies on are
// pinned; running it again before a line fills a pinned set costs a comparison or two. Other
// blocks are walked; with the prefetch only their first line needs a check (every later line
// follows the one just read). A cache of one pair of lines (the Cortex-M0+ parts') leaves no
// mark standing for long (every miss fills the one set all marks rely on); behind a prefetch and
// without a data cache its blocks are walked directly instead, and most of a walk is known from
// the block and the one before it (edge()): the block hook keeps it with the pair of blocks and
// then only looks the first line up in the cache when the block was branched to.

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
        pairs_(ways == 2 ? lines / 2 : 0, kEmptyPair),
        pins_(lines == 0 ? 0 : lines / ways, kUnpinned) {}

  bool enabled() const { return !tags_.empty(); }
  // Whether the cache is one set of two ways.
  bool onePair() const { return pairs_.size() == 1; }

  // lookup() of a cache of one pair when `look` holds, else nothing; without branches (whether
  // a line hits follows the guest's data-dependent branches).
  bool lookupPairIf(uint32_t line, bool look) {
    const uint64_t pair = pairs_[0];
    const uint32_t mru = uint32_t(pair >> 32), lru = uint32_t(pair);
    const bool hit = (mru == line) | (lru == line);
    const uint64_t used = uint64_t(line) << 32 | (mru == line ? lru : mru);
    pairs_[0] = look ? used : pair;
    return look & hit;
  }

  // True on a hit; on a miss the line replaces the set's least recently used one, and a set
  // pinned at `epoch` (a marked block relies on a line in it) advances the epoch.
  bool access(uint32_t line, uint64_t& epoch) {
    const bool hit = lookup(line);
    if (!hit && pins_[line & set_mask_] == epoch) ++epoch;
    return hit;
  }

  // Marks the set of `line` as one that blocks marked at `epoch` rely on.
  void pin(uint32_t line, uint64_t epoch) { pins_[line & set_mask_] = epoch; }

  // True on a hit; on a miss the line replaces the set's least recently used one.
  bool lookup(uint32_t line) {
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

  // True when the line is held, without counting as a use.
  bool contains(uint32_t line) const {
    if (tags_.empty()) return false;
    if (ways_ == 2) {
      const uint64_t pair = pairs_[line & set_mask_];
      return uint32_t(pair >> 32) == line || uint32_t(pair) == line;
    }
    const uint32_t first = (line & set_mask_) * ways_;
    for (uint32_t w = first; w < first + ways_; ++w)
      if (tags_[w] == line) return true;
    return false;
  }

  void clear() {
    std::fill(tags_.begin(), tags_.end(), kEmpty);
    std::fill(stamps_.begin(), stamps_.end(), 0);
    std::fill(pairs_.begin(), pairs_.end(), kEmptyPair);
    std::fill(pins_.begin(), pins_.end(), kUnpinned);
  }

 private:
  static constexpr uint32_t kEmpty = 0xFFFF'FFFF;
  static constexpr uint64_t kEmptyPair = ~uint64_t{0};
  static constexpr uint64_t kUnpinned = ~uint64_t{0};
  uint32_t ways_ = 1;
  uint32_t set_mask_ = 0;
  std::vector<uint32_t> tags_;
  std::vector<uint64_t> stamps_;  // last use of each way (more than 2 ways)
  std::vector<uint64_t> pairs_;   // 2 ways: each set's lines, most recently used first
  std::vector<uint64_t> pins_;    // per set: the epoch at which a marked block relied on it
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
        data_cache_(o.data_through_icache ? &icache_ : (o.dcache_lines > 0 ? &dcache_ : nullptr)),
        walk_directly_(o.prefetch && icache_.onePair() && data_cache_ == nullptr) {}

  const FlashOptions& options() const { return options_; }

  // What a block's fetch costs after a given block, as far as it is known in advance.
  enum Edge : uint8_t {
    kNoFetch,      // the block uses no flash
    kWalk,         // blockCycles()
    kFixed,        // walkDirectly(), nothing to look up: the cycles and line reads are the edge's
    kFixedAfter,   // the same, when the line last read is the previous block's last
    kLookUpAfter,  // the same and the first line looked up in the cache
  };

  // How block `b`'s fetch following block `p` is charged (kFixed...: `cycles` and `line_reads`
  // get its fixed part, the line last read afterwards is `last_line`).
  Edge edge(const BlockTiming& p, const BlockTiming& b, bool sequential, uint32_t& cycles,
            uint32_t& line_reads, uint32_t& last_line) const {
    if (!b.uses_flash) return kNoFetch;
    if (!walk_directly_) return kWalk;
    cycles = b.literal_count * wait_states_;
    line_reads = b.literal_count;
    if (b.fetch_lines == 0) return kFixed;
    if (p.fetch_lines == 0) return kWalk;  // the line last read is older than `p`
    const uint32_t previous = p.fetch_first_line + p.fetch_lines - 1, first = b.fetch_first_line;
    last_line = first + b.fetch_lines - 1;
    line_reads += b.fetch_lines - 1;
    if (sequential && first == previous) return kFixedAfter;
    if (first == previous + 1) {
      ++line_reads;
      return kFixedAfter;
    }
    return kLookUpAfter;
  }

  // walkDirectly() of an edge kFixedAfter or kLookUpAfter from `p` to `to`: adds the wait
  // cycles beyond the edge's to `cycles`; false (and nothing done) when the line last read is
  // not p's last.
  bool followEdge(const BlockTiming& p, const BlockTiming& to, Edge e, uint32_t line_reads,
                  uint32_t last_line, uint64_t& cycles) {
    if (fetch_line_ != p.fetch_first_line + p.fetch_lines - 1) return false;
    stats_.line_reads += line_reads;
    fetch_line_ = last_line;
    if (e == kLookUpAfter) {
      if (icache_.lookupPairIf(to.fetch_first_line, true)) {
        ++stats_.icache_hits;
      } else {
        ++stats_.icache_misses;
        ++stats_.line_reads;
        cycles += wait_states_;
      }
    }
    return true;
  }

  // walkDirectly() of an edge kFixed.
  void followFixed(uint32_t line_reads) { stats_.line_reads += line_reads; }

  uint32_t lineOf(uint32_t address) const { return address >> shift_; }
  const FlashStats& stats() const { return stats_; }

  // The wait cycles of fetching block `b` (its lines and its literal loads); `sequential`: the
  // block follows the previous one without a branch.
  uint32_t blockCycles(const BlockTiming& b, bool sequential) {
    if (walk_directly_) return walkDirectly(b, sequential);
    if (b.flash_epoch == ifills_ && (b.literal_count == 0 || b.flash_data_epoch == dfills_)) {
      // The block's first line hit the cache when it last ran, its other lines came from the
      // prefetch or hit too, and no line filled a set it relies on since: the same again.
      const uint32_t rest = b.fetch_lines - 1;
      stats_.icache_hits += 1 + (options_.prefetch ? 0 : rest);
      stats_.line_reads += options_.prefetch ? rest : 0;
      fetch_line_ = b.fetch_first_line + rest;
      if (b.literal_count == 0) return 0;
      countDataHits(b.literal_count);
      return data_cache_ == nullptr ? b.literal_count * wait_states_ : 0;  // uncached literals wait
    }
    return checkBlock(b, sequential);
  }

  // A data load of model flash: its wait cycles beyond the SRAM access its block charged.
  int64_t modelLoadCycles(uint32_t address) {
    const uint32_t line = address >> shift_;
    if (data_cache_ == nullptr) {  // every load reads the flash
      data_line_ = line;
      ++stats_.line_reads;
      ++stats_.model_line_reads;
      return int64_t(wait_states_) - int64_t(sram_wait_states_);
    }
    if (line == data_line_) {
      countDataHits(1);
      return -int64_t(sram_wait_states_);
    }
    data_line_ = line;
    return cachedModelLoadCycles(line);
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

  // checkBlock() and fetch() without marks or branches, for a prefetch, a cache of one pair of
  // lines and no data cache: every literal load reads the flash, whatever its line.
  uint32_t walkDirectly(const BlockTiming& b, bool sequential) {
    if (b.fetch_lines == 0) {
      stats_.line_reads += b.literal_count;
      return b.literal_count * wait_states_;
    }
    const uint32_t first = b.fetch_first_line, previous = fetch_line_;
    const bool same = sequential & (first == previous);
    const bool next = !same & (previous != kNoLine) & (first == previous + 1);
    const bool looked_up = !same & !next;
    const bool hit = icache_.lookupPairIf(first, looked_up);
    const bool read = looked_up & !hit;
    stats_.icache_hits += hit;
    stats_.icache_misses += read;
    stats_.line_reads += uint32_t(next) + uint32_t(read) + (b.fetch_lines - 1) + b.literal_count;
    fetch_line_ = first + b.fetch_lines - 1;
    return (uint32_t(read) + b.literal_count) * wait_states_;
  }

  // The block's lines one by one (kept out of line, so that the common case stays small).
  __attribute__((noinline)) uint32_t checkBlock(const BlockTiming& b, bool sequential) {
    const uint64_t misses = stats_.icache_misses + stats_.dcache_misses;
    uint32_t wait = 0;
    bool first_in_cache = false;
    if (b.fetch_lines != 0) {
      wait += fetch(b.fetch_first_line, sequential, &first_in_cache);
      if (options_.prefetch) {
        // Each later line follows the one just read: the prefetch read it ahead, whatever the
        // caches hold (a block of many short lines costs one step, not one per line).
        stats_.line_reads += b.fetch_lines - 1;
        fetch_line_ = b.fetch_first_line + b.fetch_lines - 1;
      } else {
        for (uint32_t k = 1; k < b.fetch_lines; ++k)
          wait += fetch(b.fetch_first_line + k, true, nullptr);
      }
    }
    for (uint32_t line : b.literal_lines) wait += data<false>(line);
    if (first_in_cache && stats_.icache_misses + stats_.dcache_misses == misses) {
      // Every line hit: mark the block, and pin the sets it relies on, so that a fill into one
      // of them (and only that) ends the mark.
      icache_.pin(b.fetch_first_line, ifills_);
      if (!options_.prefetch)
        for (uint32_t k = 1; k < b.fetch_lines; ++k) icache_.pin(b.fetch_first_line + k, ifills_);
      if (data_cache_ != nullptr)
        for (uint32_t line : b.literal_lines)
          data_cache_->pin(line, data_cache_ == &icache_ ? ifills_ : dfills_);
      b.flash_epoch = ifills_;
      b.flash_data_epoch = dfills_;
    }
    return wait;
  }

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
    // A first line served without the cache may still be in it: the block then hits however it
    // is entered.
    if (continuing && line == previous) {
      if (in_cache) *in_cache = icache_.contains(line);
      return 0;
    }
    if (options_.prefetch && previous != kNoLine && line == previous + 1) {
      ++stats_.line_reads;  // read ahead while the previous line executed
      if (in_cache) *in_cache = icache_.contains(line);
      return 0;
    }
    if (icache_.enabled()) {
      if (icache_.access(line, ifills_)) {
        ++stats_.icache_hits;
        if (in_cache) *in_cache = true;
        return 0;
      }
      ++stats_.icache_misses;
    }
    ++stats_.line_reads;
    return wait_states_;
  }

  // modelLoadCycles() of a line other than the last one, through the data cache (kept out of
  // line, so that the common cases stay small in the engine's load helpers).
  [[gnu::noinline]] int64_t cachedModelLoadCycles(uint32_t line) {
    return int64_t(data<true>(line)) - int64_t(sram_wait_states_);
  }

  // One data line: a cache hit, or a read that waits; `kModel`: a load of the model flash.
  template <bool kModel>
  uint32_t data(uint32_t line) {
    if (data_cache_ != nullptr) {
      const bool through_icache = data_cache_ == &icache_;
      if (data_cache_->access(line, through_icache ? ifills_ : dfills_)) {
        ++(through_icache ? stats_.icache_hits : stats_.dcache_hits);
        return 0;
      }
      ++(through_icache ? stats_.icache_misses : stats_.dcache_misses);
    }
    ++stats_.line_reads;
    if constexpr (kModel) ++stats_.model_line_reads;
    return wait_states_;
  }

  FlashOptions options_;
  uint32_t wait_states_;
  uint32_t sram_wait_states_;
  uint32_t shift_;
  LineCache icache_, dcache_;
  LineCache* data_cache_;
  const bool walk_directly_;  // blockCycles() is walkDirectly()
  // Epochs of the blocks' marks, per cache: they advance when a line fills a set that a marked
  // block relies on (a pinned set), or when the caches are emptied.
  uint64_t ifills_ = 0;
  uint64_t dfills_ = 0;
  uint32_t fetch_line_ = kNoLine;
  uint32_t data_line_ = kNoLine;
  FlashStats stats_;
};

}  // namespace hilsim::iss
