/* att_kern_avx512.c: the kernels of att_kern.h at 16 float lanes.
 * AVX-512: 32 registers hold 12 x 2 accumulators, 2 panel vectors and a broadcast.
 * Built with the matching -m flags by mk/simd.mk where the compiler targets
 * x86-64; elsewhere SIMDe emulates this width, and the dispatcher (att_fast.c)
 * only chooses it by default when it runs natively. */
#define ATT_VW 16
#define ATT_MR 12
#define ATT_NV 2
#define ATT_PACK_A 0
#define ATT_TABLE att_kern_avx512
#define ATT_NAME "avx512"
#define ATT_LEVEL ATT_SIMD_AVX512
#include "att_kern.h"
