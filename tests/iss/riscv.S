# Timing probes for rv32im on the SiFive E31 pipeline. tests/iss/iss_e2e_test.cpp states the
# cycles the E31 manual's latencies imply for each.
    .text
    .macro func name
    .global \name
    .type \name, @function
\name:
    .endm

func alu_straight
    add a0, a0, a1
    xor a0, a0, a1
    slli a0, a0, 2
    or a0, a0, a1
    addi a0, a0, -3
    mv a2, a0
    and a2, a2, a1
    sub a2, a2, a1
    not a3, a2
    sltu a3, a3, a2
    ret

# a0 = the SRAM table (0x20000000)
func load_no_use
    lw a1, 0(a0)
    addi a2, a2, 1
    ret

func load_word_use
    lw a1, 0(a0)
    addi a1, a1, 1
    ret

func load_byte_use
    lbu a1, 0(a0)
    addi a1, a1, 1
    ret

func stores
    sw a1, 0(a0)
    sw a1, 4(a0)
    sb a1, 8(a0)
    ret

func multiply_use
    mul a0, a0, a1
    addi a0, a0, 1
    ret

func multiply_independent
    mul a2, a0, a1
    addi a0, a0, 1
    addi a1, a1, 1
    ret

func unsigned_divide_use
    divu a0, a0, a1
    addi a0, a0, 0
    ret

func signed_divide_use
    div a0, a0, a1
    addi a0, a0, 0
    ret

func branch_not_taken
    li a1, 0
    bnez a1, 1f
    addi a0, a0, 1
    addi a0, a0, 1
1:  ret

func branch_taken
    li a1, 1
    bnez a1, 1f
    addi a0, a0, 1
    addi a0, a0, 1
1:  ret

func call_return
    addi sp, sp, -16
    sw ra, 12(sp)
    call leaf
    lw ra, 12(sp)
    addi sp, sp, 16
    ret
func leaf
    addi a0, a0, 1
    ret

# a0 = iterations (at least 1); each iteration's jump needs its target from the BTB
func jump_loop
1:  addi a0, a0, -1
    j 2f
2:  bnez a0, 1b
    ret

# a0 = iterations (at least 1): a call and a return each iteration
func call_loop
    addi sp, sp, -16
    sw ra, 12(sp)
    mv a1, a0
1:  jal leaf
    addi a1, a1, -1
    bnez a1, 1b
    lw ra, 12(sp)
    addi sp, sp, 16
    ret

# Three nested calls: their returns need three return-stack entries.
    .macro chain_link name, callee
func \name
    addi sp, sp, -16
    sw ra, 12(sp)
    jal \callee
    lw ra, 12(sp)
    addi sp, sp, 16
    ret
    .endm
    chain_link call_chain3, chain_2
    chain_link chain_2, chain_1
    chain_link chain_1, chain_0
func chain_0
    ret

# a0 = iterations (at least 1): `jumps` taken jumps and the loop branch, each its own BTB entry
    .macro jumps_loop name, jumps
func \name
1:  addi a0, a0, -1
    .rept \jumps
    j 2f
2:
    .endr
    bnez a0, 1b
    ret
    .endm
    jumps_loop jumps_20, 20
    jumps_loop jumps_30, 30

    .option push
    .option arch, +zicsr
func csr_write
    csrw mscratch, a0
    addi a0, a0, 1
    ret

func csr_read
    csrr a1, mscratch
    addi a0, a0, 1
    ret
    .option pop

# a0 = the SRAM table: a load of bytes still in the store pipeline, or not
func store_load_same
    sw a1, 0(a0)
    lw a2, 0(a0)
    ret

func store_byte_load_word
    sb a1, 3(a0)
    lw a2, 0(a0)
    ret

func store_alu_load
    sw a1, 0(a0)
    addi a3, a3, 1
    lw a2, 0(a0)
    ret

func store_load_other
    sw a1, 0(a0)
    lw a2, 4(a0)
    ret

# a0 = iterations (at least 1)
func count_down
1:  addi a0, a0, -1
    bnez a0, 1b
    ret

func model_reads
    li a1, 0x01000000
    lbu a2, 0(a1)
    lbu a3, 1(a1)
    lbu a2, 2(a1)
    ret

func unmapped_read
    li a1, 0x30000000
    lw a0, 8(a1)
    ret

func spin
1:  j 1b

# int8 dot product: a0 = a, a1 = b, a2 = n (at least 1); returns the sum.
func dot_s8
    li a3, 0
1:  lb a4, 0(a0)
    lb a5, 0(a1)
    addi a0, a0, 1
    addi a1, a1, 1
    mul a4, a4, a5
    addi a2, a2, -1
    add a3, a3, a4
    bnez a2, 1b
    mv a0, a3
    ret

# a0 = an address: one access there (the E31 traps when it is misaligned)
func load_word
    lw a0, 0(a0)
    ret

func load_halfword
    lhu a0, 0(a0)
    ret

# a1 stored at a0
func store_word
    sw a1, 0(a0)
    ret

    .section .model, "a"
    .byte 1, 2, 3, 4

    .data
table:
    .word table + 4, 1, 2, 3, 4, 5, 6, 7
