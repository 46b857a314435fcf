/* expect: WA v_dequantised_with_k_scale */
/* One helper dequantises a cached row; the value rows are passed k_scale
 * (a copy-paste from the key side), so every value is off by the ratio of
 * the two scales. An online softmax over the rows. */
#include <math.h>
#include <stddef.h>

static float quant_row(signed char *dst, const float *x, int D)
{
    float m = 0.0f;
    for (int c = 0; c < D; c++) m = fmaxf(m, fabsf(x[c]));
    float s = m / 127.0f;
    for (int c = 0; c < D; c++) {
        long r = m > 0.0f ? lroundf(x[c] / s) : 0;
        dst[c] = (signed char)(r > 127 ? 127 : r < -127 ? -127 : r);
    }
    return s;
}

static void dequant_row(float *dst, const signed char *src, float s, int D)
{
    for (int c = 0; c < D; c++) dst[c] = (float)src[c] * s;
}

void int8_decode_step(float *out, signed char *k_q, signed char *v_q,
                      float *k_scale, float *v_scale, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D)
{
    float kr[256], vr[256], acc[256];   /* D <= 256 in every case */
    const float inv = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++) {
        const int n = len[b];
        for (int h = 0; h < H; h++) {
            size_t slot = ((size_t)b * S_max + n) * H + h;
            k_scale[slot] = quant_row(k_q + slot * D, k + ((size_t)b * H + h) * D, D);
            v_scale[slot] = quant_row(v_q + slot * D, v + ((size_t)b * H + h) * D, D);
        }
        for (int h = 0; h < H; h++) {
            const float *qh = q + ((size_t)b * H + h) * D;
            float m = -INFINITY, l = 0.0f;
            for (int c = 0; c < D; c++) acc[c] = 0.0f;
            for (int j = 0; j <= n; j++) {
                size_t slot = ((size_t)b * S_max + j) * H + h;
                dequant_row(kr, k_q + slot * D, k_scale[slot], D);
                dequant_row(vr, v_q + slot * D, k_scale[slot], D);   /* should be v_scale */
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qh[c] * kr[c];
                s *= inv;
                float mn = fmaxf(m, s), a = expf(m - mn), e = expf(s - mn);
                l = l * a + e;
                for (int c = 0; c < D; c++) acc[c] = acc[c] * a + e * vr[c];
                m = mn;
            }
            for (int c = 0; c < D; c++) out[((size_t)b * H + h) * D + c] = acc[c] / l;
        }
        len[b] = n + 1;
    }
}
