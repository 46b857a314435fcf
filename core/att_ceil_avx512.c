/* att_ceil_avx512.c: att_ceil.h at 16 lanes (see there). */
#define ATT_VW 16
#define ATT_CEIL_FMA att_ceil_fma_avx512
#define ATT_CEIL_READ att_ceil_read_avx512
#include "att_ceil.h"
