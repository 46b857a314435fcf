/* expect: WA padding_only_when_causal */
/* the key padding check sits inside the causal branch, so with causal == 0 padded keys are attended like real ones. */
#include <math.h>
#include <stdlib.h>

#define IDX_Q(b, h, i) (((size_t)(b) * H + (h)) * T + (i))
#define IDX_K(b, h, j) (((size_t)(b) * H + (h)) * S + (j))

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    double inv = 1.0 / sqrt((double)D);
    double *acc = malloc((size_t)D * sizeof *acc);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < T; i++) {
                const float *qi = q + IDX_Q(b, h, i) * D;
                double m = -INFINITY, l = 0.0;
                for (int c = 0; c < D; c++) acc[c] = 0.0;
                for (int j = 0; j < S; j++) {
                    if (causal) {
                        if (j > i + S - T) continue;
                        if (mask && !mask[(size_t)b * S + j]) continue;
                    }
                    const float *kj = k + IDX_K(b, h, j) * D;
                    const float *vj = v + IDX_K(b, h, j) * D;
                    double s = 0.0;
                    for (int c = 0; c < D; c++) s += (double)qi[c] * kj[c];
                    s *= inv;
                    double mn = fmax(m, s);
                    double r = exp(m - mn), e = exp(s - mn);
                    l = l * r + e;
                    for (int c = 0; c < D; c++) acc[c] = acc[c] * r + e * vj[c];
                    m = mn;
                }
                float *oi = out + IDX_Q(b, h, i) * D;
                for (int c = 0; c < D; c++) oi[c] = l > 0.0 ? (float)(acc[c] / l) : 0.0f;
            }
    free(acc);
}
