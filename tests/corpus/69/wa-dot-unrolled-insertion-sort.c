/* expect: WA dot_tail_dropped */
/* The q . k dot product runs in steps of four with no remainder loop, so when D is not a multiple of 4 its last dims are never scored. */
#include <math.h>
#include <stdlib.h>

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    const float r = 1.0f / sqrtf((float)D);
    float *score = malloc(sizeof(float) * (T > 0 ? T : 1));
    int *order = malloc(sizeof(int) * (T > 0 ? T : 1));
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const size_t base = ((size_t)b * H + h) * T * D;
            const float *Q = q + base, *K = k + base, *V = v + base;
            float *O = out + base;
            for (int i = 0; i < T; i++) {
                const float *qi = Q + (size_t)i * D;
                /* score key j and slide it into the order: best first, ties to the lower index */
                for (int j = 0; j <= i; j++) {
                    const float *kj = K + (size_t)j * D;
                    float dot = 0.0f;
                    for (int c = 0; c + 4 <= D; c += 4)
                        dot += qi[c] * kj[c] + qi[c + 1] * kj[c + 1]
                             + qi[c + 2] * kj[c + 2] + qi[c + 3] * kj[c + 3];
                    score[j] = dot;
                    int pos = j;
                    while (pos > 0 && score[order[pos - 1]] < dot) {
                        order[pos] = order[pos - 1];
                        pos--;
                    }
                    order[pos] = j;
                }
                int kept = i + 1 < topk ? i + 1 : topk;
                float top = score[order[0]] * r, z = 0.0f;
                float *oi = O + (size_t)i * D;
                for (int c = 0; c < D; c++) oi[c] = 0.0f;
                for (int n = 0; n < kept; n++) {
                    int j = order[n];
                    float w = expf(score[j] * r - top);
                    z += w;
                    for (int c = 0; c < D; c++) oi[c] += w * V[(size_t)j * D + c];
                }
                for (int c = 0; c < D; c++) oi[c] /= z;
            }
        }
    free(score);
    free(order);
}
