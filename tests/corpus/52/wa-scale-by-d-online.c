/* expect: WA scale_by_d */
/* Append then online softmax, the scale taken as 1 / D. */
#include <math.h>
#include <stddef.h>

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    const float scale = 1.0f / (float)D;
    for (int b = 0; b < B; b++) {
        int n = len[b];
        /* append the new token at row n: all heads of one position are contiguous */
        for (int h = 0; h < H; h++)
            for (int c = 0; c < D; c++) {
                size_t at = (((size_t)b * S_max + n) * H + h) * D + c;
                k_cache[at] = k[(b * H + h) * D + c];
                v_cache[at] = v[(b * H + h) * D + c];
            }
        for (int h = 0; h < H; h++) {
            const float *qh = q + (b * H + h) * D;
            float *o = out + (b * H + h) * D;
            float m = -INFINITY, l = 0.0f;
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            for (int j = 0; j <= n; j++) {
                size_t at = (((size_t)b * S_max + j) * H + h) * D;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qh[c] * k_cache[at + c];
                s *= scale;
                float mn = s > m ? s : m;
                float corr = expf(m - mn), p = expf(s - mn);
                l = l * corr + p;
                for (int c = 0; c < D; c++) o[c] = o[c] * corr + p * v_cache[at + c];
                m = mn;
            }
            for (int c = 0; c < D; c++) o[c] /= l;
        }
        len[b] = n + 1;
    }
}
