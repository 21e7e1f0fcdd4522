@ Timing probes for Cortex-M4F and Cortex-M33 (ARMv7-M / ARMv8-M Mainline Thumb-2). Each function
@ is called by `hilsim cpu-run` with the return sentinel in LR; tests/iss/iss_e2e_test.cpp states
@ the cycles each core's rules (iss/README.md) imply for each.
    .syntax unified
    .thumb
    .text

    .macro func name
    .global \name
    .type \name, %function
    .thumb_func
\name:
    .endm

    .align 2
func alu_straight
    adds r0, r0, r1
    eors r0, r0, r1
    lsls r0, r0, #2
    orrs r0, r0, r1
    subs r0, r0, #3
    mov r2, r0
    ands r2, r2, r1
    bics r2, r2, r1
    mvns r3, r2
    cmp r3, r2
    bx lr

@ r0 = the SRAM table (0x20000000)
func loads_unpipelined
    ldr r1, [r0]
    adds r2, r2, #1
    ldr r3, [r0, #4]
    adds r2, r2, #1
    ldr r1, [r0, #8]
    bx lr

func loads_pipelined
    ldr r1, [r0]
    ldr r2, [r0, #4]
    ldr r3, [r0, #8]
    str r1, [r0, #12]
    bx lr

@ The second load's base is the first load's result: no pipelining.
func load_dependent_address
    ldr r1, [r0]
    ldr r2, [r1]
    bx lr

@ The load's base comes from the instruction just before it: one cycle of address interlock.
func load_after_address_update
    adds r0, r0, #4
    ldr r1, [r0]
    bx lr

func stores
    str r1, [r0]
    str r1, [r0, #4]
    strb r1, [r0, #8]
    bx lr

func load_store_multiple
    ldm r0, {r1-r4}
    stm r0, {r1-r4}
    push {r4-r7}
    pop {r4-r7}
    bx lr

func pop_pc
    push {r4, lr}
    pop {r4, pc}

func branch_not_taken
    movs r1, #0
    cmp r1, #1
    beq 1f
    adds r0, r0, #1
    adds r0, r0, #1
1:  bx lr

func branch_taken
    movs r1, #1
    cmp r1, #1
    beq 1f
    adds r0, r0, #1
    adds r0, r0, #1
1:  bx lr

@ The target is a 32-bit instruction at an address that is not a multiple of 4.
    .align 2
func branch_misaligned_target
    b.n 2f
    nop
    nop
2:  add.w r0, r0, #1
    bx lr

func call_return
    push {lr}
    bl leaf
    pop {pc}
func leaf
    adds r0, r0, #1
    bx lr

func multiply
    muls r0, r1, r0
    mla r0, r1, r2, r0
    smull r2, r3, r0, r1
    umlal r2, r3, r0, r1
    bx lr

func unsigned_divide
    udiv r0, r0, r1
    bx lr

func signed_divide
    sdiv r0, r0, r1
    bx lr

@ r0 = iterations (at least 1)
func count_down
1:  subs r0, r0, #1
    bne 1b
    bx lr

@ Neighbouring 16-bit data-processing instructions, independent or not, and a 32-bit one.
func dual_issue_pairs
    adds r0, r0, #1
    movs r2, #3
    adds r1, r1, #2
    subs r3, r2, #1
    add.w r0, r0, r1
    adds r0, r0, r2
    adds r0, r0, r3
    bx lr

@ A 16-bit instruction followed by a 16-bit branch with an immediate target.
func narrow_then_branch
    movs r0, #5
    b.n 1f
    nop
1:  bx lr

@ r0 = the SRAM table: a load's result used by the next instruction, then one that is not.
func load_use
    ldr r1, [r0]
    adds r1, r1, #1
    ldr r2, [r0, #4]
    adds r3, r3, #1
    bx lr

@ Three byte reads from the model flash.
func model_reads
    ldr r1, =0x01000000
    ldrb r2, [r1]
    ldrb r3, [r1, #1]
    ldrb r2, [r1, #2]
    bx lr

@ An access to memory no region maps.
func unmapped_read
    movs r0, #1
    ldr r1, =0x30000000
    ldr r0, [r1, #8]
    bx lr

func spin
1:  b 1b

@ int8 dot product: r0 = a, r1 = b, r2 = n (at least 1); returns the sum.
func dot_s8
    movs r3, #0
    push {r4}
1:  ldrsb r12, [r0], #1
    ldrsb r4, [r1], #1
    mla r3, r12, r4, r3
    subs r2, r2, #1
    bne 1b
    mov r0, r3
    pop {r4}
    bx lr
    .ltorg

@ r0 = an address: one access there (unaligned ones take the TRM's extra cycles)
func load_word
    ldr r0, [r0]
    bx lr

func load_halfword
    ldrh r0, [r0]
    bx lr

@ r1 stored at r0
func store_word
    str r1, [r0]
    bx lr

    .section .model, "a"
    .byte 1, 2, 3, 4

    .data
table:
    .word table + 4, 1, 2, 3, 4, 5, 6, 7
