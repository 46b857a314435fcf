/* expect: WA null_mask_all_padding */
/* Additive mask that adds -inf when there is no mask at all, as if NULL
 * meant every key were padding. */
#include <math.h>

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    float scores[T][S];
    for (int h = 0; h < H; h++)
        for (int b = 0; b < B; b++) {
            int base = b * H + h;
            const float *Q = q + base * T * D, *K = k + base * S * D, *V = v + base * S * D;
            for (int i = 0; i < T; i++)
                for (int j = 0; j < S; j++) {
                    float add = 0.0f;
                    if (causal && j > i + S - T) add = -INFINITY;
                    if (mask == 0 || mask[b * S + j] == 0) add = -INFINITY;
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += Q[i * D + c] * K[j * D + c];
                    scores[i][j] = s / sqrtf((float)D) + add;
                }
            for (int i = 0; i < T; i++) {
                float mx = -INFINITY;
                for (int j = 0; j < S; j++) mx = fmaxf(mx, scores[i][j]);
                float z = 0.0f;
                for (int j = 0; j < S; j++) {
                    scores[i][j] = mx == -INFINITY ? 0.0f : expf(scores[i][j] - mx);
                    z += scores[i][j];
                }
                for (int j = 0; j < S; j++) scores[i][j] = z > 0.0f ? scores[i][j] / z : 0.0f;
            }
            for (int i = 0; i < T; i++)
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j < S; j++) acc += scores[i][j] * V[j * D + c];
                    out[(base * T + i) * D + c] = acc;
                }
        }
}
