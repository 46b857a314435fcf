/* expect: WA causal_flipped */
/* 分组查询注意力：先按 PyTorch 的习惯做一张加性掩码（上三角），再对整行做 softmax。 */
#include <math.h>
#include <stdlib.h>

void gqa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int Hkv, int T, int S, int D, int causal)
{
    float *bias = malloc(sizeof(float) * (size_t)T * S);
    float *row = malloc(sizeof(float) * (size_t)S);
    /* 0 where a query may look, -inf elsewhere */
    for (int i = 0; i < T; i++)
        for (int j = 0; j < S; j++)
            bias[i * S + j] = causal && j < i + (S - T) ? -INFINITY : 0.0f;
    const float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            int g = h / (H / Hkv);
            const float *Q = q + ((size_t)b * H + h) * T * D;
            const float *K = k + ((size_t)b * Hkv + g) * S * D;
            const float *V = v + ((size_t)b * Hkv + g) * S * D;
            float *O = out + ((size_t)b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                float mx = -INFINITY, z = 0.0f;
                for (int j = 0; j < S; j++) {
                    float dot = 0.0f;
                    for (int c = 0; c < D; c++) dot += Q[i * D + c] * K[j * D + c];
                    row[j] = dot * scale + bias[i * S + j];
                    mx = fmaxf(mx, row[j]);
                }
                for (int j = 0; j < S; j++) z += row[j] = expf(row[j] - mx);
                for (int c = 0; c < D; c++) {
                    float o = 0.0f;
                    for (int j = 0; j < S; j++) o += row[j] * V[j * D + c];
                    O[i * D + c] = o / z;
                }
            }
        }
    free(bias);
    free(row);
}
