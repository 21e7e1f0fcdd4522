/* A CoreMark-class integer workload for `hilsim cpu-run`: the four kinds of work CoreMark times
   (linked-list search and reordering, a small integer matrix product, a character state machine,
   and a CRC over the results), written for this example. `workload_mix(iterations)` returns a CRC
   of every result, the same on every core, so that a run checks itself. Cycles per iteration
   compare cores per MHz on the same code. */

#include <stdint.h>

#define LIST_NODES 32
#define MATRIX_N 8
#define TEXT_BYTES 96

struct node {
  struct node* next;
  int16_t key;
  int16_t value;
};

static struct node nodes[LIST_NODES];
static int16_t mat_a[MATRIX_N * MATRIX_N];
static int16_t mat_b[MATRIX_N * MATRIX_N];
static int32_t mat_c[MATRIX_N * MATRIX_N];
static char text[TEXT_BYTES];

static uint16_t crc16_byte(uint8_t data, uint16_t crc) {
  for (int i = 0; i < 8; ++i) {
    const uint16_t mix = (crc ^ data) & 1u;
    crc >>= 1;
    data >>= 1;
    if (mix) crc ^= 0xA001u;
  }
  return crc;
}

static uint16_t crc16_word(uint32_t value, uint16_t crc) {
  crc = crc16_byte((uint8_t)value, crc);
  crc = crc16_byte((uint8_t)(value >> 8), crc);
  crc = crc16_byte((uint8_t)(value >> 16), crc);
  return crc16_byte((uint8_t)(value >> 24), crc);
}

static struct node* list_build(uint32_t seed) {
  for (int i = 0; i < LIST_NODES; ++i) {
    seed = seed * 1103515245u + 12345u;
    nodes[i].key = (int16_t)((seed >> 16) & 0x3f);
    nodes[i].value = (int16_t)i;
    nodes[i].next = i + 1 < LIST_NODES ? &nodes[i + 1] : 0;
  }
  return &nodes[0];
}

static struct node* list_reverse(struct node* head) {
  struct node* prev = 0;
  while (head) {
    struct node* next = head->next;
    head->next = prev;
    prev = head;
    head = next;
  }
  return prev;
}

static int32_t list_find(const struct node* head, int16_t key) {
  int32_t position = 0;
  for (; head; head = head->next, ++position)
    if (head->key == key) return position;
  return -1;
}

/* Moves the nodes whose key has bit `bit` set to the front, keeping the order. */
static struct node* list_partition(struct node* head, int bit) {
  struct node *set_head = 0, *set_tail = 0, *clear_head = 0, *clear_tail = 0;
  for (; head; head = head->next) {
    if ((head->key >> bit) & 1) {
      if (set_tail)
        set_tail->next = head;
      else
        set_head = head;
      set_tail = head;
    } else {
      if (clear_tail)
        clear_tail->next = head;
      else
        clear_head = head;
      clear_tail = head;
    }
  }
  if (clear_tail) clear_tail->next = 0;
  if (!set_tail) return clear_head;
  set_tail->next = clear_head;
  return set_head;
}

static uint16_t list_work(uint32_t seed, uint16_t crc) {
  struct node* head = list_build(seed);
  for (int16_t key = 0; key < 16; ++key) crc = crc16_word((uint32_t)list_find(head, key), crc);
  head = list_reverse(head);
  head = list_partition(head, (int)(seed & 3));
  for (const struct node* n = head; n; n = n->next) crc = crc16_byte((uint8_t)n->value, crc);
  return crc;
}

static uint16_t matrix_work(uint32_t seed, uint16_t crc) {
  for (int i = 0; i < MATRIX_N * MATRIX_N; ++i) {
    seed = seed * 1664525u + 1013904223u;
    mat_a[i] = (int16_t)((int32_t)(seed >> 20) - 2048);
    mat_b[i] = (int16_t)((int32_t)((seed >> 8) & 0xfff) - 2048);
  }
  for (int r = 0; r < MATRIX_N; ++r)
    for (int c = 0; c < MATRIX_N; ++c) {
      int32_t sum = 0;
      for (int k = 0; k < MATRIX_N; ++k) sum += mat_a[r * MATRIX_N + k] * mat_b[k * MATRIX_N + c];
      mat_c[r * MATRIX_N + c] = sum;
    }
  int32_t total = 0;
  for (int i = 0; i < MATRIX_N * MATRIX_N; ++i) total += mat_c[i] >> 4;
  return crc16_word((uint32_t)total, crc);
}

/* Classifies comma-separated fields as integers, signed integers, hex numbers or invalid. */
enum field_state { START, INTEGER, SIGNED, HEX_PREFIX, HEX, INVALID };

static uint16_t state_work(uint32_t seed, uint16_t crc) {
  static const char alphabet[] = "0123456789+-x,abcfz";
  for (int i = 0; i < TEXT_BYTES; ++i) {
    seed = seed * 22695477u + 1u;
    text[i] = alphabet[(seed >> 16) % (sizeof alphabet - 1)];
  }
  /* Each count starts at 1 (an all-zero array would be cleared by a call to memset, which a
     program linked without a C library does not have). */
  uint32_t counts[6];
  for (int i = 0; i < 6; ++i) counts[i] = 1;
  enum field_state state = START;
  for (int i = 0; i < TEXT_BYTES; ++i) {
    const char ch = text[i];
    if (ch == ',') {
      counts[state] += 1;
      state = START;
      continue;
    }
    switch (state) {
      case START:
        state = ch == '0'                  ? HEX_PREFIX
                : (ch >= '1' && ch <= '9') ? INTEGER
                : (ch == '+' || ch == '-') ? SIGNED
                                           : INVALID;
        break;
      case HEX_PREFIX:
        state = ch == 'x' ? HEX : (ch >= '0' && ch <= '9') ? INTEGER : INVALID;
        break;
      case INTEGER:
      case SIGNED:
        state = (ch >= '0' && ch <= '9') ? INTEGER : INVALID;
        break;
      case HEX:
        state = ((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f')) ? HEX : INVALID;
        break;
      case INVALID:
        break;
    }
  }
  counts[state] += 1;
  for (int i = 0; i < 6; ++i) crc = crc16_word(counts[i], crc);
  return crc;
}

int32_t workload_mix(int32_t iterations) {
  uint16_t crc = 0;
  for (int32_t i = 0; i < iterations; ++i) {
    const uint32_t seed = 0x5eedu + (uint32_t)i * 7919u;
    crc = list_work(seed, crc);
    crc = matrix_work(seed, crc);
    crc = state_work(seed, crc);
  }
  return crc;
}
