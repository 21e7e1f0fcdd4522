@ A Cortex-M4F function with FPv4-SP instructions (Tag_FP_arch set): code the cortex-m0plus
@ preset cannot run.
    .syntax unified
    .thumb
    .fpu fpv4-sp-d16
    .text

    .global add_floats
    .type add_floats, %function
    .thumb_func
add_floats:
    vmov s0, r0
    vmov s1, r1
    vadd.f32 s0, s0, s1
    vmov r0, s0
    bx lr
