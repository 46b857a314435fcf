/* expect: WA layout_bthd */
/* Reads q and k as the projections lay them out, token-major ([B, T, H, D] and [B, S, H, D]): the statement's are head-major. probs and sink are written right. */
#include <math.h>
#include <stdlib.h>

#define Q(b, t, h, c) q[(((b) * T + (t)) * H + (h)) * D + (c)]
#define K(b, s, h, c) k[(((b) * S + (s)) * H + (h)) * D + (c)]
#define P(b, t, h, s) probs[(((b) * H + (h)) * T + (t)) * S + (s)]

void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    double *e = malloc(sizeof(double) * S);
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++)
            for (int h = 0; h < H; h++) {
                double mx = -INFINITY, tot = 0.0;
                int seen = causal ? t + S - T + 1 : S;
                for (int s = 0; s < seen; s++) {
                    double d = 0.0;
                    for (int c = 0; c < D; c++) d += (double)Q(b, t, h, c) * K(b, s, h, c);
                    e[s] = d / sqrt((double)D);
                    if (e[s] > mx) mx = e[s];
                }
                for (int s = 0; s < seen; s++) tot += e[s] = exp(e[s] - mx);
                for (int s = 0; s < S; s++) P(b, t, h, s) = s < seen ? (float)(e[s] / tot) : 0.0f;
                sink[(b * H + h) * T + t] = P(b, t, h, 0);
            }
    free(e);
}
