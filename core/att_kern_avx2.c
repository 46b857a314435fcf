/* att_kern_avx2.c: the kernels of att_kern.h at 8 float lanes.
 * AVX2: 16 registers hold 6 x 2 accumulators, 2 panel vectors and a broadcast.
 * Built with the matching -m flags by mk/simd.mk where the compiler targets
 * x86-64; elsewhere SIMDe emulates this width, and the dispatcher (att_fast.c)
 * only chooses it by default when it runs natively. */
#define ATT_VW 8
#define ATT_MR 6
#define ATT_NV 2
#define ATT_PACK_A 0
#define ATT_TABLE att_kern_avx2
#define ATT_NAME "avx2"
#define ATT_LEVEL ATT_SIMD_AVX2
#include "att_kern.h"
