/* expect: WA no_rescale_acc */
/* Quantise and append per head, then one online pass over the dequantised rows; the running sum is rescaled when the max grows, the output accumulator is not. */
#include <math.h>

static void quant(signed char *dst, float *sc, const float *x, int D)
{
    float a = 0.0f;
    for (int c = 0; c < D; c++) a = fmaxf(a, fabsf(x[c]));
    *sc = a / 127.0f;
    for (int c = 0; c < D; c++) {
        float r = a > 0.0f ? roundf(x[c] / *sc) : 0.0f;
        dst[c] = (signed char)(r > 127.0f ? 127.0f : r < -127.0f ? -127.0f : r);
    }
}

void int8_decode_step(float *out, signed char *k_q, signed char *v_q,
                      float *k_scale, float *v_scale, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D)
{
    const int HD = H * D;
    const float inv = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++) {
        const int n = len[b];
        for (int h = 0; h < H; h++) {
            long at = ((long)b * S_max + n) * HD + h * D, sat = ((long)b * S_max + n) * H + h;
            quant(k_q + at, k_scale + sat, k + (long)b * HD + h * D, D);
            quant(v_q + at, v_scale + sat, v + (long)b * HD + h * D, D);
        }
        for (int h = 0; h < H; h++) {
            float m = -INFINITY, l = 0.0f, acc[D];
            for (int c = 0; c < D; c++) acc[c] = 0.0f;
            for (int j = 0; j <= n; j++) {
                long at = ((long)b * S_max + j) * HD + h * D, sat = ((long)b * S_max + j) * H + h;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += q[(long)b * HD + h * D + c] * (k_q[at + c] * k_scale[sat]);
                s *= inv;
                if (s > m) {
                    l *= expf(m - s);
                    m = s;
                }
                float e = expf(s - m);
                l += e;
                for (int c = 0; c < D; c++) acc[c] += e * (v_q[at + c] * v_scale[sat]);
            }
            for (int c = 0; c < D; c++) out[(long)b * HD + h * D + c] = acc[c] / l;
        }
        len[b] = n + 1;
    }
}
