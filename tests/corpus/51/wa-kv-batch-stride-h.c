/* expect: WA kv_batch_stride_h */
/* the k/v batch offset uses H (query heads) instead of Hkv, i.e. b*H*S*D. */
#include <math.h>
#include <stdlib.h>

void gqa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int Hkv, int T, int S, int D, int causal)
{
    int group = H / Hkv;
    float scale = 1.0f / sqrtf((float)D);
    float *sc = (float *)malloc(sizeof(float) * (size_t)S);
    if (!sc) return;

    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            int g = h / group;
            const float *qh = q + (size_t)(b * H + h) * T * D;
            const float *kh = k + (size_t)(b * H + g) * S * D;
            const float *vh = v + (size_t)(b * H + g) * S * D;
            float *oh = out + (size_t)(b * H + h) * T * D;

            for (int i = 0; i < T; i++) {
                int last = causal ? i + (S - T) : S - 1;
                float mx = -INFINITY;
                for (int j = 0; j <= last; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++)
                        s += qh[i * D + c] * kh[j * D + c];
                    s *= scale;
                    sc[j] = s;
                    if (s > mx) mx = s;
                }
                float sum = 0.0f;
                for (int j = 0; j <= last; j++) {
                    sc[j] = expf(sc[j] - mx);
                    sum += sc[j];
                }
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j <= last; j++)
                        acc += sc[j] * vh[j * D + c];
                    oh[i * D + c] = acc / sum;
                }
            }
        }
    }
    free(sc);
}
