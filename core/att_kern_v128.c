/* att_kern_v128.c: the kernels of att_kern.h at 4 float lanes.
 * 128-bit (SSE natively, SIMD128 in wasm, NEON on Arm). 4 x 2 accumulators:
 * V8 spilled 6 x 2 (with the panel, the broadcast and a product, 16 live
 * vectors, more than its allocator keeps in registers), and 4 x 2 over a
 * packed a (ATT_PACK_A) measured 27 GFLOP/s in wasm against 22.
 * Built with the compiler's baseline flags (SSE2 on x86-64, -msimd128 in
 * wasm): it is the default wherever no wider width runs natively. */
#define ATT_VW 4
#define ATT_MR 4
#define ATT_NV 2
#define ATT_PACK_A 1
#define ATT_TABLE att_kern_v128
#define ATT_NAME "v128"
#define ATT_LEVEL ATT_SIMD_V128
#include "att_kern.h"
