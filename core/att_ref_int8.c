/* att_ref_int8.c: reference kernels of a KV cache stored as symmetric int8
 * (exercise 64): quantising one vector, and one decode step that quantises
 * the new token into the cache and attends over the dequantised rows. Plain
 * loops (the attention itself is att_sdpa_ref, double accumulation);
 * semantics in att.h. */
#include <math.h>
#include <string.h>
#include "att.h"

att_status att_quantize_int8_ref(signed char *q8, float *scale, const float *x, int n)
{
    if (n <= 0) return ATT_EBADSHAPE;
    float top = 0.0f;
    for (int i = 0; i < n; i++)
        if (fabsf(x[i]) > top) top = fabsf(x[i]);
    /* A zero vector has no scale to speak of: 0, so that it dequantises to
     * zeros without a division by zero. */
    *scale = top / 127.0f;
    for (int i = 0; i < n; i++) {
        float r = *scale > 0.0f ? roundf(x[i] / *scale) : 0.0f;
        /* With scale = max / 127 no |x / scale| rounds past 127: the clamp
         * states the symmetric range (never -128) as engines write it. */
        q8[i] = (signed char)(r > 127.0f ? 127 : r < -127.0f ? -127 : (int)r);
    }
    return ATT_OK;
}

size_t att_int8_decode_scratch_floats(int S_max, int D)
{
    return 2 * (size_t)S_max * D + (size_t)S_max;   /* one head's keys, values, scores */
}

/* Row j of head h of one sequence's cache, dequantised into dst[j * D ..]. */
static void dequantize(float *dst, const signed char *q8, const float *scale, int rows, int H,
                       int h, int D)
{
    for (int j = 0; j < rows; j++) {
        float s = scale[(size_t)j * H + h];
        for (int c = 0; c < D; c++)
            dst[(size_t)j * D + c] = (float)q8[((size_t)j * H + h) * D + c] * s;
    }
}

att_status att_int8_decode_step_ref(float *out, signed char *k_q, signed char *v_q,
                                    float *k_scale, float *v_scale, int *len, const float *q,
                                    const float *k, const float *v, int B, int S_max, int H,
                                    int D, float *scratch)
{
    if (B <= 0 || S_max <= 0 || H <= 0 || D <= 0) return ATT_EBADSHAPE;
    for (int b = 0; b < B; b++)   /* all checked first: an error touches nothing */
        if (len[b] < 0 || len[b] >= S_max) return ATT_ECACHEFULL;
    size_t row = (size_t)H * D;   /* one position of one cache */
    float scale = 1.0f / sqrtf((float)D);
    float *kd = scratch, *vd = scratch + (size_t)S_max * D, *p = vd + (size_t)S_max * D;
    for (int b = 0; b < B; b++) {
        int n = len[b];
        signed char *kq = k_q + (size_t)b * S_max * row, *vq = v_q + (size_t)b * S_max * row;
        float *ks = k_scale + (size_t)b * S_max * H, *vs = v_scale + (size_t)b * S_max * H;
        for (int h = 0; h < H; h++) {
            size_t at = (size_t)n * row + (size_t)h * D, x = (size_t)b * row + (size_t)h * D;
            att_quantize_int8_ref(kq + at, ks + (size_t)n * H + h, k + x, D);
            att_quantize_int8_ref(vq + at, vs + (size_t)n * H + h, v + x, D);
        }
        /* The new token is attended as the cache holds it, dequantised like
         * every other row: the next step sees nothing else. */
        for (int h = 0; h < H; h++) {
            dequantize(kd, kq, ks, n + 1, H, h, D);
            dequantize(vd, vq, vs, n + 1, H, h, D);
            att_sdpa_ref(out + (size_t)b * row + (size_t)h * D, D, q + (size_t)b * row + (size_t)h * D,
                         D, kd, vd, D, NULL, 1, n + 1, D, 0, scale, p);
        }
        len[b] = n + 1;
    }
    return ATT_OK;
}
