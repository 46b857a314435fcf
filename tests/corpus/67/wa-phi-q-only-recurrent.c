/* expect: WA phi_on_one_side */
/* The recurrent form in double; the keys go into S and z raw, phi applied to the queries only. */
#include <math.h>
#include <stdlib.h>

static double feat(float x) { return x > 0 ? x + 1.0 : exp(x); }

void linear_attention(float *out, const float *q, const float *k, const float *v, int B, int H,
                      int T, int D, int E)
{
    double *S = malloc(sizeof(double) * D * E), *z = malloc(sizeof(double) * D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            long base = (long)b * H + h;
            for (int i = 0; i < D * E; i++) S[i] = 0;
            for (int c = 0; c < D; c++) z[c] = 0;
            for (int t = 0; t < T; t++) {
                const float *qt = q + (base * T + t) * D, *kt = k + (base * T + t) * D;
                const float *vt = v + (base * T + t) * E;
                for (int c = 0; c < D; c++) {
                    double f = kt[c];
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
