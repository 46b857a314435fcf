/* expect: WA topk_q_scaled_first */
/* Rank counting in float; q is multiplied by the scale element by element inside the dot product, so rounding splits ties. */
#include <math.h>
#include <stdlib.h>

/* rank counting, two-pass softmax over kept keys */
void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    float scale = 1.0f / sqrtf((float)D);
    float *s = malloc(sizeof(float) * T), *w = malloc(sizeof(float) * T);
    int *kept = malloc(sizeof(int) * T);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D, *K = k + (size_t)bh * T * D, *V = v + (size_t)bh * T * D;
        float *O = out + (size_t)bh * T * D;
        for (int i = 0; i < T; i++) {
            int last = i;
            for (int j = 0; j <= last; j++) {
                float d = 0.0f;
                for (int c = 0; c < D; c++) d += (Q[i * D + c] * scale) * K[j * D + c];
                s[j] = d;
            }
            for (int j = 0; j <= last; j++) {
                int r = 0;
                for (int m = 0; m <= last; m++)
                    if (s[m] > s[j] || (s[m] == s[j] && m < j)) r++;
                kept[j] = r < topk;
            }
            float mx = -INFINITY, z = 0.0f;
            for (int j = 0; j <= last; j++) if (kept[j] && s[j] > mx) mx = s[j];
            for (int j = 0; j <= last; j++) { w[j] = kept[j] ? expf(s[j] - mx) : 0.0f; z += w[j]; }
            for (int c = 0; c < D; c++) {
                float a = 0.0f;
                for (int j = 0; j <= last; j++) a += w[j] * V[j * D + c];
                O[i * D + c] = a / z;
            }
        }
    }
    free(s); free(w); free(kept);
}
