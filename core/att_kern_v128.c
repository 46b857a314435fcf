/* att_kern_v128.c: the kernels of att_kern.h at 4 float lanes.
 * 128-bit (SSE natively, SIMD128 in wasm, NEON on Arm): 6 x 2 accumulators fit
 * the 16 vector registers that V8 and x86 give.
 * Built with the compiler's baseline flags (SSE2 on x86-64, -msimd128 in
 * wasm): it is the default wherever no wider width runs natively. */
#define ATT_VW 4
#define ATT_MR 6
#define ATT_NV 2
#define ATT_TABLE att_kern_v128
#define ATT_NAME "v128"
#define ATT_LEVEL ATT_SIMD_V128
#include "att_kern.h"
