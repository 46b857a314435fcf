/* expect: WA out_layout_bthd */
/* Index macros, one per tensor; the output's is written the way the model reshapes it next, [B, T, H, D]. */
#include <math.h>
#include <stdlib.h>

#define QI(b, h, t, c) ((((size_t)(b) * H + (h)) * T + (t)) * D + (c))
#define KI(b, h, j, c) ((((size_t)(b) * H + (h)) * S + (j)) * D + (c))
/* 输出直接排成 [B, T, H, D]，下一层 reshape 成 [B, T, H*D] 就不用再转置了 */
#define OI(b, h, t, c) ((((size_t)(b) * T + (t)) * H + (h)) * D + (c))

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    const float scale = 1.0f / sqrtf((float)D);
    float *w = malloc(sizeof *w * (size_t)S);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++) {
                float mx = -INFINITY;
                for (int j = 0; j < S; j++) {
                    if ((mask && !mask[b * S + j]) || (causal && j > t + S - T)) {
                        w[j] = -INFINITY;
                        continue;
                    }
                    float dot = 0.0f;
                    for (int c = 0; c < D; c++) dot += q[QI(b, h, t, c)] * k[KI(b, h, j, c)];
                    w[j] = dot * scale;
                    mx = fmaxf(mx, w[j]);
                }
                float sum = 0.0f;
                for (int j = 0; j < S; j++) {
                    w[j] = w[j] == -INFINITY ? 0.0f : expf(w[j] - mx);
                    sum += w[j];
                }
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j < S; j++) acc += w[j] * v[KI(b, h, j, c)];
                    out[OI(b, h, t, c)] = sum > 0.0f ? acc / sum : 0.0f;
                }
            }
    free(w);
}
