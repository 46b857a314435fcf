/* expect: AC */
/* Picks the best remaining visible key topk times (first of equals wins), marking it taken; VLAs, pointer walking. */
#include <math.h>
#include <stddef.h>

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    const float scale = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((size_t)bh * T + i) * D;
            float s[T];
            int taken[T], picked[T], n = 0;
            for (int j = 0; j <= i; j++) {
                const float *kj = k + ((size_t)bh * T + j) * D;
                float d = 0.0f;
                for (const float *a = qi, *b = kj; a < qi + D; a++, b++) d += *a * *b;
                s[j] = d * scale;
                taken[j] = 0;
            }
            while (n < topk && n <= i) {
                int best = -1;
                for (int j = 0; j <= i; j++)
                    if (!taken[j] && (best < 0 || s[j] > s[best])) best = j;
                taken[best] = 1;
                picked[n++] = best;
            }
            float mx = s[picked[0]], sum = 0.0f, w[T];
            for (int t = 0; t < n; t++) sum += w[t] = expf(s[picked[t]] - mx);
            float *o = out + ((size_t)bh * T + i) * D;
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int t = 0; t < n; t++) acc += w[t] / sum * v[((size_t)bh * T + picked[t]) * D + c];
                o[c] = acc;
            }
        }
    }
}
