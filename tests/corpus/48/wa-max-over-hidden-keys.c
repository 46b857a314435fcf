/* expect: WA max_over_hidden_keys */
/* 先把整行分数算出来、顺手取最大值，再把因果掩码外的键置零：最大值里混进了看不见的键。 */
#include <math.h>

void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    const float r = 1.0f / sqrtf((float)D);
    const int offset = S - T;   /* 查询 i 位于第 i + offset 个位置 */
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const int bh = b * H + h;
            for (int i = 0; i < T; i++) {
                float *row = &probs[((long)bh * T + i) * S];
                float m = -INFINITY;
                for (int j = 0; j < S; j++) {
                    float dot = 0.0f;
                    for (int c = 0; c < D; c++)
                        dot += q[((long)bh * T + i) * D + c] * k[((long)bh * S + j) * D + c];
                    row[j] = dot * r;
                    if (row[j] > m) m = row[j];
                }
                float z = 0.0f;
                for (int j = 0; j < S; j++) {
                    if (causal && j > i + offset) row[j] = 0.0f;
                    else row[j] = expf(row[j] - m);
                    z += row[j];
                }
                for (int j = 0; j < S; j++) row[j] = row[j] / z;
                sink[(long)bh * T + i] = row[0];
            }
        }
}
