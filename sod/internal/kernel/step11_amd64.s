//go:build !noasm && !amd64.v3

#include "textflag.h"

// absmask clears the sign bits of a vector of two float64.
DATA absmask<>+0(SB)/8, $0x7fffffffffffffff
DATA absmask<>+8(SB)/8, $0x7fffffffffffffff
GLOBL absmask<>(SB), RODATA|NOPTR, $16

// func step11SSE2(next, x, z []float64, k *Coef11, out *Sums11)
//
// Step11Go with SSE2: one row pair (U, O) per iteration, the U row in the
// low lane and the O row in the high lane, so that each lane's sums are
// the scalar chain of its block. The cubic term c(x² − z²)x of a U row is
// computed and added in the low lane only (MULSD, ADDSD), as Step11Go
// adds it to U rows only. Every operation is a single IEEE 754 operation
// on the same operands as in Step11Go (no fused multiply–add). A new
// coordinate whose magnitude is below τ (k[8], k[9]) is replaced by +0
// before it is stored and summed, as Step11Go does (CMPPD, ANDNPD).
TEXT ·step11SSE2(SB), NOSPLIT, $0-88
	MOVQ   next_base+0(FP), DI
	MOVQ   x_base+24(FP), SI
	MOVQ   x_len+32(FP), CX
	MOVQ   z_base+48(FP), DX
	MOVQ   k+72(FP), AX
	MOVQ   out+80(FP), BX
	MOVUPD 0(AX), X8   // [m_xU, m_xO]
	MOVUPD 16(AX), X9  // [m_zU, m_zO]
	MOVUPD 32(AX), X10 // [α, α]
	MOVSD  48(AX), X11 // c
	XORPD  X12, X12    // ss
	XORPD  X13, X13    // xᵀx
	XORPD  X14, X14    // xᵀz
	SHRQ   $1, CX      // row pairs
	JZ     done
	XORQ   R8, R8

loop:
	MOVUPD (SI)(R8*1), X0 // [x_u, x_o]
	MOVUPD (DX)(R8*1), X1 // [z_u, z_o]
	MOVAPD X0, X2
	MULPD  X8, X2         // x·m_x
	MOVAPD X1, X3
	MULPD  X9, X3         // z·m_z
	SUBPD  X3, X2         // x·m_x − z·m_z
	MOVAPD X0, X4
	MULSD  X0, X4         // x_u²
	MOVAPD X1, X5
	MULSD  X1, X5         // z_u²
	SUBSD  X5, X4         // x_u² − z_u²
	MULSD  X11, X4        // c(x_u² − z_u²)
	MULSD  X0, X4         // c(x_u² − z_u²)x_u
	ADDSD  X4, X2         // U lane only
	ADDPD  X2, X2         // g = 2(…)
	MOVAPD X2, X6
	MULPD  X2, X6
	ADDPD  X6, X12        // ss += g²
	MULPD  X10, X2        // αg
	ADDPD  X2, X0         // x + αg
	MOVUPD absmask<>(SB), X3
	ANDPD  X0, X3         // |x + αg|
	MOVUPD 64(AX), X4     // [τ, τ]
	CMPPD  X4, X3, $1     // |x + αg| < τ: all ones
	ANDNPD X0, X3         // +0 there, x + αg elsewhere
	MOVAPD X3, X0
	MOVUPD X0, (DI)(R8*1)
	MOVAPD X0, X7
	MULPD  X0, X7
	ADDPD  X7, X13        // xᵀx
	MULPD  X1, X0
	ADDPD  X0, X14        // xᵀz
	ADDQ   $16, R8
	DECQ   CX
	JNZ    loop

done:
	MOVUPD X12, 0(BX)
	MOVUPD X13, 16(BX)
	MOVUPD X14, 32(BX)
	RET
