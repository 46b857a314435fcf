/* expect: AC */
/* Static fixed-size scratch arrays sized for the limits (T <= 65, d <= 96), one batch element at a time; no malloc. */
#include <math.h>

#define MAXT 65
#define MAXD 96

static float Q[MAXT][MAXD], K[MAXT][MAXD], V[MAXT][MAXD], Y[MAXT][MAXD];
static float P[MAXT];

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    int D = d / n_heads;
    float scale = 1.0f / sqrtf((float)D);

    for (int b = 0; b < B; b++) {
        const float *xb = x + b * T * d;
        const unsigned char *mb = mask ? mask + b * T : 0;
        for (int t = 0; t < T; t++)
            for (int j = 0; j < d; j++) {
                Q[t][j] = K[t][j] = V[t][j] = 0;
                for (int i = 0; i < d; i++) {
                    Q[t][j] += xb[t * d + i] * wq[i * d + j];
                    K[t][j] += xb[t * d + i] * wk[i * d + j];
                    V[t][j] += xb[t * d + i] * wv[i * d + j];
                }
            }
        for (int h = 0; h < n_heads; h++) {
            int f0 = h * D, f1 = f0 + D;
            for (int i = 0; i < T; i++) {
                int n = causal ? i + 1 : T, any = 0;
                float mx = 0;
                for (int j = 0; j < n; j++) {
                    if (mb && !mb[j]) continue;
                    float s = 0;
                    for (int f = f0; f < f1; f++) s += Q[i][f] * K[j][f];
                    P[j] = s * scale;
                    if (!any || P[j] > mx) mx = P[j];
                    any = 1;
                }
                float sum = 0;
                for (int j = 0; j < n; j++) {
                    P[j] = (mb && !mb[j]) ? 0.0f : expf(P[j] - mx);
                    sum += P[j];
                }
                for (int f = f0; f < f1; f++) {
                    float a = 0;
                    for (int j = 0; j < n; j++) a += P[j] * V[j][f];
                    Y[i][f] = any ? a / sum : 0.0f;
                }
            }
        }
        for (int t = 0; t < T; t++)
            for (int c = 0; c < d; c++) {
                float a = 0;
                for (int m = 0; m < d; m++) a += Y[t][m] * wo[m * d + c];
                out[(b * T + t) * d + c] = a;
            }
    }
}
