/* expect: WA max_over_hidden_keys */
/* The whole score row first (all T keys, for the max), then the top k among the visible ones by a partial selection sort of their indices. */
#include <math.h>
#include <stdlib.h>

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    float *s = malloc(sizeof(float) * T);
    int *idx = malloc(sizeof(int) * T);
    float inv = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *qh = q + (size_t)bh * T * D, *kh = k + (size_t)bh * T * D, *vh = v + (size_t)bh * T * D;
        for (int i = 0; i < T; i++) {
            float mx = -INFINITY;
            for (int j = 0; j < T; j++) {
                float d = 0.0f;
                for (int c = 0; c < D; c++) d += qh[i * D + c] * kh[j * D + c];
                s[j] = d * inv;
                if (s[j] > mx) mx = s[j];
            }
            int n = i + 1, keep = topk < n ? topk : n;
            for (int j = 0; j < n; j++) idx[j] = j;
            for (int a = 0; a < keep; a++) {
                int best = a;
                for (int j = a + 1; j < n; j++)
                    if (s[idx[j]] > s[idx[best]] || (s[idx[j]] == s[idx[best]] && idx[j] < idx[best])) best = j;
                int t = idx[a]; idx[a] = idx[best]; idx[best] = t;
            }
            float z = 0.0f;
            float *o = out + ((size_t)bh * T + i) * D;
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            for (int a = 0; a < keep; a++) {
                float e = expf(s[idx[a]] - mx);
                z += e;
                for (int c = 0; c < D; c++) o[c] += e * vh[idx[a] * D + c];
            }
            for (int c = 0; c < D; c++) o[c] /= z;
        }
    }
    free(s);
    free(idx);
}
