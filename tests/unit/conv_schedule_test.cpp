// The schedules the simulated core and the planner's timeline share (a FULLY_CONNECTED job's and
// a convolution's), the rows a band reads, the address generator's windows, and a step's compute
// cycles; every expected value is worked out by hand in the comments.

#include <gtest/gtest.h>

#include "hilsim/core/im2col.h"
#include "hilsim/timing/conv_schedule.h"
#include "hilsim/timing/core_schedule.h"

namespace hilsim::timing {
namespace {

ConvCoreWork work(uint32_t bands, uint32_t tiles, bool double_buffer) {
  ConvCoreWork w;
  w.oy_count = 4 * bands;
  w.band_rows = 4;
  w.num_bands = bands;
  w.n_count = 16 * tiles;
  w.tile_n = 16;
  w.num_tiles = tiles;
  w.double_buffer = double_buffer;
  return w;
}

TEST(FcSchedule, DoubleBufferedTilesAlternateAndLoadWhileTheTileBeforeComputes) {
  const std::vector<CoreStep> s = fcSchedule(3, true);
  ASSERT_EQ(s.size(), 3u);
  // s0: the input (the only band) and tile 0, both at the start into buffer 0.
  EXPECT_TRUE(s[0].load_band && !s[0].band_early && s[0].input_buffer == 0);
  EXPECT_TRUE(s[0].load_tile && !s[0].tile_early && s[0].tile_buffer == 0);
  // s1, s2: the input stays; tiles 1 and 2 into buffers 1 and 0, early.
  for (uint32_t t = 1; t < 3; ++t) {
    EXPECT_EQ(s[t].tile, t);
    EXPECT_FALSE(s[t].load_band);
    EXPECT_EQ(s[t].input_buffer, 0u);
    EXPECT_TRUE(s[t].load_tile && s[t].tile_early);
    EXPECT_EQ(s[t].tile_buffer, t % 2);
  }
  // Every output stays in SRAM: one output buffer, no step waits for a store.
  for (const CoreStep& step : s) {
    EXPECT_EQ(step.output_buffer, 0u);
    EXPECT_EQ(step.wait_store, -1);
  }
}

TEST(FcSchedule, OneBufferLoadsEachTileAfterTheTileBefore) {
  for (const std::vector<CoreStep>& s : {fcSchedule(3, false), fcSchedule(1, true)}) {
    ASSERT_FALSE(s.empty());
    EXPECT_TRUE(s[0].load_band);
    for (const CoreStep& step : s) {
      EXPECT_TRUE(step.load_tile);
      EXPECT_FALSE(step.tile_early);
      EXPECT_EQ(step.tile_buffer, 0u);
      EXPECT_EQ(step.wait_store, -1);
    }
  }
  EXPECT_TRUE(fcSchedule(0, true).empty());
}

TEST(ConvSchedule, TwoBandsOfThreeTilesDoubleBuffered) {
  // Band-major: (b0,t0) (b0,t1) (b0,t2) (b1,t0) (b1,t1) (b1,t2). The changed operand goes to the
  // buffer the step before does not use, loaded while it computes; outputs alternate.
  const std::vector<CoreStep> s = convSchedule(work(2, 3, true));
  ASSERT_EQ(s.size(), 6u);
  // s0: both loaded at the start into buffer 0.
  EXPECT_TRUE(s[0].load_band && !s[0].band_early && s[0].input_buffer == 0);
  EXPECT_TRUE(s[0].load_tile && !s[0].tile_early && s[0].tile_buffer == 0);
  EXPECT_EQ(s[0].wait_store, -1);
  // s1: band 0 stays; tile 1 into buffer 1, early.
  EXPECT_FALSE(s[1].load_band);
  EXPECT_TRUE(s[1].load_tile && s[1].tile_early && s[1].tile_buffer == 1);
  EXPECT_EQ(s[1].output_buffer, 1u);
  // s2: tile 2 into buffer 0 (s1 used 1); output buffer 0 again: wait for s0's store.
  EXPECT_TRUE(s[2].load_tile && s[2].tile_early && s[2].tile_buffer == 0);
  EXPECT_EQ(s[2].output_buffer, 0u);
  EXPECT_EQ(s[2].wait_store, 0);
  // s3: band 1 into input buffer 1, early; tile 0 is held by neither buffer (0: t2, 1: t1) and
  // goes to buffer 1.
  EXPECT_TRUE(s[3].load_band && s[3].band_early && s[3].input_buffer == 1);
  EXPECT_TRUE(s[3].load_tile && s[3].tile_early && s[3].tile_buffer == 1);
  EXPECT_EQ(s[3].wait_store, 1);
  // s4: tile 1 into buffer 0; s5: tile 2 into buffer 1.
  EXPECT_TRUE(s[4].load_tile && s[4].tile_buffer == 0 && !s[4].load_band);
  EXPECT_TRUE(s[5].load_tile && s[5].tile_buffer == 1);
  EXPECT_EQ(s[5].wait_store, 3);
}

TEST(ConvSchedule, TwoTilesStayInTheirBuffersAcrossBands) {
  // Tiles 0 and 1 sit in buffers 0 and 1; the second band finds both there.
  const std::vector<CoreStep> s = convSchedule(work(2, 2, true));
  ASSERT_EQ(s.size(), 4u);
  EXPECT_FALSE(s[2].load_tile);
  EXPECT_EQ(s[2].tile_buffer, 0u);
  EXPECT_TRUE(s[2].load_band && s[2].band_early);
  EXPECT_FALSE(s[3].load_tile);
  EXPECT_EQ(s[3].tile_buffer, 1u);
}

TEST(ConvSchedule, OneBufferEachLoadsAfterTheStepBeforeAndWaitsForItsStore) {
  const std::vector<CoreStep> s = convSchedule(work(2, 2, false));
  const ConvBuffers b = convBuffers(work(2, 2, false));
  EXPECT_EQ(b.input + b.tile + b.output, 3u);
  ASSERT_EQ(s.size(), 4u);
  for (size_t i = 1; i < s.size(); ++i) {
    EXPECT_FALSE(s[i].band_early || s[i].tile_early);
    EXPECT_EQ(s[i].wait_store, static_cast<int64_t>(i) - 1);
  }
  // s2: band 1 and tile 0 (buffer 0 holds tile 1) both loaded again.
  EXPECT_TRUE(s[2].load_band && s[2].load_tile);
  EXPECT_FALSE(s[1].load_band);
}

TEST(ConvSchedule, BuffersAreDoubledOnlyWhereMoreThanOneIsNeeded) {
  const ConvBuffers one = convBuffers(work(1, 1, true));
  EXPECT_EQ(one.input + one.tile + one.output, 3u);
  const ConvBuffers bands = convBuffers(work(3, 1, true));
  EXPECT_EQ(bands.input, 2u);
  EXPECT_EQ(bands.tile, 1u);
  EXPECT_EQ(bands.output, 2u);
}

ConvGeometry geometry() {
  // 2 images of 8x5x3, 3x3 window, stride 1, SAME: one row and column of padding before.
  ConvGeometry g;
  g.batches = 2;
  g.in_h = 8;
  g.in_w = 5;
  g.in_c = 3;
  g.filter_h = g.filter_w = 3;
  g.pad_h = g.pad_w = 1;
  g.out_h = 8;
  g.out_w = 5;
  g.out_c = 16;
  return g;
}

TEST(ConvSchedule, BandsReadTheirWindowsRowsClippedToTheInput) {
  const ConvGeometry g = geometry();
  // Output rows 0..3: windows start at -1 and end at 3 + 1 = 4: input rows 0..4.
  EXPECT_EQ(inputRows(g, 0, 4).begin, 0u);
  EXPECT_EQ(inputRows(g, 0, 4).count, 5u);
  // Output rows 4..7: rows 3..8, clipped to 3..7: the halo rows 3 and 4 are read twice.
  EXPECT_EQ(inputRows(g, 4, 4).begin, 3u);
  EXPECT_EQ(inputRows(g, 4, 4).count, 5u);
  // A buffer for 4 output rows holds (4 - 1) x 1 + 3 = 6 rows.
  EXPECT_EQ(maxBandInputRows(g, 4), 6u);
  EXPECT_EQ(maxBandInputRows(g, 8), 8u);
  ConvCoreWork w;
  w.oy_count = 8;
  w.band_rows = 4;
  w.num_bands = 2;
  w.n_count = 16;
  w.tile_n = 16;
  w.num_tiles = 1;
  // Band 0: 2 images x 5 rows x 5 x 3 bytes = 150; its output 2 x 4 x 5 pixels x 16 = 640.
  EXPECT_EQ(bandLoadBytes(g, w, 0), 150u);
  EXPECT_EQ(stepOutputBytes(g, w, convSchedule(w)[0]), 640u);
  EXPECT_EQ(inputBufferBytes(g, w), 2u * 6 * 15);
  EXPECT_EQ(tileLoadBytes(g, w, 0, 12), 16u * (27 + 12));
  // Stride 2 on 15 rows, one row of padding: output rows 0..7 read rows -1..15, clipped 0..14.
  ConvGeometry s = g;
  s.in_h = 15;
  s.stride_h = 2;
  EXPECT_EQ(inputRows(s, 0, 8).count, 15u);
}

TEST(ConvSchedule, DepthwiseStepsAreOneGemmPerChannel) {
  ConvGeometry g = geometry();
  g.depthwise = true;
  g.out_c = 3;
  ConvCoreWork w;
  w.oy_count = 4;
  w.band_rows = 4;
  w.num_bands = 1;
  w.n_count = 3;
  w.tile_n = 3;
  w.num_tiles = 1;
  // M = 2 x 4 x 5 = 40 pixels, K = 9 taps, N = 1 per channel on 16x16 ws: one fold of
  // 2 x 16 + 16 + 40 - 2 = 86 cycles, three channels: 258.
  const ComputeCycles c =
      convStepCycles(Dataflow::kWeightStationary, {16, 16}, g, w, convSchedule(w)[0]);
  EXPECT_EQ(c.cycles, 258u);
  EXPECT_EQ(c.macs, 40u * 9 * 3);
  // As a CONV_2D over all 3 channels (K = 27, N = 3): ceil(27 / 16) = 2 folds of 86.
  g.depthwise = false;
  EXPECT_EQ(convStepCycles(Dataflow::kWeightStationary, {16, 16}, g, w, convSchedule(w)[0]).cycles,
            172u);
}

TEST(AddressGenerator, FormsWindowsPaddingWithTheZeroPoint) {
  // One 3x3x2 image, x[y][x][c] = 10y + 2x + c; 3x3 window, stride 2, one row and column of
  // padding; zero point -7. Output pixel (0, 0): window rows -1..1, columns -1..1.
  std::vector<int8_t> image;
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 3; ++x)
      for (int c = 0; c < 2; ++c) image.push_back(static_cast<int8_t>(10 * y + 2 * x + c));
  core::WindowSource s;
  s.in_h = s.in_w = 3;
  s.in_c = 2;
  s.first_row = 0;
  s.rows = 3;
  s.filter_h = s.filter_w = 3;
  s.stride_h = s.stride_w = 2;
  s.pad_h = s.pad_w = 1;
  s.out_w = 2;
  s.zero_point = -7;
  std::vector<int8_t> out(2 * 18);
  core::gatherWindows(s, image.data(), 0, 1, 0, 2, out.data());
  const std::vector<int8_t> first = {-7, -7, -7, -7, -7, -7,  // row -1: padding
                                     -7, -7, 0,  1,  2,  3,   // row 0: column -1, then 0 and 1
                                     -7, -7, 10, 11, 12, 13};
  EXPECT_EQ(std::vector<int8_t>(out.begin(), out.begin() + 18), first);
  // Pixel (0, 1): columns 1..3; column 3 is padding.
  const std::vector<int8_t> second = {-7, -7, -7, -7, -7, -7, 2,  3,  4,
                                      5,  -7, -7, 12, 13, 14, 15, -7, -7};
  EXPECT_EQ(std::vector<int8_t>(out.begin() + 18, out.end()), second);
  // One channel only (depthwise): channel 1 of pixel (0, 0).
  // The row holds both output pixels, 9 taps each.
  std::vector<int8_t> one(2 * 9);
  core::gatherWindows(s, image.data(), 0, 1, 1, 1, one.data());
  EXPECT_EQ(std::vector<int8_t>(one.begin(), one.begin() + 9),
            (std::vector<int8_t>{-7, -7, -7, -7, 1, 3, -7, 11, 13}));
  // A band holding rows 1..2 only serves output row 1 (window rows 1..3, row 3 padding).
  core::WindowSource band = s;
  band.first_row = 1;
  band.rows = 2;
  std::vector<int8_t> low(2 * 18);  // both pixels of output row 1
  core::gatherWindows(band, image.data() + 6, 1, 1, 0, 2, low.data());
  EXPECT_EQ(low[2], 10);   // row 1, column 0, channel 0
  EXPECT_EQ(low[8], 20);   // row 2, column 0
  EXPECT_EQ(low[12], -7);  // row 3: padding
}

}  // namespace
}  // namespace hilsim::timing
