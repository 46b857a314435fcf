/* expect: WA cache_not_written */
/* Quantises nothing: the new k and v never reach the int8 cache, yet rows 0 .. len are attended, the last one stale. */
#include <math.h>
#include <stddef.h>

void int8_decode_step(float *out, signed char *k_q, signed char *v_q,
                      float *k_scale, float *v_scale, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D)
{
    (void)k, (void)v;
    for (int b = 0; b < B; b++) {
        int L = len[b] + 1;
        for (int h = 0; h < H; h++) {
            double s[L], mx = -INFINITY, den = 0;
            for (int t = 0; t < L; t++) {
                size_t r = ((size_t)b * S_max + t) * H + h;
                double acc = 0;
                for (int c = 0; c < D; c++) acc += q[((size_t)b * H + h) * D + c] * (double)k_q[r * D + c];
                s[t] = acc * k_scale[r] / sqrt((double)D);
                if (s[t] > mx) mx = s[t];
            }
            for (int t = 0; t < L; t++) den += (s[t] = exp(s[t] - mx));
            for (int c = 0; c < D; c++) {
                double acc = 0;
                for (int t = 0; t < L; t++) {
                    size_t r = ((size_t)b * S_max + t) * H + h;
                    acc += s[t] * v_q[r * D + c] * v_scale[r];
                }
                out[((size_t)b * H + h) * D + c] = (float)(acc / den);
            }
        }
        len[b] = L;
    }
}
