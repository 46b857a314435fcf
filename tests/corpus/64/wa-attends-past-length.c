/* expect: WA attends_past_length */
/* Static buffers filled and attended over all S_max rows, the stale ones past the length included. */
#include <float.h>
#include <math.h>
#include <stddef.h>

static float kf[65][17], vf[65][17], w[65];

static float quantize(signed char *q8, const float *x, int D)
{
    double top = 0.0;
    for (int c = 0; c < D; c++) top = fmax(top, fabs((double)x[c]));
    float s = (float)(top / 127.0);
    for (int c = 0; c < D; c++) {
        double r = s > 0.0f ? nearbyint((double)x[c] / s) : 0.0;
        q8[c] = (signed char)fmin(127.0, fmax(-127.0, r));
    }
    return s;
}

void int8_decode_step(float *out, signed char *k_q, signed char *v_q,
                      float *k_scale, float *v_scale, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D)
{
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            int n = len[b];
            size_t at = ((size_t)b * S_max + n) * H + h, x = ((size_t)b * H + h) * D;
            k_scale[at] = quantize(k_q + at * D, k + x, D);
            v_scale[at] = quantize(v_q + at * D, v + x, D);
            for (int j = 0; j < S_max; j++) {
                size_t r = ((size_t)b * S_max + j) * H + h;
                for (int c = 0; c < D; c++) {
                    kf[j][c] = k_q[r * D + c] * k_scale[r];
                    vf[j][c] = v_q[r * D + c] * v_scale[r];
                }
            }
            float top = -FLT_MAX, sum = 0.0f, inv = 1.0f / sqrtf((float)D);
            for (int j = 0; j < S_max; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += q[x + c] * kf[j][c];
                w[j] = s * inv;
                top = w[j] > top ? w[j] : top;
            }
            for (int j = 0; j < S_max; j++) sum += (w[j] = expf(w[j] - top));
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j < S_max; j++) acc += w[j] / sum * vf[j][c];
                out[x + c] = acc;
            }
        }
    for (int b = 0; b < B; b++) len[b] += 1;
}
