/* att_fast_int8.c: the public entry point of the int8 KV cache decode step's
 * SIMD twin (att.h, att_int8_decode_step_simd): checks the arguments,
 * quantises the new token (B * H * D values: scalar, the reference's own
 * rule, so the cache holds the same bytes as the twin's), and runs the
 * table's decode_i8 workers (att_kern.h) over the dequantised cache. No SIMD
 * here. */
#include <math.h>
#include "att_fast.h"

size_t att_int8_decode_simd_scratch_floats(int B, int S_max, int H)
{
    return B < 1 || S_max < 1 || H < 1 ? 0 : (size_t)B * H * S_max;
}

static void decode_i8_task(const void *ctx, int tid, int n) { att_kern_chosen()->decode_i8(ctx, tid, n); }

att_status att_int8_decode_step_simd(float *out, signed char *k_q, signed char *v_q,
                                     float *k_scale, float *v_scale, int *len,
                                     const float *q, const float *k, const float *v,
                                     int B, int S_max, int H, int D, int threads,
                                     float *scratch)
{
    if (B <= 0 || S_max <= 0 || H <= 0 || D <= 0) return ATT_EBADSHAPE;
    for (int b = 0; b < B; b++)   /* all checked first: an error touches nothing */
        if (len[b] < 0 || len[b] >= S_max) return ATT_ECACHEFULL;
    size_t row = (size_t)H * D;
    for (int b = 0; b < B; b++) {
        size_t at = ((size_t)b * S_max + len[b]) * H;
        for (int h = 0; h < H; h++) {
            size_t x = (size_t)b * row + (size_t)h * D;
            att_quantize_int8_ref(k_q + (at + h) * D, k_scale + at + h, k + x, D);
            att_quantize_int8_ref(v_q + (at + h) * D, v_scale + at + h, v + x, D);
        }
        len[b]++;   /* the new row is attended too: len[b] keys now */
    }
    att_int8_job j = { out, q, k_q, v_q, k_scale, v_scale, len, B, S_max, H, D,
                       1.0f / sqrtf((float)D), scratch };
    att_kern_chosen();   /* chosen before the workers start, which only read it */
    att_parallel(att_threads_clamp(threads), decode_i8_task, &j);
    return ATT_OK;
}
