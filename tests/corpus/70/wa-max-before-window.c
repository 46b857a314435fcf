/* expect: WA max_over_hidden_keys */
/* Hybrid attention as a masked softmax: all causal scores of the row first
 * (their max taken as they come), then the keys the rule hides set to 0
 * when the exps are taken. */
#include <math.h>
#include <stdlib.h>

static int is_global(const int *idx, int G, int t)
{
    for (int g = 0; g < G; g++)
        if (idx[g] == t) return 1;
    return 0;
}

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    float *row = malloc(sizeof(float) * (size_t)T);
    float scale = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D, *K = k + (size_t)bh * T * D, *V = v + (size_t)bh * T * D;
        float *O = out + (size_t)bh * T * D;
        for (int i = 0; i < T; i++) {
            int gi = is_global(global_idx, G, i);
            float top = -INFINITY, total = 0.0f;
            for (int j = 0; j <= i; j++) {
                float d = 0.0f;
                for (int c = 0; c < D; c++) d += Q[i * D + c] * K[j * D + c];
                row[j] = d * scale;
                top = row[j] > top ? row[j] : top;
            }
            for (int j = 0; j <= i; j++) {
                int seen = gi || i - j < W || is_global(global_idx, G, j);
                row[j] = seen ? expf(row[j] - top) : 0.0f;
                total += row[j];
            }
            for (int c = 0; c < D; c++) {
                float y = 0.0f;
                for (int j = 0; j <= i; j++) y += row[j] * V[j * D + c];
                O[i * D + c] = y / total;
            }
        }
    }
    free(row);
}
