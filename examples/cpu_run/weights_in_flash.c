/* An example for `hilsim cpu-run`: a table of constants in .rodata, which the linker script puts
   in flash beside the code. Summing it reads flash as a kernel reads weights: with flash wait
   states every line the flash memory system does not hold costs them. */

#include <stdint.h>

#define W4(i) (i), (i) + 1, (i) + 2, (i) + 3
#define W16(i) W4(i), W4((i) + 4), W4((i) + 8), W4((i) + 12)
#define W64(i) W16(i), W16((i) + 16), W16((i) + 32), W16((i) + 48)
#define W256(i) W64(i), W64((i) + 64), W64((i) + 128), W64((i) + 192)
#define W1024(i) W256(i), W256((i) + 256), W256((i) + 512), W256((i) + 768)

/* 16 KB, page aligned: four whole flash pages of constants and nothing else. */
static const int32_t table[4096] __attribute__((aligned(4096))) = {W1024(0), W1024(1024),
                                                                   W1024(2048), W1024(3072)};

/* The sum of the first n entries (n at most 4096): n (n - 1) / 2. */
int32_t sum_table(int32_t n) {
  int32_t sum = 0;
  for (int32_t i = 0; i < n && i < 4096; ++i) sum += table[i];
  return sum;
}
