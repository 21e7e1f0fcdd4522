/* An example for `hilsim cpu-run`: plain C with initialized data, zeroed data, integer and
   floating-point results. Build and run it as README.md "cpu-run" shows. */

#include <stdint.h>

static const int16_t samples[16] = {3, -1, 4, -1, 5, -9, 2, 6, -5, 3, 5, -8, 9, -7, 9, 3};
static int32_t weights[4] = {1, 2, 3, 4}; /* .data */
static int32_t histogram[4];              /* .bss */

/* The dot product of the first n samples with the weights repeated: an integer result (r0, a0). */
int32_t weighted_sum(int32_t n) {
  int32_t sum = 0;
  for (int32_t i = 0; i < n && i < 16; ++i) sum += samples[i] * weights[i % 4];
  return sum;
}

/* The mean of the squares of the first n samples: a float result (s0 with the hard-float ABI,
   r0 or a0 otherwise). */
float mean_square(int32_t n) {
  if (n <= 0 || n > 16) return 0.0f;
  float sum = 0.0f;
  for (int32_t i = 0; i < n; ++i) sum += (float)samples[i] * (float)samples[i];
  return sum / (float)n;
}

/* Counts the samples per quarter of [-10, 10): uses zeroed data; returns the largest count. */
int32_t busiest_quarter(void) {
  for (int32_t i = 0; i < 16; ++i) {
    int32_t q = (samples[i] + 10) / 5;
    histogram[q > 3 ? 3 : q] += 1;
  }
  int32_t best = 0;
  for (int32_t q = 0; q < 4; ++q)
    if (histogram[q] > best) best = histogram[q];
  return best;
}
