#include "hilsim/model/dma_engine.h"

#include <algorithm>

#include "hilsim/base/log.h"
#include "hilsim/model/bulk_transfer.h"

namespace hilsim::model {

namespace {
// Where an injected dma_unmapped fault points: far above everything the platform maps.
constexpr uint64_t kUnmappedAddress = 0xDEAD'0000'0000ull;
// Loads into SRAM at least this large are snapshots rather than copies (see memory.h).
constexpr uint64_t kSnapshotBytes = 2048;
}  // namespace

DmaEngine::DmaEngine(sc_core::sc_module_name name, const timing::AccelTiming& timing,
                     uint64_t transaction_bytes, const Clocks& clocks, Bus& bus, Tracer* tracer)
    : sc_module(name),
      socket("socket"),
      clocks_(clocks),
      setup_(clocks.accel * static_cast<double>(timing.dma_setup_cycles)),
      transaction_bytes_(transaction_bytes),
      bus_(bus),
      channel_(timing.dma_channels, nullptr),
      tracer_(tracer) {
  if (tracer_) {
    for (uint32_t c = 0; c < channel_.size(); ++c) {
      const std::string scope = "dma.ch" + std::to_string(c);
      sig_busy_.push_back(tracer_->add(scope, "busy", 1));
      sig_bytes_.push_back(tracer_->add(scope, "bytes", 32));
    }
    sig_total_ = tracer_->add("dma", "bytes_total", 64);
  }
  SC_HAS_PROCESS(DmaEngine);
  SC_METHOD(dispatch);
  sensitive << kick_;
  dont_initialize();
}

void DmaEngine::submit(DmaRequest* request) {
  request->done = false;
  request->error = false;
  request->error_code = drv::regs::ErrorCode::kNone;
  request->stall_cycles = 0;
  // Admitted one delta later, together with everything else submitted at this time.
  if (arrivals_.empty()) kick_.notify(sc_core::SC_ZERO_TIME);
  arrivals_.push_back(request);
}

void DmaEngine::reset() {
  queue_.clear();
  queue_head_ = 0;
  arrivals_.clear();
}

void DmaEngine::admitArrivals() {
  // Stable insertion sort by requester: a handful of requests, and no temporary buffer.
  for (size_t i = 1; i < arrivals_.size(); ++i) {
    DmaRequest* r = arrivals_[i];
    size_t j = i;
    for (; j > 0 && arrivals_[j - 1]->requester > r->requester; --j)
      arrivals_[j] = arrivals_[j - 1];
    arrivals_[j] = r;
  }
  if (queue_head_ > 0 && queue_head_ * 2 >= queue_.size()) {  // reuse the storage from its start
    queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(queue_head_));
    queue_head_ = 0;
  }
  queue_.insert(queue_.end(), arrivals_.begin(), arrivals_.end());
  arrivals_.clear();
}

void DmaEngine::startQueued() {
  for (uint32_t ch = 0; ch < channel_.size() && queue_head_ < queue_.size(); ++ch) {
    if (channel_[ch]) continue;
    start(ch, queue_[queue_head_++]);
  }
}

void DmaEngine::dispatch() {
  // Failed requests end after their set-up time.
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  while (!failed_.empty() && failed_.begin()->first <= now) {
    const uint32_t ch = failed_.begin()->second;
    failed_.erase(failed_.begin());
    finish(ch);
  }
  admitArrivals();
  startQueued();
  if (!failed_.empty()) next_trigger(failed_.begin()->first - now, kick_);
}

bool DmaEngine::moveData(DmaRequest& r, sc_core::sc_time* latency) {
  // One payload, reused: constructing one per transfer would allocate its extension array.
  tlm::tlm_generic_payload& trans = payload_;
  BulkTransfer bulk;
  bulk.job = r.job;
  trans.set_extension(&bulk);
  SnapshotInto snapshot;
  bool first = true;
  const uint64_t chunk = transaction_bytes_ ? transaction_bytes_ : r.row_bytes;
  for (uint32_t index = 0; index < r.planes * r.rows; ++index) {
    const uint64_t plane = index / r.rows, row = index % r.rows;
    const uint64_t mem_row = plane * r.mem_plane_stride + row * r.mem_stride;
    const uint64_t local_row = plane * r.local_plane_stride + row * r.local_stride;
    for (uint64_t done = 0; done < r.row_bytes; done += chunk) {
      const uint64_t len = std::min(chunk, r.row_bytes - done);
      uint64_t addr = r.mem_addr + mem_row + done;
      if (unmapped_job_ >= 0 && r.job == static_cast<uint32_t>(unmapped_job_)) {
        unmapped_job_ = -1;
        addr |= kUnmappedAddress;
      }
      trans.set_command(r.direction == DmaRequest::Direction::kToLocal ? tlm::TLM_READ_COMMAND
                                                                       : tlm::TLM_WRITE_COMMAND);
      trans.set_address(addr);
      uint8_t* local = nullptr;
      if (r.local_memory) {
        const uint64_t offset = r.local_offset + local_row + done;
        local = r.direction == DmaRequest::Direction::kToLocal
                    ? r.local_memory->overwrite(offset, len)
                    : const_cast<uint8_t*>(r.local_memory->view(offset, len));
      } else {
        local = r.local + local_row + done;
      }
      trans.set_data_ptr(local);
      trans.set_data_length(static_cast<unsigned int>(len));
      trans.set_streaming_width(static_cast<unsigned int>(len));
      trans.set_byte_enable_ptr(nullptr);
      trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      const bool snap = r.direction == DmaRequest::Direction::kToLocal && r.local_memory &&
                        r.rows == 1 && r.planes == 1 && len >= kSnapshotBytes;
      if (snap) {
        snapshot.destination = r.local_memory;
        snapshot.offset = r.local_offset + done;
        trans.set_extension(&snapshot);
      }
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      socket->b_transport(trans, delay);
      if (snap) trans.clear_extension(&snapshot);
      if (!trans.is_response_ok()) {
        r.error = true;
        r.error_code = trans.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE
                           ? drv::regs::ErrorCode::kAddressError
                           : drv::regs::ErrorCode::kBusError;
        r.error_addr = addr;
        trans.clear_extension(&bulk);
        return false;
      }
      // Rows and chunks are pipelined: the transfer pays the access latency once.
      if (first) *latency = delay;
      first = false;
    }
  }
  trans.clear_extension(&bulk);
  return true;
}

void DmaEngine::start(uint32_t ch, DmaRequest* r) {
  static const std::shared_ptr<spdlog::logger> logger = log::get("dma");
  // Per transfer: compiled out of release builds.
  SPDLOG_LOGGER_TRACE(logger, "channel {}: {} bytes {} 0x{:x} for core {}", ch, r->bytes(),
                      r->direction == DmaRequest::Direction::kToLocal ? "from" : "to", r->mem_addr,
                      r->requester);
  channel_[ch] = r;
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const sc_core::sc_time begin = std::max(now, r->not_before);
  if (tracer_) {
    tracer_->set(sig_busy_[ch], 1, begin);
    tracer_->set(sig_bytes_[ch], r->bytes(), begin);
  }
  sc_core::sc_time latency = sc_core::SC_ZERO_TIME;
  if (!moveData(*r, &latency)) {
    failed_.emplace(begin + setup_, ch);
    kick_.notify(begin + setup_ - now);
    return;
  }
  bus_.requestTransfer(ch, r->bytes(), begin + setup_ + latency, this);
}

void DmaEngine::transferDone(uint32_t port, const timing::Completion& completion) {
  channel_[port]->stall_cycles = completion.stall_cycles;
  total_bytes_ += channel_[port]->bytes();
  if (tracer_) tracer_->set(sig_total_, total_bytes_);
  finish(port);
  // A channel is free: start the next queued request now (the bus is arbitrating this cycle).
  startQueued();
}

void DmaEngine::finish(uint32_t ch) {
  DmaRequest* r = channel_[ch];
  channel_[ch] = nullptr;
  r->done = true;
  r->done_time = sc_core::sc_time_stamp();
  if (tracer_) {
    tracer_->set(sig_busy_[ch], 0);
    tracer_->set(sig_bytes_[ch], 0);
  }
  if (r->sink) r->sink->dmaDone(*r);
}

}  // namespace hilsim::model
