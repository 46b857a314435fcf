/* expect: WA topk_not_clamped */
/* The argmax selection runs topk times without clamping to the i+1 visible keys; once all are used, best stays at its initial 0 and key 0 is added again. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    float scale = 1.0f / sqrtf((float)D);
    float *s = malloc(sizeof(float) * T);
    char *used = malloc(T);
    int *sel = malloc(sizeof(int) * (size_t)topk);
    for (int bh = 0; bh < B * H; bh++) {
        const float *qh = q + bh * T * D, *kh = k + bh * T * D, *vh = v + bh * T * D;
        float *oh = out + bh * T * D;
        for (int i = 0; i < T; i++) {
            for (int j = 0; j <= i; j++) {
                float dot = 0.0f;
                for (int c = 0; c < D; c++) dot += qh[i * D + c] * kh[j * D + c];
                s[j] = dot * scale;
            }
            memset(used, 0, T);
            for (int r = 0; r < topk; r++) {
                int best = 0;
                for (int j = 0; j <= i; j++) {
                    if (used[j]) continue;
                    if (used[best] || s[j] > s[best]) best = j;
                }
                used[best] = 1;
                sel[r] = best;
            }
            float mx = s[sel[0]], sum = 0.0f;
            for (int r = 0; r < topk; r++) sum += expf(s[sel[r]] - mx);
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int r = 0; r < topk; r++) acc += expf(s[sel[r]] - mx) * vh[sel[r] * D + c];
                oh[i * D + c] = acc / sum;
            }
        }
    }
    free(s);
    free(used);
    free(sel);
}
