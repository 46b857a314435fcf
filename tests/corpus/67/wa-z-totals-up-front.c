/* expect: WA denominator_not_causal */
/* The normaliser z is summed over all T keys of the (batch, head) before the query loop, while the state S grows one key at a time. */
#include <math.h>
#include <string.h>

static double feat(float x)
{
    return x > 0.0f ? (double)x + 1.0 : exp((double)x);
}

void linear_attention(float *out, const float *q, const float *k, const float *v, int B, int H,
                      int T, int D, int E)
{
    double S[D][E], z[D], fq[D];
    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            size_t base = (size_t)b * H + h;
            const float *Q = q + base * T * D, *K = k + base * T * D, *V = v + base * T * E;
            float *O = out + base * T * E;

            memset(S, 0, sizeof S);
            memset(z, 0, sizeof z);
            /* the normaliser: every key's features, added up once */
            for (int j = 0; j < T; j++)
                for (int c = 0; c < D; c++)
                    z[c] += feat(K[(size_t)j * D + c]);

            for (int i = 0; i < T; i++) {
                for (int c = 0; c < D; c++) {
                    double f = feat(K[(size_t)i * D + c]);
                    for (int e = 0; e < E; e++)
                        S[c][e] += f * V[(size_t)i * E + e];
                }
                double den = 0.0;
                for (int c = 0; c < D; c++) {
                    fq[c] = feat(Q[(size_t)i * D + c]);
                    den += fq[c] * z[c];
                }
                for (int e = 0; e < E; e++) {
                    double num = 0.0;
                    for (int c = 0; c < D; c++)
                        num += fq[c] * S[c][e];
                    O[(size_t)i * E + e] = (float)(num / den);
                }
            }
        }
    }
}
