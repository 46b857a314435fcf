/* expect: WA length_advanced_twice */
/* Append and len[b] += 1 inside the head loop, each head reading len[b] anew: head h writes row len + h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * (S_max + H));
    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            int n = len[b];
            float *kr = k_cache + (((size_t)b * S_max + n) * H + h) * D;
            float *vr = v_cache + (((size_t)b * S_max + n) * H + h) * D;
            memcpy(kr, k + ((size_t)b * H + h) * D, sizeof(float) * D);
            memcpy(vr, v + ((size_t)b * H + h) * D, sizeof(float) * D);
            const float *qh = q + ((size_t)b * H + h) * D;
            float mx = -INFINITY, sum = 0.0f;
            for (int j = 0; j <= n; j++) {
                const float *kj = k_cache + (((size_t)b * S_max + j) * H + h) * D;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qh[c] * kj[c];
                p[j] = s * scale;
                if (p[j] > mx) mx = p[j];
            }
            for (int j = 0; j <= n; j++) { p[j] = expf(p[j] - mx); sum += p[j]; }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= n; j++)
                    acc += p[j] * v_cache[(((size_t)b * S_max + j) * H + h) * D + c];
                out[((size_t)b * H + h) * D + c] = acc / sum;
            }
            len[b] = n + 1;   /* 这个头处理完了，长度加一 */
        }
    }
    free(p);
}
