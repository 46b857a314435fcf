/* expect: WA hybrid_global_keys_future */
/* A global key is made visible to every query, so queries before a global position see that future key. */
#include <math.h>
#include <stdlib.h>

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * T);
    char *glob = calloc(T, 1), *seen = malloc(T);
    for (int g = 0; g < G; g++) glob[global_idx[g]] = 1;
    for (int bh = 0; bh < B * H; bh++) {
        const float *qh = q + bh * T * D, *kh = k + bh * T * D, *vh = v + bh * T * D;
        float *oh = out + bh * T * D;
        for (int i = 0; i < T; i++) {
            float max = -INFINITY, sum = 0.0f;
            for (int j = 0; j < T; j++) {
                /* every token attends to the global ones */
                seen[j] = glob[j] || (j <= i && (j > i - W || glob[i]));
                if (!seen[j]) continue;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qh[i * D + c] * kh[j * D + c];
                p[j] = s * scale;
                if (p[j] > max) max = p[j];
            }
            for (int j = 0; j < T; j++)
                if (seen[j]) sum += p[j] = expf(p[j] - max);
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j < T; j++)
                    if (seen[j]) acc += p[j] * vh[j * D + c];
                oh[i * D + c] = acc / sum;
            }
        }
    }
    free(p); free(glob); free(seen);
}
