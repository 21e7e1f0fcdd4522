#include "hilsim/model/host_cpu.h"

#include <algorithm>
#include <cstdio>

#include "hilsim/drv/regs.h"
#include "hilsim/errors.h"
#include "hilsim/model/bulk_transfer.h"
#include "hilsim/timing/link_timing.h"

namespace hilsim::model {

HostCpu::HostCpu(sc_core::sc_module_name name, const timing::PlatformTiming& timing,
                 const config::SimConfig& sim, const Clocks& clocks, Bus& bus, uint32_t bus_port,
                 Tracer* tracer)
    : sc_module(name),
      socket("socket"),
      irq("irq"),
      clocks_(clocks),
      bus_(bus),
      bus_port_(bus_port),
      reg_software_cycles_(timing.host.driver_reg_cycles),
      transaction_bytes_(sim.transaction_bytes),
      tracer_(tracer) {
  tlm_utils::tlm_quantumkeeper::set_global_quantum(
      sc_core::sc_time(static_cast<double>(sim.quantum_ns), sc_core::SC_NS));
  qk_.reset();
  if (tracer_) {
    sig_state_ = tracer_->add("cpu", "state", 2);
    sig_layer_ = tracer_->add("", "layer", 32, std::nullopt);
    sig_invocation_ = tracer_->add("", "invocation", 32, std::nullopt);
    char clock[64];
    std::snprintf(clock, sizeof clock, "hilsim cpu_clock_mhz %.6g", timing.clocks.cpu_mhz);
    tracer_->addComment(clock);
  }
  SC_HAS_PROCESS(HostCpu);
  SC_THREAD(main);
}

void HostCpu::main() {
  thread_ = sc_core::sc_get_current_process_handle();
  try {
    if (program_) program_();
  } catch (...) {
    failure_ = std::current_exception();
  }
  sync();
  finished_ = true;
  sc_core::sc_stop();
}

void HostCpu::sync() {
  // The CPU is busy until its local time: a long kernel is progress, not a hang.
  busy_until_ = localTime();
  qk_.sync();
}

bool HostCpu::onCpuThread() const {
  return thread_.valid() && sc_core::sc_get_current_process_handle() == thread_;
}

uint64_t HostCpu::now() const {
  return localTime().value() / clocks_.cpu.value();
}

void HostCpu::setActivity(rt::CpuActivity activity, const sc_core::sc_time& at) {
  if (tracer_) tracer_->set(sig_state_, static_cast<uint64_t>(activity), at);
}

void HostCpu::traceLayer(std::optional<int> layer) {
  if (tracer_)
    tracer_->set(sig_layer_,
                 layer ? std::optional<uint64_t>(static_cast<uint64_t>(*layer)) : std::nullopt,
                 localTime());
}

void HostCpu::traceInvocation(uint32_t invocation) {
  if (tracer_) tracer_->set(sig_invocation_, invocation, localTime());
}

void HostCpu::advance(uint64_t cycles, rt::CpuActivity activity) {
  if (cycles == 0) return;
  ++progress_;
  setActivity(activity, localTime());
  qk_.inc(clocks_.cpu * static_cast<double>(cycles));
  setActivity(rt::CpuActivity::kIdle, localTime());
  if (qk_.need_sync()) sync();
}

void HostCpu::registerAccess(tlm::tlm_command command, uint32_t offset, uint32_t* value) {
  ++progress_;
  setActivity(rt::CpuActivity::kDriver, localTime());
  qk_.inc(clocks_.cpu * static_cast<double>(reg_software_cycles_));
  // One payload, reused: constructing one per access would allocate its extension array.
  tlm::tlm_generic_payload& trans = payload_;
  trans.set_command(command);
  trans.set_address(drv::regs::kRegisterBase + offset);
  trans.set_data_ptr(reinterpret_cast<unsigned char*>(value));
  trans.set_data_length(4);
  trans.set_streaming_width(4);
  trans.set_byte_enable_ptr(nullptr);
  trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = qk_.get_local_time();
  socket->b_transport(trans, delay);
  qk_.set(delay);
  // The CPU resumes on its own clock edge.
  const sc_core::sc_time local = localTime();
  qk_.inc(nextEdge(local, clocks_.cpu) - local);
  setActivity(rt::CpuActivity::kIdle, localTime());
  if (!trans.is_response_ok())
    throw SimulationError("register access at offset 0x" +
                          [&] {
                            char buf[16];
                            std::snprintf(buf, sizeof buf, "%x", offset);
                            return std::string(buf);
                          }() +
                          " failed; last transaction: " + bus_.lastTransaction().describe());
  if (qk_.need_sync()) sync();
}

uint32_t HostCpu::read32(uint32_t offset) {
  uint32_t value = 0;
  registerAccess(tlm::TLM_READ_COMMAND, offset, &value);
  return value;
}

void HostCpu::write32(uint32_t offset, uint32_t value) {
  registerAccess(tlm::TLM_WRITE_COMMAND, offset, &value);
}

bool HostCpu::bulk(tlm::tlm_command command, uint64_t device_addr, uint8_t* host, size_t bytes) {
  if (bytes == 0) return true;
  ++progress_;
  setActivity(rt::CpuActivity::kDriver, localTime());
  // The transactions happen at the CPU's local time (LT annotation), and the transfer becomes
  // eligible for the bus then; the CPU waits once, for its completion.
  tlm::tlm_generic_payload& trans = payload_;
  BulkTransfer marker;
  marker.from_host = true;
  trans.set_extension(&marker);
  sc_core::sc_time eligible = localTime();
  const uint64_t chunk = transaction_bytes_ ? transaction_bytes_ : bytes;
  bool ok = true;
  for (uint64_t done = 0; done < bytes && ok; done += chunk) {
    const uint64_t len = std::min<uint64_t>(chunk, bytes - done);
    trans.set_command(command);
    trans.set_address(device_addr + done);
    trans.set_data_ptr(host + done);
    trans.set_data_length(static_cast<unsigned int>(len));
    trans.set_streaming_width(static_cast<unsigned int>(len));
    trans.set_byte_enable_ptr(nullptr);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = qk_.get_local_time();
    socket->b_transport(trans, delay);
    ok = trans.is_response_ok();
    if (done == 0) eligible = sc_core::sc_time_stamp() + delay;  // local time + access latency
  }
  trans.clear_extension(&marker);
  if (!ok) return false;
  copy_pending_ = true;
  waiting_for_ = "copy";
  wait_start_ = localTime();
  bus_.requestTransfer(bus_port_, bytes, eligible, this);
  while (copy_pending_) wait(copy_done_);
  waiting_for_ = "";
  resumeAt(sc_core::sc_time_stamp());
  setActivity(rt::CpuActivity::kIdle, localTime());
  return true;
}

void HostCpu::armDeadline(const sc_core::sc_time& deadline) {
  // Deadlines only grow, so one pending notification at the earliest is enough; re-arming for
  // every wait would leave a cancelled timeout in the kernel's queue each time.
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  if (deadline_armed_ && deadline_armed_at_ > now && deadline_armed_at_ <= deadline) return;
  deadline_armed_ = true;
  deadline_armed_at_ = deadline;
  deadline_event_.notify(deadline - now);
}

void HostCpu::resumeAt(const sc_core::sc_time& earliest) {
  // After a wait, the CPU's time is the later of where it was and when it woke, on its own clock
  // edge: it cannot act on an event before it has finished what it was doing.
  const sc_core::sc_time resume = sc_core::sc_time::from_value(
      timing::hostWakePs(earliest.value(), wait_start_.value(), clocks_.cpu.value()));
  qk_.set(resume - sc_core::sc_time_stamp());
}

void HostCpu::transferDone(uint32_t, const timing::Completion&) {
  copy_pending_ = false;
  copy_done_.notify();
}

bool HostCpu::copyToDevice(uint64_t device_addr, const void* src, size_t bytes) {
  return bulk(tlm::TLM_WRITE_COMMAND, device_addr,
              const_cast<uint8_t*>(static_cast<const uint8_t*>(src)), bytes);
}

bool HostCpu::copyFromDevice(void* dst, uint64_t device_addr, size_t bytes) {
  return bulk(tlm::TLM_READ_COMMAND, device_addr, static_cast<uint8_t*>(dst), bytes);
}

bool HostCpu::waitForIrq(uint64_t timeout_cycles) {
  ++progress_;
  const sc_core::sc_time local = localTime();
  setActivity(rt::CpuActivity::kIdle, local);
  wait_start_ = local;
  if (!irq.read()) {
    // Wait without syncing first: the line may rise before the CPU's local time (it then takes
    // the interrupt at its local time), or later (then when it rises).
    waiting_for_ = "interrupt";
    const sc_core::sc_time deadline = local + clocks_.cpu * static_cast<double>(timeout_cycles);
    while (!irq.read() && sc_core::sc_time_stamp() < deadline) {
      armDeadline(deadline);
      wait(irq.value_changed_event() | deadline_event_);
    }
    waiting_for_ = "";
  }
  resumeAt(sc_core::sc_time_stamp());
  sleep_ps_ += (localTime() - local).value();
  wait_start_ = sc_core::SC_ZERO_TIME;
  return irq.read();
}

bool HostCpu::firmwareAccess(tlm::tlm_command command, uint64_t address, uint8_t* data,
                             unsigned bytes, const sc_core::sc_time& at, sc_core::sc_time* done) {
  ++progress_;
  tlm::tlm_generic_payload& trans = payload_;
  trans.set_command(command);
  trans.set_address(address);
  trans.set_data_ptr(data);
  trans.set_data_length(bytes);
  trans.set_streaming_width(bytes);
  trans.set_byte_enable_ptr(nullptr);
  trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = at - sc_core::sc_time_stamp();
  socket->b_transport(trans, delay);
  *done = sc_core::sc_time_stamp() + delay;
  return trans.is_response_ok();
}

void HostCpu::spendUntil(const sc_core::sc_time& until, rt::CpuActivity activity) {
  const sc_core::sc_time local = localTime();
  if (until <= local) return;
  const uint64_t period = clocks_.cpu.value();
  advance((until.value() - local.value() + period - 1) / period, activity);
}

uint32_t HostCpu::debugRead32(uint32_t offset) {
  uint32_t value = 0;
  debugReadBlock(offset, &value, 1);
  return value;
}

void HostCpu::debugReadBlock(uint32_t offset, uint32_t* words, size_t count) {
  tlm::tlm_generic_payload& trans = payload_;
  trans.set_command(tlm::TLM_READ_COMMAND);
  trans.set_address(drv::regs::kRegisterBase + offset);
  trans.set_data_ptr(reinterpret_cast<unsigned char*>(words));
  trans.set_data_length(static_cast<unsigned int>(4 * count));
  trans.set_streaming_width(static_cast<unsigned int>(4 * count));
  if (socket->transport_dbg(trans) != 4 * count) std::fill(words, words + count, 0u);
}

}  // namespace hilsim::model
