/* expect: WA max_starts_at_zero */
/* Quantises the new row, then a softmax whose max starts at 0 over the dequantised cache. */
#include <math.h>
#include <stdlib.h>
#include <stddef.h>

static float quant(signed char *dst, const float *x, int D)
{
    float amax = 0.0f;
    for (int c = 0; c < D; c++) { float a = fabsf(x[c]); if (a > amax) amax = a; }
    if (amax == 0.0f) { for (int c = 0; c < D; c++) dst[c] = 0; return 0.0f; }
    float s = amax / 127.0f;
    for (int c = 0; c < D; c++) {
        float r = roundf(x[c] / s);
        if (r > 127.0f) r = 127.0f;
        if (r < -127.0f) r = -127.0f;
        dst[c] = (signed char)r;
    }
    return s;
}

void int8_decode_step(float *out, signed char *k_q, signed char *v_q,
                      float *k_scale, float *v_scale, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D)
{
    const float sm = 1.0f / sqrtf((float)D);
    float *w = malloc(sizeof(float) * S_max);
    for (int b = 0; b < B; b++) {
        int n = len[b];
        for (int h = 0; h < H; h++) {
            size_t at = (((size_t)b * S_max + n) * H + h);
            k_scale[at] = quant(k_q + at * D, k + ((size_t)b * H + h) * D, D);
            v_scale[at] = quant(v_q + at * D, v + ((size_t)b * H + h) * D, D);
        }
        for (int h = 0; h < H; h++) {
            const float *qh = q + ((size_t)b * H + h) * D;
            float mx = 0.0f, z = 0.0f;
            for (int j = 0; j <= n; j++) {
                size_t r = ((size_t)b * S_max + j) * H + h;
                const signed char *kr = k_q + r * D;
                float ks = k_scale[r];
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qh[c] * (kr[c] * ks);
                w[j] = s * sm;
                if (w[j] > mx) mx = w[j];
            }
            for (int j = 0; j <= n; j++) { w[j] = expf(w[j] - mx); z += w[j]; }
            for (int c = 0; c < D; c++) {
                float a = 0.0f;
                for (int j = 0; j <= n; j++) {
                    size_t r = ((size_t)b * S_max + j) * H + h;
                    a += w[j] * (v_q[r * D + c] * v_scale[r]);
                }
                out[((size_t)b * H + h) * D + c] = a / z;
            }
        }
        len[b] = n + 1;
    }
    free(w);
}
