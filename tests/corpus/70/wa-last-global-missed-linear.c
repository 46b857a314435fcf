/* expect: WA hybrid_last_global_missed */
/* The linear search for "is x global" loops g < G - 1, so the last global position is never recognised. */
#include <math.h>
#include <stdlib.h>

static int is_global(const int *gi, int G, int x)
{
    for (int g = 0; g < G - 1; g++)
        if (gi[g] == x) return 1;
    return 0;
}

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * T);
    char *seen = malloc(T);
    for (int bh = 0; bh < B * H; bh++) {
        const float *qh = q + bh * T * D, *kh = k + bh * T * D, *vh = v + bh * T * D;
        float *oh = out + bh * T * D;
        for (int i = 0; i < T; i++) {
            int gi = is_global(global_idx, G, i);
            float max = -INFINITY, sum = 0.0f;
            for (int j = 0; j <= i; j++) {
                seen[j] = gi || j > i - W || is_global(global_idx, G, j);
                if (!seen[j]) continue;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qh[i * D + c] * kh[j * D + c];
                p[j] = s * scale;
                if (p[j] > max) max = p[j];
            }
            for (int j = 0; j <= i; j++)
                if (seen[j]) sum += p[j] = expf(p[j] - max);
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= i; j++)
                    if (seen[j]) acc += p[j] * vh[j * D + c];
                oh[i * D + c] = acc / sum;
            }
        }
    }
    free(p); free(seen);
}
