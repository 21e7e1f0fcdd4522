#!/usr/bin/env python3
"""Expected outputs of TensorFlow Lite Micro's int16 SOFTMAX, computed independently of hilsim.

Follows TFLite Micro's softmax_common.cc (LUTPopulate<int16_t> in float32 for the exp and
1 / (1 + x) tables) and reference/softmax.h (SoftmaxInt16, LUTLookup), with float32 rounding
after every operation and libm's expf/roundf, as TFLite Micro's x86-64 build computes them.
Prints the outputs of the cases softmax_test.cpp checks.
"""
import ctypes
import math
import struct

libm = ctypes.CDLL("libm.so.6")
libm.expf.restype = ctypes.c_float
libm.expf.argtypes = [ctypes.c_float]
libm.roundf.restype = ctypes.c_float
libm.roundf.argtypes = [ctypes.c_float]


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def lut_populate(input_scale, input_zp, output_scale, output_zp, transform):
    input_min = f32(input_scale * f32(-32768 - input_zp))
    input_max = f32(input_scale * f32(32767 - input_zp))
    output_min = f32(output_scale * f32(-32768 - output_zp))
    output_max = f32(output_scale * f32(32767 - output_zp))
    steps = 512
    step = f32(f32(input_max - input_min) / steps)
    half_step = f32(step / 2)
    inv = f32(65536.0 / f32(output_max - output_min))
    rnd = libm.roundf
    clamp = lambda v: int(min(max(v, -32768.0), 32767.0))
    lut = []
    for i in range(steps):
        at = f32(input_min + f32(i * step))
        val = transform(at)
        val_mid = transform(f32(at + half_step))
        val_next = transform(f32(input_min + f32((i + 1) * step)))
        sample = rnd(f32(val * inv))
        interp = rnd(f32(f32(f32(val_next * inv) + rnd(f32(val * inv))) / 2))
        mid = rnd(f32(val_mid * inv))
        err = f32(interp - mid)
        bias = rnd(f32(err / 2))
        lut.append(clamp(f32(sample - bias)))
    lut.append(clamp(rnd(f32(transform(input_max) * inv))))
    return lut


def wrap16(v):
    v &= 0xFFFF
    return v - 0x10000 if v >= 0x8000 else v


def lookup(value, lut):
    index = 256 + (value >> 7)
    offset = value & 0x7F
    base = lut[index]
    slope = wrap16(lut[index + 1] - lut[index])
    delta = (slope * offset + 64) >> 7
    return wrap16(base + delta)


def quantize_multiplier(m):
    if m == 0:
        return 0, 0
    q, shift = math.frexp(m)
    q_fixed = int(math.floor(abs(q) * 2**31 + 0.5)) * (1 if q >= 0 else -1)  # llround
    if q_fixed == 2**31:
        q_fixed //= 2
        shift += 1
    if shift < -31:
        return 0, 0
    return q_fixed, shift


def srdhm(a, b):
    if a == b == -(2**31):
        return 2**31 - 1
    ab = a * b
    nudge = 2**30 if ab >= 0 else 1 - 2**30
    v = ab + nudge
    return abs(v) // 2**31 * (1 if v >= 0 else -1)


def rdbpot(x, e):
    mask = (1 << e) - 1
    rem = x & mask
    thr = (mask >> 1) + (1 if x < 0 else 0)
    return (x >> e) + (1 if rem > thr else 0)


def mbqm(x, m, shift):
    left = shift if shift > 0 else 0
    right = 0 if shift > 0 else -shift
    x = (x << left) & 0xFFFFFFFF
    x = x - 2**32 if x >= 2**31 else x
    return rdbpot(srdhm(x, m), right)


EXP_LUT = lut_populate(f32(10.0 / 65535.0), 32767, f32(2.0 / 65535.0), 0,
                       lambda v: libm.expf(v))
RECIP_LUT = lut_populate(f32(1.0 / 65535.0), -32768, f32(2.0 / 65535.0), 0,
                         lambda v: f32(1.0 / f32(1.0 + v)))


def softmax_int16(row, input_scale, beta):
    m, shift = quantize_multiplier(f32(input_scale) * beta / (10.0 / 65535.0))
    mx = max(row)
    exps = []
    for x in row:
        scaled = mbqm(x - mx, m, shift)
        exps.append(lookup(min(max(scaled + 32767, -32768), 32767), EXP_LUT))
    total = sum(exps)
    headroom_plus_one = 32 - total.bit_length()
    shifted = ((total << (headroom_plus_one - 1)) + (1 << 13)) >> 14
    recip = lookup(min(max(shifted - ((1 << 15) + (1 << 16)), -32768), 32767), RECIP_LUT)
    right = 31 - headroom_plus_one
    return [min(max((e * recip + (1 << (right - 1))) >> right, 0), 32767) for e in exps]


if __name__ == "__main__":
    print("exp_lut[0], [256], [511], [512]:", EXP_LUT[0], EXP_LUT[256], EXP_LUT[511], EXP_LUT[512])
    print("recip_lut[0], [256], [512]:", RECIP_LUT[0], RECIP_LUT[256], RECIP_LUT[512])
    # TFLite Micro's softmax_test.cc data at input scale 0.1 (quantized by round(v / 0.1)).
    print("1d:", softmax_int16([10, 20, 30, 40, 50], 0.1, 1.0))
    print("2d row 1:", softmax_int16([-10, -20, -30, -40, -50], 0.1, 1.0))
    row3 = [30, 60, -50, 40, -90]
    print("3d row 0:", softmax_int16(row3, 0.1, 1.0))
    print("beta 0.5, scale 0.01:", softmax_int16([-32768, -100, 0, 5000, 32767], 0.01, 0.5))
