/* expect: WA q_layout_bthd */
/* 手写 permute 时把 q 当成拆头之前的 [B, T, H, D] 来取下标 */
#include <math.h>
#include <stdlib.h>

void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    float scale = 1.0f / sqrtf((float)D);
    float *qh = malloc(sizeof(float) * T * D);         /* q[b, :, h, :] 的拷贝 */
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            /* qh = q.view(B, T, H, D)[b, :, h, :] */
            for (int i = 0; i < T; i++)
                for (int c = 0; c < D; c++)
                    qh[i * D + c] = q[((b * T + i) * H + h) * D + c];
            const float *kh = k + (size_t)(b * H + h) * S * D;
            for (int i = 0; i < T; i++) {
                float *p = probs + ((size_t)(b * H + h) * T + i) * S;
                float m = -INFINITY, z = 0.0f;
                for (int j = 0; j < S; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qh[i * D + c] * kh[j * D + c];
                    p[j] = (causal && j > i + S - T) ? -INFINITY : s * scale;
                    if (p[j] > m) m = p[j];
                }
                for (int j = 0; j < S; j++) { p[j] = expf(p[j] - m); z += p[j]; }
                for (int j = 0; j < S; j++) p[j] /= z;
                sink[(b * H + h) * T + i] = p[0];
            }
        }
    free(qh);
}
