#pragma once
// The accelerator's programming interface: register offsets, fields, reset values and access
// types, and the in-memory job descriptor. The one source of truth: the simulated register block
// and the driver's device layer both include this file. All registers are 32 bits, little endian.

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace hilsim::drv::regs {

enum class Access : uint8_t { kReadOnly, kReadWrite, kWriteOnly, kWriteOneToClear };

struct Register {
  uint32_t offset;
  const char* name;
  Access access;
  uint32_t reset;
  const char* doc;
};

constexpr uint32_t kMagic = 0x4853494D;    // "HSIM"
constexpr uint32_t kVersion = 0x00010001;  // 1.1: convolution jobs (kDescriptorVersionConv)
constexpr uint32_t kBlockBytes = 0x1000;   // size of the register block

// Global registers.
constexpr uint32_t ID = 0x000;             // RO: kMagic
constexpr uint32_t VERSION = 0x004;        // RO: major << 16 | minor
constexpr uint32_t CONFIG = 0x008;         // RO: see CONFIG_* fields
constexpr uint32_t ARRAY = 0x00C;          // RO: rows [15:0], cols [31:16]
constexpr uint32_t SRAM_BYTES_LO = 0x010;  // RO: local SRAM bytes per core
constexpr uint32_t SRAM_BYTES_HI = 0x014;
constexpr uint32_t MEM_BASE_LO = 0x018;  // RO: device-visible system memory window
constexpr uint32_t MEM_BASE_HI = 0x01C;
constexpr uint32_t MEM_SIZE_LO = 0x020;
constexpr uint32_t MEM_SIZE_HI = 0x024;
constexpr uint32_t CTRL = 0x040;          // WO: CTRL_START, CTRL_SOFT_RESET
constexpr uint32_t STATUS = 0x044;        // RO: STATUS_* fields
constexpr uint32_t IRQ_STATUS = 0x048;    // W1C: IRQ_DONE, IRQ_ERROR
constexpr uint32_t IRQ_MASK = 0x04C;      // RW: enabled interrupt sources
constexpr uint32_t JOB_TABLE_LO = 0x050;  // RW: device address of the job descriptor table
constexpr uint32_t JOB_TABLE_HI = 0x054;
constexpr uint32_t CORE_MASK_LO = 0x058;   // RW: cores taking part in the next job (0..31)
constexpr uint32_t CORE_MASK_HI = 0x05C;   // RW: cores 32..63
constexpr uint32_t JOB_COUNT = 0x060;      // RO: jobs finished since reset
constexpr uint32_t ERROR_ADDR_LO = 0x068;  // RO: address of the transaction that failed
constexpr uint32_t ERROR_ADDR_HI = 0x06C;

// Per-core banks of performance counters (accelerator clock cycles of the last job).
constexpr uint32_t CORE_BANK_BASE = 0x100;
constexpr uint32_t CORE_BANK_STRIDE = 0x20;
constexpr uint32_t CORE_STATUS = 0x00;             // RO: CORE_BUSY, CORE_ERROR, error code [15:8]
constexpr uint32_t CORE_BUSY_CYCLES = 0x04;        // RO: start to done
constexpr uint32_t CORE_STARTUP_CYCLES = 0x08;     // RO: start-up and descriptor fetch
constexpr uint32_t CORE_COMPUTE_CYCLES = 0x0C;     // RO: array busy
constexpr uint32_t CORE_LOAD_WAIT_CYCLES = 0x10;   // RO: stalled waiting for input/weights
constexpr uint32_t CORE_STORE_WAIT_CYCLES = 0x14;  // RO: waiting for the last outputs
constexpr uint32_t CORE_TILES = 0x18;              // RO: tiles computed
constexpr uint32_t CORE_STALL_CYCLES = 0x1C;       // RO: bus cycles its transfers lost to others
constexpr uint32_t kMaxCores = 64;

constexpr uint32_t coreReg(uint32_t core, uint32_t reg) {
  return CORE_BANK_BASE + core * CORE_BANK_STRIDE + reg;
}

// CONFIG fields.
constexpr uint32_t CONFIG_CORES_SHIFT = 0, CONFIG_CORES_MASK = 0xFF;        // num_cores
constexpr uint32_t CONFIG_CHANNELS_SHIFT = 8, CONFIG_CHANNELS_MASK = 0xFF;  // DMA channels
constexpr uint32_t CONFIG_DATAFLOW_SHIFT = 16, CONFIG_DATAFLOW_MASK = 0x3;  // 0 ws 1 os 2 is
constexpr uint32_t CONFIG_DOUBLE_BUFFER = 1u << 18;

// CTRL bits.
constexpr uint32_t CTRL_START = 1u << 0;
constexpr uint32_t CTRL_SOFT_RESET = 1u << 1;

// STATUS fields.
constexpr uint32_t STATUS_BUSY = 1u << 0;
constexpr uint32_t STATUS_DONE = 1u << 1;
constexpr uint32_t STATUS_ERROR = 1u << 2;
constexpr uint32_t STATUS_ERROR_CODE_SHIFT = 8, STATUS_ERROR_CODE_MASK = 0xFF;
constexpr uint32_t STATUS_ERROR_CORE_SHIFT = 16, STATUS_ERROR_CORE_MASK = 0xFF;

// IRQ_STATUS / IRQ_MASK bits.
constexpr uint32_t IRQ_DONE = 1u << 0;
constexpr uint32_t IRQ_ERROR = 1u << 1;

// CORE_STATUS bits.
constexpr uint32_t CORE_BUSY = 1u << 0;
constexpr uint32_t CORE_ERROR = 1u << 1;

// Error codes (STATUS and CORE_STATUS bits [15:8]).
enum class ErrorCode : uint8_t {
  kNone = 0,
  kBadDescriptor = 1,   // wrong magic or version, or inconsistent sizes
  kSramOverflow = 2,    // a buffer does not fit the core's SRAM
  kBusError = 3,        // a transfer got an error response
  kAddressError = 4,    // a transfer addressed nothing
  kStartWhileBusy = 5,  // CTRL_START written while a job runs
};

constexpr Register kRegisters[] = {
    {ID, "ID", Access::kReadOnly, kMagic, "identification magic 'HSIM'"},
    {VERSION, "VERSION", Access::kReadOnly, kVersion, "interface version, major << 16 | minor"},
    {CONFIG, "CONFIG", Access::kReadOnly, 0,
     "cores [7:0], DMA channels [15:8], dataflow [17:16], double buffering [18]"},
    {ARRAY, "ARRAY", Access::kReadOnly, 0, "systolic array rows [15:0] and columns [31:16]"},
    {SRAM_BYTES_LO, "SRAM_BYTES_LO", Access::kReadOnly, 0, "local SRAM bytes per core, low word"},
    {SRAM_BYTES_HI, "SRAM_BYTES_HI", Access::kReadOnly, 0, "local SRAM bytes per core, high word"},
    {MEM_BASE_LO, "MEM_BASE_LO", Access::kReadOnly, 0, "device-visible memory base, low word"},
    {MEM_BASE_HI, "MEM_BASE_HI", Access::kReadOnly, 0, "device-visible memory base, high word"},
    {MEM_SIZE_LO, "MEM_SIZE_LO", Access::kReadOnly, 0, "device-visible memory size, low word"},
    {MEM_SIZE_HI, "MEM_SIZE_HI", Access::kReadOnly, 0, "device-visible memory size, high word"},
    {CTRL, "CTRL", Access::kWriteOnly, 0,
     "START [0] runs the job described by JOB_TABLE on CORE_MASK; SOFT_RESET [1]"},
    {STATUS, "STATUS", Access::kReadOnly, 0,
     "BUSY [0], DONE [1], ERROR [2], error code [15:8], failing core [23:16]"},
    {IRQ_STATUS, "IRQ_STATUS", Access::kWriteOneToClear, 0,
     "DONE [0], ERROR [1]; the IRQ line is (IRQ_STATUS & IRQ_MASK) != 0"},
    {IRQ_MASK, "IRQ_MASK", Access::kReadWrite, IRQ_DONE | IRQ_ERROR, "enabled interrupt sources"},
    {JOB_TABLE_LO, "JOB_TABLE_LO", Access::kReadWrite, 0, "job descriptor table address, low word"},
    {JOB_TABLE_HI, "JOB_TABLE_HI", Access::kReadWrite, 0,
     "job descriptor table address, high word"},
    {CORE_MASK_LO, "CORE_MASK_LO", Access::kReadWrite, 0,
     "cores 0..31 taking part in the next job"},
    {CORE_MASK_HI, "CORE_MASK_HI", Access::kReadWrite, 0,
     "cores 32..63 taking part in the next job"},
    {JOB_COUNT, "JOB_COUNT", Access::kReadOnly, 0, "jobs finished since reset"},
    {ERROR_ADDR_LO, "ERROR_ADDR_LO", Access::kReadOnly, 0,
     "address of the failed transaction, low word"},
    {ERROR_ADDR_HI, "ERROR_ADDR_HI", Access::kReadOnly, 0,
     "address of the failed transaction, high word"},
};

// The registers of each core's bank (offsets within the bank).
constexpr Register kCoreRegisters[] = {
    {CORE_STATUS, "CORE_STATUS", Access::kReadOnly, 0, "BUSY [0], ERROR [1], error code [15:8]"},
    {CORE_BUSY_CYCLES, "CORE_BUSY_CYCLES", Access::kReadOnly, 0, "start to done of the last job"},
    {CORE_STARTUP_CYCLES, "CORE_STARTUP_CYCLES", Access::kReadOnly, 0,
     "start-up and descriptor fetch"},
    {CORE_COMPUTE_CYCLES, "CORE_COMPUTE_CYCLES", Access::kReadOnly, 0, "array busy"},
    {CORE_LOAD_WAIT_CYCLES, "CORE_LOAD_WAIT_CYCLES", Access::kReadOnly, 0,
     "stalled for input or weights"},
    {CORE_STORE_WAIT_CYCLES, "CORE_STORE_WAIT_CYCLES", Access::kReadOnly, 0,
     "waiting for the last outputs"},
    {CORE_TILES, "CORE_TILES", Access::kReadOnly, 0, "tiles computed"},
    {CORE_STALL_CYCLES, "CORE_STALL_CYCLES", Access::kReadOnly, 0,
     "bus cycles its transfers lost to others"},
};

// The register at `offset` of a block with `num_cores` cores (a core bank register gives its
// kCoreRegisters entry), or nullptr if no register is there.
constexpr const Register* findRegister(uint32_t offset, uint32_t num_cores) {
  if (offset >= CORE_BANK_BASE && offset < CORE_BANK_BASE + num_cores * CORE_BANK_STRIDE) {
    const uint32_t within = (offset - CORE_BANK_BASE) % CORE_BANK_STRIDE;
    for (const Register& r : kCoreRegisters)
      if (r.offset == within) return &r;
    return nullptr;
  }
  for (const Register& r : kRegisters)
    if (r.offset == offset) return &r;
  return nullptr;
}
constexpr bool readable(const Register& r) {
  return r.access != Access::kWriteOnly;
}
constexpr bool writable(const Register& r) {
  return r.access != Access::kReadOnly;
}

// The job descriptor: one per core, kDescriptorBytes apart in the table at JOB_TABLE, indexed by
// core number. A core computes output features [n_begin, n_begin + n_count) of a layer with
// `rows` input rows of `k` int8 values, in num_tiles tiles of at most tile_n features.
//
// Tile t is a block at tiles_addr + t * tile_stride: the tile's weights (n_t x k int8, row
// major) followed by n_t parameter records {int32 bias, int32 multiplier, int32 shift}. The core
// loads a block into SRAM at sram_tile[t % 2] (or sram_tile[0] without double buffering),
// computes acc = sum_d w * (x - input_zero_point) + bias, requantizes with TFLite's
// MultiplyByQuantizedMultiplier, adds output_zero_point, clamps to [act_min, act_max] and writes
// int8 results to SRAM at sram_output (rows x n_count), then to memory at output_addr (row r at
// output_addr + r * output_row_stride).
//
// The descriptor's version word says its kind: kDescriptorVersion (1) is the GEMM job above,
// kDescriptorVersionConv (2) a convolution job (ConvJobDescriptor below). Both are
// kDescriptorBytes long and start with the magic and the version.
constexpr uint32_t kDescriptorMagic = 0x444A5348;  // "HSJD"
constexpr uint32_t kDescriptorVersion = 1;
constexpr uint32_t kDescriptorVersionConv = 2;
constexpr uint32_t kDescriptorBytes = 128;
constexpr uint32_t kParamBytes = 12;
constexpr uint32_t DESC_FLAG_DOUBLE_BUFFER = 1u << 0;
constexpr uint32_t DESC_FLAG_DEPTHWISE = 1u << 1;  // convolution jobs only

struct JobDescriptor {
  uint32_t magic = kDescriptorMagic;
  uint32_t version = kDescriptorVersion;
  uint32_t rows = 0;
  uint32_t k = 0;
  uint32_t n_count = 0;
  uint32_t tile_n = 0;
  uint32_t num_tiles = 0;
  uint32_t flags = 0;
  uint64_t input_addr = 0;
  uint64_t tiles_addr = 0;
  uint64_t tile_stride = 0;
  uint64_t output_addr = 0;
  uint32_t output_row_stride = 0;
  int32_t input_zero_point = 0;
  int32_t output_zero_point = 0;
  int32_t act_min = -128;
  int32_t act_max = 127;
  uint32_t sram_input = 0;
  uint32_t sram_tile[2] = {0, 0};
  uint32_t sram_output = 0;
};

namespace detail {
template <typename T>
inline void put(uint8_t* out, size_t offset, T value) {
  std::memcpy(out + offset, &value, sizeof(T));
}
template <typename T>
inline T get(const uint8_t* in, size_t offset) {
  T value;
  std::memcpy(&value, in + offset, sizeof(T));
  return value;
}
}  // namespace detail

// Byte offsets of the descriptor fields (little-endian host assumed, as on every target here).
inline void encodeDescriptor(const JobDescriptor& d, uint8_t out[kDescriptorBytes]) {
  using detail::put;
  std::memset(out, 0, kDescriptorBytes);
  put(out, 0x00, d.magic);
  put(out, 0x04, d.version);
  put(out, 0x08, d.rows);
  put(out, 0x0C, d.k);
  put(out, 0x10, d.n_count);
  put(out, 0x14, d.tile_n);
  put(out, 0x18, d.num_tiles);
  put(out, 0x1C, d.flags);
  put(out, 0x20, d.input_addr);
  put(out, 0x28, d.tiles_addr);
  put(out, 0x30, d.tile_stride);
  put(out, 0x38, d.output_addr);
  put(out, 0x40, d.output_row_stride);
  put(out, 0x44, d.input_zero_point);
  put(out, 0x48, d.output_zero_point);
  put(out, 0x4C, d.act_min);
  put(out, 0x50, d.act_max);
  put(out, 0x54, d.sram_input);
  put(out, 0x58, d.sram_tile[0]);
  put(out, 0x5C, d.sram_tile[1]);
  put(out, 0x60, d.sram_output);
}

inline JobDescriptor decodeDescriptor(const uint8_t in[kDescriptorBytes]) {
  using detail::get;
  JobDescriptor d;
  d.magic = get<uint32_t>(in, 0x00);
  d.version = get<uint32_t>(in, 0x04);
  d.rows = get<uint32_t>(in, 0x08);
  d.k = get<uint32_t>(in, 0x0C);
  d.n_count = get<uint32_t>(in, 0x10);
  d.tile_n = get<uint32_t>(in, 0x14);
  d.num_tiles = get<uint32_t>(in, 0x18);
  d.flags = get<uint32_t>(in, 0x1C);
  d.input_addr = get<uint64_t>(in, 0x20);
  d.tiles_addr = get<uint64_t>(in, 0x28);
  d.tile_stride = get<uint64_t>(in, 0x30);
  d.output_addr = get<uint64_t>(in, 0x38);
  d.output_row_stride = get<uint32_t>(in, 0x40);
  d.input_zero_point = get<int32_t>(in, 0x44);
  d.output_zero_point = get<int32_t>(in, 0x48);
  d.act_min = get<int32_t>(in, 0x4C);
  d.act_max = get<int32_t>(in, 0x50);
  d.sram_input = get<uint32_t>(in, 0x54);
  d.sram_tile[0] = get<uint32_t>(in, 0x58);
  d.sram_tile[1] = get<uint32_t>(in, 0x5C);
  d.sram_output = get<uint32_t>(in, 0x60);
  return d;
}

// A convolution job (version kDescriptorVersionConv; docs/CONVOLUTION.md). The layer is NHWC
// int8: input [batches, in_h, in_w, in_c] at input_addr, output [batches, out_h, out_w, out_c] at
// output_addr - n_begin (output_addr points at the core's first channel), with TensorFlow Lite's
// stride, dilation and padding (pad_h, pad_w: rows and columns before the input). The core
// computes output rows [oy_begin, oy_begin + oy_count) of every image for output channels
// [n_begin, n_begin + n_count), in num_bands bands of band_rows output rows and num_tiles tiles of
// tile_n channels (blocks as in the GEMM job: weights tile_n x K, K = filter_h x filter_w x in_c,
// then the parameter records), steps running band-major. For a band it loads the whole input rows
// its windows read into sram_input[i]; its address generator forms each output pixel's window
// from them, padding with input_zero_point, and streams it into the array. Output tiles go to
// sram_output[i], then to memory. With DESC_FLAG_DEPTHWISE, output channel c reads input channel
// c / depth_multiplier only (K = filter_h x filter_w) and the weights are laid out per channel.
struct ConvJobDescriptor {
  uint32_t magic = kDescriptorMagic;
  uint32_t version = kDescriptorVersionConv;
  uint16_t flags = 0;
  uint16_t depth_multiplier = 1;
  uint16_t batches = 0, in_h = 0, in_w = 0, in_c = 0;
  uint16_t filter_h = 0, filter_w = 0, stride_h = 1, stride_w = 1;
  uint16_t dilation_h = 1, dilation_w = 1, pad_h = 0, pad_w = 0;
  uint16_t out_h = 0, out_w = 0;
  uint32_t out_c = 0;
  uint16_t oy_begin = 0, oy_count = 0, band_rows = 0, num_bands = 0;
  uint32_t n_count = 0;
  uint32_t tile_n = 0;
  uint32_t num_tiles = 0;
  uint64_t input_addr = 0;
  uint64_t tiles_addr = 0;
  uint64_t output_addr = 0;
  uint32_t tile_stride = 0;
  int16_t input_zero_point = 0, output_zero_point = 0, act_min = -128, act_max = 127;
  uint32_t sram_input[2] = {0, 0};
  uint32_t sram_tile[2] = {0, 0};
  uint32_t sram_output[2] = {0, 0};
  uint32_t n_begin = 0;
};

// The version word of an encoded descriptor (its kind).
inline uint32_t descriptorVersion(const uint8_t in[kDescriptorBytes]) {
  return detail::get<uint32_t>(in, 0x04);
}

inline void encodeConvDescriptor(const ConvJobDescriptor& d, uint8_t out[kDescriptorBytes]) {
  using detail::put;
  std::memset(out, 0, kDescriptorBytes);
  put(out, 0x00, d.magic);
  put(out, 0x04, d.version);
  put(out, 0x08, d.flags);
  put(out, 0x0A, d.depth_multiplier);
  const uint16_t dims[14] = {d.batches,  d.in_h,     d.in_w,     d.in_c,       d.filter_h,
                             d.filter_w, d.stride_h, d.stride_w, d.dilation_h, d.dilation_w,
                             d.pad_h,    d.pad_w,    d.out_h,    d.out_w};
  for (size_t i = 0; i < 14; ++i) put(out, 0x0C + 2 * i, dims[i]);
  put(out, 0x28, d.out_c);
  put(out, 0x2C, d.oy_begin);
  put(out, 0x2E, d.oy_count);
  put(out, 0x30, d.band_rows);
  put(out, 0x32, d.num_bands);
  put(out, 0x34, d.n_count);
  put(out, 0x38, d.tile_n);
  put(out, 0x3C, d.num_tiles);
  put(out, 0x40, d.input_addr);
  put(out, 0x48, d.tiles_addr);
  put(out, 0x50, d.output_addr);
  put(out, 0x58, d.tile_stride);
  put(out, 0x5C, d.input_zero_point);
  put(out, 0x5E, d.output_zero_point);
  put(out, 0x60, d.act_min);
  put(out, 0x62, d.act_max);
  for (size_t i = 0; i < 2; ++i) {
    put(out, 0x64 + 4 * i, d.sram_input[i]);
    put(out, 0x6C + 4 * i, d.sram_tile[i]);
    put(out, 0x74 + 4 * i, d.sram_output[i]);
  }
  put(out, 0x7C, d.n_begin);
}

inline ConvJobDescriptor decodeConvDescriptor(const uint8_t in[kDescriptorBytes]) {
  using detail::get;
  ConvJobDescriptor d;
  d.magic = get<uint32_t>(in, 0x00);
  d.version = get<uint32_t>(in, 0x04);
  d.flags = get<uint16_t>(in, 0x08);
  d.depth_multiplier = get<uint16_t>(in, 0x0A);
  uint16_t* dims[14] = {&d.batches,  &d.in_h,     &d.in_w,     &d.in_c,       &d.filter_h,
                        &d.filter_w, &d.stride_h, &d.stride_w, &d.dilation_h, &d.dilation_w,
                        &d.pad_h,    &d.pad_w,    &d.out_h,    &d.out_w};
  for (size_t i = 0; i < 14; ++i) *dims[i] = get<uint16_t>(in, 0x0C + 2 * i);
  d.out_c = get<uint32_t>(in, 0x28);
  d.oy_begin = get<uint16_t>(in, 0x2C);
  d.oy_count = get<uint16_t>(in, 0x2E);
  d.band_rows = get<uint16_t>(in, 0x30);
  d.num_bands = get<uint16_t>(in, 0x32);
  d.n_count = get<uint32_t>(in, 0x34);
  d.tile_n = get<uint32_t>(in, 0x38);
  d.num_tiles = get<uint32_t>(in, 0x3C);
  d.input_addr = get<uint64_t>(in, 0x40);
  d.tiles_addr = get<uint64_t>(in, 0x48);
  d.output_addr = get<uint64_t>(in, 0x50);
  d.tile_stride = get<uint32_t>(in, 0x58);
  d.input_zero_point = get<int16_t>(in, 0x5C);
  d.output_zero_point = get<int16_t>(in, 0x5E);
  d.act_min = get<int16_t>(in, 0x60);
  d.act_max = get<int16_t>(in, 0x62);
  for (size_t i = 0; i < 2; ++i) {
    d.sram_input[i] = get<uint32_t>(in, 0x64 + 4 * i);
    d.sram_tile[i] = get<uint32_t>(in, 0x6C + 4 * i);
    d.sram_output[i] = get<uint32_t>(in, 0x74 + 4 * i);
  }
  d.n_begin = get<uint32_t>(in, 0x7C);
  return d;
}

// Bytes of tile `t`'s block (the last tile may be narrower).
inline uint64_t tileFeatures(const JobDescriptor& d, uint32_t t) {
  const uint64_t before = uint64_t{t} * d.tile_n;
  return before >= d.n_count ? 0 : (d.n_count - before < d.tile_n ? d.n_count - before : d.tile_n);
}
inline uint64_t tileBlockBytes(const JobDescriptor& d, uint32_t t) {
  return tileFeatures(d, t) * (uint64_t{d.k} + kParamBytes);
}

inline const char* errorName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kNone:
      return "none";
    case ErrorCode::kBadDescriptor:
      return "bad job descriptor";
    case ErrorCode::kSramOverflow:
      return "buffer outside the core's SRAM";
    case ErrorCode::kBusError:
      return "bus error response";
    case ErrorCode::kAddressError:
      return "transfer to an unmapped address";
    case ErrorCode::kStartWhileBusy:
      return "START while a job runs";
  }
  return "unknown error";
}

// Where the platform maps things (the driver learns the memory window from MEM_BASE/MEM_SIZE).
constexpr uint64_t kRegisterBase = 0x1'0000'0000ull;
constexpr uint64_t kSramBase = 0x2'0000'0000ull;  // core i's SRAM at kSramBase + i * kSramWindow
constexpr uint64_t kSramWindow = 0x4000'0000ull;  // 1 GiB per core

}  // namespace hilsim::drv::regs
