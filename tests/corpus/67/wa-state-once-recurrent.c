/* expect: WA state_not_reset */
/* The recurrent form in double; S and z cleared once per call, before the first head, and carried into every later one. */
#include <math.h>
#include <stdlib.h>

static double feat(float x) { return x > 0 ? x + 1.0 : exp(x); }

void linear_attention(float *out, const float *q, const float *k, const float *v, int B, int H,
                      int T, int D, int E)
{
    double *S = calloc((size_t)D * E, sizeof(double)), *z = calloc(D, sizeof(double));
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            long base = (long)b * H + h;
            for (int t = 0; t < T; t++) {
                const float *qt = q + (base * T + t) * D, *kt = k + (base * T + t) * D;
                const float *vt = v + (base * T + t) * E;
                for (int c = 0; c < D; c++) {
                    double f = feat(kt[c]);
                    z[c] += f;
                    for (int e = 0; e < E; e++) S[c * E + e] += f * vt[e];
                }
                double den = 0;
                for (int c = 0; c < D; c++) den += feat(qt[c]) * z[c];
                for (int e = 0; e < E; e++) {
                    double num = 0;
                    for (int c = 0; c < D; c++) num += feat(qt[c]) * S[c * E + e];
                    out[(base * T + t) * E + e] = (float)(num / den);
                }
            }
        }
    free(S);
    free(z);
}
