/* att_ceil_v128.c: att_ceil.h at 4 lanes (see there). */
#define ATT_VW 4
#define ATT_CEIL_FMA att_ceil_fma_v128
#define ATT_CEIL_READ att_ceil_read_v128
#include "att_ceil.h"
