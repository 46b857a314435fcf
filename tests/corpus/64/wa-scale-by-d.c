/* expect: WA scale_by_d */
/* divide by D */
#include <math.h>
#include <stdlib.h>
/* quantise with lrintf and multiply by inverse; two passes; malloc */
static float quant(signed char *dst, const float *x, int D) {
    float m = 0.f;
    for (int c = 0; c < D; c++) { float a = x[c] < 0 ? -x[c] : x[c]; if (a > m) m = a; }
    if (m == 0.f) { for (int c = 0; c < D; c++) dst[c] = 0; return 0.f; }
    float s = m / 127.0f;
    for (int c = 0; c < D; c++) {
        long r = lrintf(x[c] / s);
        if (r > 127) r = 127; if (r < -127) r = -127;
        dst[c] = (signed char)r;
    }
    return s;
}
void int8_decode_step(float *out, signed char *k_q, signed char *v_q,
                      float *k_scale, float *v_scale, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D)
{
    float *sc = malloc(sizeof(float) * (S_max + 1));
    for (int b = 0; b < B; b++) {
        int n = len[b];
        for (int h = 0; h < H; h++) {
            size_t ci = ((size_t)(b * S_max + n) * H + h);
            k_scale[ci] = quant(k_q + ci * D, k + (b * H + h) * D, D);
            v_scale[ci] = quant(v_q + ci * D, v + (b * H + h) * D, D);
        }
        for (int h = 0; h < H; h++) {
            const float *qq = q + (b * H + h) * D;
            float mx = -INFINITY;
            for (int j = 0; j <= n; j++) {
                size_t ci = (size_t)(b * S_max + j) * H + h;
                float d = 0.f;
                for (int c = 0; c < D; c++) d += qq[c] * ((float)k_q[ci * D + c] * k_scale[ci]);
                sc[j] = d / (float)D;
                if (sc[j] > mx) mx = sc[j];
            }
            float tot = 0.f;
            for (int j = 0; j <= n; j++) { sc[j] = expf(sc[j] - mx); tot += sc[j]; }
            float *o = out + (b * H + h) * D;
            for (int c = 0; c < D; c++) o[c] = 0.f;
            for (int j = 0; j <= n; j++) {
                size_t ci = (size_t)(b * S_max + j) * H + h;
                float w = sc[j] / tot;
                for (int c = 0; c < D; c++) o[c] += w * ((float)v_q[ci * D + c] * v_scale[ci]);
            }
        }
        len[b]++;
    }
    free(sc);
}
