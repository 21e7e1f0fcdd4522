#pragma once
// Everything that costs energy in a run, as counts of actions. The energy of a run is each count
// times its configured energy (energy.h), so anyone can recompute it from these counts and the
// parameters.
//
// Where each count comes from is noted beside it: "counted" names the simulator's existing
// counter, "to count" the place that must add one (docs/ENERGY.md, "Action counts").

#include <cstdint>
#include <vector>

namespace hilsim::energy {

// One accelerator core: what it is (SRAM size, processing elements) and what it did.
struct CoreActions {
  // accel.core.sram_bytes.
  uint64_t sram_bytes = 0;
  // accel.core.array_rows x accel.core.array_cols.
  uint32_t pes = 0;
  // Int8 multiply-accumulates the array performed (useful MACs, not padded PE slots). To count:
  // sc_model/src/matmul_core.cpp computeTile and matmul_core_conv.cpp computeConvStep (rows x K x
  // features per tile or step), beside CoreResult's counters.
  uint64_t macs = 0;
  // Bytes read from and written to the core's SRAM. To count in the same two files: writes are
  // the DMA loads into SRAM (input, weight tiles, bands) and the array's results; reads are the
  // array's operand reads (a weight tile once, the input once per column fold) and the DMA stores
  // out of SRAM.
  uint64_t sram_read_bytes = 0;
  uint64_t sram_write_bytes = 0;
  // Simulated time the core was busy, in picoseconds. Counted: drv::CoreCounters::busy_cycles
  // (accelerator clock, per job), summed over the run's jobs.
  uint64_t busy_ps = 0;
};

// The actions of one run (or one layer, or one invocation: the counts add up).
struct ActionCounts {
  // One entry per accelerator core; empty when the run built no accelerator (ref mode on the
  // counting clock).
  std::vector<CoreActions> cores;
  // Bytes the accelerator's DMA engine moved. Counted: DmaEngine's total_bytes_ (kept for the
  // trace; sc_model/include/hilsim/model/dma_engine.h) - to expose. Bus::bytesMoved() also
  // counts the host's bulk copies, so it is not this count.
  uint64_t dma_bytes = 0;
  // Data beats on the shared bus: each burst's ceil(bytes / min(bus.width_bytes,
  // memory.bytes_per_cycle)) and each single access's ceil(bytes / bus.width_bytes). To count in
  // sc_model/src/bus.cpp beside bytes_moved_ (timing::BusScheduler knows each burst's beats).
  uint64_t bus_beats = 0;
  // Bytes of system memory read and written (DMA loads and stores, the host's copies and weight
  // uploads). To count in Memory::access (sc_model/src/memory.cpp) for the system-memory
  // instance, by the payload's command.
  uint64_t system_memory_read_bytes = 0;
  uint64_t system_memory_write_bytes = 0;
  // Accesses to the accelerator's register block (the driver's reads and writes, MMIO under the
  // ISS). To count in the register block's b_transport (sc_model/src/accelerator.cpp).
  uint64_t register_accesses = 0;
  // Host CPU cycles active in kernels and the interpreter (CpuActivity::kKernel) and in driver
  // code (CpuActivity::kDriver, and the host's copies to and from device memory). To count in
  // HostCpu::advance / spendUntil by activity (rt/host_clock.h); on the counting clock (ref mode)
  // every cycle is a kernel cycle and totals.cycles is the count.
  uint64_t cpu_kernel_cycles = 0;
  uint64_t cpu_driver_cycles = 0;
  // Host CPU cycles asleep in WFI while the accelerator works: from HostCpu::waitForIrq's
  // wait_start_ to the interrupt. To count there (the firmware's WFI under the ISS ends in the
  // same wait).
  uint64_t cpu_sleep_cycles = 0;
  // Host flash line reads of model data (weights and constants in the model flash region, which
  // the datasheet benchmarks behind the run current do not read). To count where the ISS charges a
  // counted model-flash load (Impl::countedRead in iss/src/cpu_memory.cpp and its fast path in
  // iss/src/unicorn_fast_paths.cpp): a load whose line (the part's flash line width) differs
  // from the last line read. Instruction fetches are covered by the run current. Zero
  // where the ISS did not run or the region is not counted (no flash wait states).
  uint64_t host_flash_line_reads = 0;
  // Host SRAM loads and stores (per register of LDM/STM/PUSH/POP). To count from the ISS's block
  // timing, which already knows each block's memory accesses for the SRAM wait states.
  uint64_t host_sram_accesses = 0;
  // Simulated time of the run, in picoseconds. Counted: simulation.simulated_cycles (host clock).
  uint64_t simulated_ps = 0;
};

}  // namespace hilsim::energy
