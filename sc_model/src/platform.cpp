#include "hilsim/model/platform.h"

#include <cstdio>

#include "hilsim/base/log.h"
#include "hilsim/config/derived.h"
#include "hilsim/drv/regs.h"
#include "hilsim/errors.h"
#include "main_stack.h"

namespace hilsim::model {

namespace regs = drv::regs;

namespace {
constexpr int kHostInitiator = 0;
constexpr int kDmaInitiator = 1;

// SystemC's reports that it would display go to the "systemc" logger; what they make the kernel
// do (throw, stop) is left to its default handler.
void routeReport(const sc_core::sc_report& report, const sc_core::sc_actions& actions) {
  if (actions & sc_core::SC_DISPLAY) {
    static const std::shared_ptr<spdlog::logger> logger = log::get("systemc");
    const spdlog::level::level_enum level =
        report.get_severity() == sc_core::SC_INFO      ? spdlog::level::info
        : report.get_severity() == sc_core::SC_WARNING ? spdlog::level::warn
                                                       : spdlog::level::err;
    logger->log(level, "{}: {}", report.get_msg_type(), report.get_msg());
  }
  sc_core::sc_report_handler::default_handler(report, actions & ~sc_core::SC_DISPLAY);
}

std::string nanoseconds(const sc_core::sc_time& t) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.12g ns", t.to_seconds() * 1e9);
  return buf;
}

}  // namespace

Platform::Platform(sc_core::sc_module_name name, const config::HardwareConfig& config,
                   Tracer* tracer)
    : sc_module(name),
      config_(config),
      timing_(config::platformTiming(config)),
      clocks_(Clocks::fromTiming(timing_.clocks)),
      irq_("irq") {
  // SystemC's informational reports (e.g. "simulation stopped by user") are not for users.
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_handler(routeReport);
  const uint32_t channels = config.accel.dma.channels;
  bus_ = std::make_unique<Bus>("bus", timing_.bus, clocks_, tracer);
  memory_ =
      std::make_unique<Memory>("memory", config.memory.size_bytes,
                               clocks_.bus * static_cast<double>(config.memory.latency_cycles));
  accel_ = std::make_unique<Accelerator>("accel", timing_, config.sim.transaction_bytes, clocks_,
                                         *bus_, tracer, 0, config.memory.size_bytes);
  host_ = std::make_unique<HostCpu>("cpu", timing_, config.sim, clocks_, *bus_, channels, tracer);

  // Initiators: 0 host CPU, 1 DMA engine. Targets: 0 memory, 1 registers, 2 + i core i's SRAM.
  host_->socket.bind(bus_->target_socket);
  accel_->dma().socket.bind(bus_->target_socket);
  bus_->nameInitiator(kHostInitiator, "cpu");
  bus_->nameInitiator(kDmaInitiator, "dma");
  bus_->initiator_socket.bind(memory_->socket);
  bus_->initiator_socket.bind(accel_->reg_socket);
  bus_->map(0, 0, config.memory.size_bytes, "memory");
  bus_->map(1, regs::kRegisterBase, regs::kBlockBytes, "registers");
  for (uint32_t c = 0; c < accel_->numCores(); ++c) {
    bus_->initiator_socket.bind(accel_->sram(c).socket);
    bus_->map(2 + c, regs::kSramBase + c * regs::kSramWindow, config.accel.core.sram_bytes,
              "sram" + std::to_string(c));
  }
  accel_->irq(irq_);
  host_->irq(irq_);

  switch (config.sim.fault) {
    case config::Fault::kBusError:
      bus_->injectBusError(config.sim.fault_at_job);
      break;
    case config::Fault::kDmaUnmapped:
      accel_->dma().injectUnmapped(config.sim.fault_at_job);
      break;
    case config::Fault::kIrqLost:
      accel_->injectIrqLost(config.sim.fault_at_job);
      break;
    case config::Fault::kNone:
      break;
  }
  SC_HAS_PROCESS(Platform);
  SC_THREAD(watchdog);
}

Platform::~Platform() = default;

void Platform::watchdog() {
  const sc_core::sc_time period = clocks_.cpu * static_cast<double>(config_.sim.watchdog_cycles);
  uint64_t last_marker = UINT64_MAX;
  while (!host_->finished()) {
    wait(period);
    if (host_->finished()) return;
    if (host_->busyUntil() > sc_core::sc_time_stamp()) {  // computing, not hung
      last_marker = UINT64_MAX;
      continue;
    }
    // Progress: the host CPU did something, or the bus carried something.
    const uint64_t marker = host_->progress() + bus_->bytesMoved() +
                            static_cast<uint64_t>(bus_->lastActivity().value());
    if (marker == last_marker) {
      const std::string waiting = host_->waitingFor();
      hang_ = "watchdog: no progress for " + std::to_string(config_.sim.watchdog_cycles) +
              " host cycles at " + nanoseconds(sc_core::sc_time_stamp()) +
              (waiting.empty() ? "" : " while the host CPU waits for the " + waiting) +
              "; last transaction: " + bus_->lastTransaction().describe();
      sc_core::sc_stop();
      return;
    }
    last_marker = marker;
  }
}

uint64_t Platform::nowPs() const {
  const sc_core::sc_time t = host_->onCpuThread() ? host_->localTime() : sc_core::sc_time_stamp();
  return static_cast<uint64_t>(t.to_seconds() * 1e12 + 0.5);
}

TransactionRecord Platform::jobFailureTransaction() const {
  const TransactionRecord error = bus_->lastErrorTransaction();
  if (error.valid && error.time >= accel_->lastJobStart()) return error;
  const TransactionRecord dma = bus_->lastTransactionFrom(kDmaInitiator);
  if (dma.valid) return dma;
  return bus_->lastTransaction();
}

void runOnPlatform(Platform& platform, std::function<void()> program) {
  platform.host().setProgram(std::move(program));
  try {
    sc_core::sc_start();
  } catch (const sc_core::sc_report& report) {
    restoreMainStackBounds();
    throw SimulationError(std::string("SystemC: ") + report.what() +
                          "; last transaction: " + platform.bus().lastTransaction().describe());
  }
  restoreMainStackBounds();
  if (!platform.hang().empty()) throw SimulationError(platform.hang());
  if (!platform.host().finished())
    throw SimulationError("simulation stalled at " + nanoseconds(sc_core::sc_time_stamp()) +
                          "; last transaction: " + platform.bus().lastTransaction().describe());
  if (platform.host().failure()) {
    try {
      std::rethrow_exception(platform.host().failure());
    } catch (const SimulationError& e) {
      throw SimulationError(std::string(e.what()) +
                            "; last transaction: " + platform.bus().lastTransaction().describe());
    }
  }
}

}  // namespace hilsim::model
