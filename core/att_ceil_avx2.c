/* att_ceil_avx2.c: att_ceil.h at 8 lanes (see there). */
#define ATT_VW 8
#define ATT_CEIL_FMA att_ceil_fma_avx2
#define ATT_CEIL_READ att_ceil_read_avx2
#include "att_ceil.h"
