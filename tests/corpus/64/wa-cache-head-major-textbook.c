/* expect: WA cache_layout_head_major */
/* The textbook step with the int8 rows indexed head-major, [B, H, S_max, D],
 * where they are written and where they are read; the scales as given. */
#include <math.h>
#include <stdlib.h>

void int8_decode_step(float *out, signed char *k_q, signed char *v_q,
                      float *k_scale, float *v_scale, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D)
{
    int row = H * D;
    float *p = malloc(sizeof(float) * S_max);
    for (int b = 0; b < B; b++) {
        int n = len[b];
        for (int h = 0; h < H; h++) {
            for (int which = 0; which < 2; which++) {
                const float *x = (which ? v : k) + b * row + h * D;
                signed char *dst = (which ? v_q : k_q) + ((size_t)(b * H + h) * S_max + n) * D;
                float *sc = (which ? v_scale : k_scale) + (size_t)(b * S_max + n) * H + h;
                float top = 0.0f;
                for (int c = 0; c < D; c++) top = fmaxf(top, fabsf(x[c]));
                float s = top / 127.0f;
                *sc = s;
                for (int c = 0; c < D; c++) {
                    int r = s == 0.0f ? 0 : (int)roundf(x[c] / s);
                    if (r > 127) r = 127;
                    if (r < -127) r = -127;
                    dst[c] = (signed char)r;
                }
            }
        }
        for (int h = 0; h < H; h++) {
            const float *qh = q + b * row + h * D;
            float m = -INFINITY, sum = 0.0f;
            for (int j = 0; j <= n; j++) {
                size_t at = (size_t)(b * S_max + j) * H + h;
                float s = 0.0f;
                size_t r = ((size_t)(b * H + h) * S_max + j) * D;
                for (int c = 0; c < D; c++) s += qh[c] * (k_q[r + c] * k_scale[at]);
                p[j] = s / sqrtf((float)D);
                if (p[j] > m) m = p[j];
            }
            for (int j = 0; j <= n; j++) {
                p[j] = expf(p[j] - m);
                sum += p[j];
            }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= n; j++) {
                    size_t at = (size_t)(b * S_max + j) * H + h;
                    acc += p[j] * (v_q[((size_t)(b * H + h) * S_max + j) * D + c] * v_scale[at]);
                }
                out[b * row + h * D + c] = acc / sum;
            }
        }
        len[b] = n + 1;
    }
    free(p);
}
