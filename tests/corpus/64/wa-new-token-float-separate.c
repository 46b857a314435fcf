/* expect: WA new_token_not_dequantised */
/* Attends first, taking key and value n from the float k and v themselves and the rest from the cache dequantised; quantises the new row afterwards. */
#include <math.h>
#include <stddef.h>

void int8_decode_step(float *out, signed char *k_q, signed char *v_q,
                      float *k_scale, float *v_scale, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D)
{
    for (int b = 0; b < B; b++) {
        int n = len[b];
        for (int h = 0; h < H; h++) {
            const float *qh = q + ((size_t)b * H + h) * D;
            const float *kn = k + ((size_t)b * H + h) * D, *vn = v + ((size_t)b * H + h) * D;
            double sc[65], mx = -INFINITY, z = 0.0;
            for (int j = 0; j <= n; j++) {
                size_t r = ((size_t)b * S_max + j) * H + h;
                double d = 0.0;
                for (int c = 0; c < D; c++)
                    d += qh[c] * (j == n ? kn[c] : k_q[r * D + c] * k_scale[r]);
                sc[j] = d / sqrt((double)D);
                if (sc[j] > mx) mx = sc[j];
            }
            for (int j = 0; j <= n; j++) z += (sc[j] = exp(sc[j] - mx));
            for (int c = 0; c < D; c++) {
                double acc = 0.0;
                for (int j = 0; j <= n; j++) {
                    size_t r = ((size_t)b * S_max + j) * H + h;
                    acc += sc[j] * (j == n ? vn[c] : v_q[r * D + c] * v_scale[r]);
                }
                out[((size_t)b * H + h) * D + c] = (float)(acc / z);
            }
            /* now store the new token */
            size_t at = ((size_t)b * S_max + n) * H + h;
            for (int which = 0; which < 2; which++) {
                const float *x = which ? vn : kn;
                float top = 0.0f;
                for (int c = 0; c < D; c++) top = fmaxf(top, fabsf(x[c]));
                float s = top / 127.0f;
                (which ? v_scale : k_scale)[at] = s;
                for (int c = 0; c < D; c++)
                    (which ? v_q : k_q)[at * D + c] = (signed char)(s > 0.0f ? roundf(x[c] / s) : 0.0f);
            }
        }
        len[b] = n + 1;
    }
}
