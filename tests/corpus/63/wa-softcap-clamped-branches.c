/* expect: WA softcap_clamped */
/* Two passes in double; "cap the logits at +-cap" read as an if/else clip, not Gemma-2's tanh. */
#include <math.h>
#include <stdlib.h>

void alibi_softcap_attention(float *out, const float *q, const float *k, const float *v,
                             int B, int H, int T, int S, int D, int cap, int alibi)
{
    double *w = malloc(sizeof(double) * S);
    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            double slope = 0.0;
            if (alibi) slope = pow(2.0, -8.0 * (h + 1) / H);
            const float *Q = q + (size_t)(b * H + h) * T * D;
            const float *K = k + (size_t)(b * H + h) * S * D;
            const float *V = v + (size_t)(b * H + h) * S * D;
            float *O = out + (size_t)(b * H + h) * T * D;
            for (int t = 0; t < T; t++) {
                int me = t + S - T;
                double best = -INFINITY;
                for (int j = 0; j <= me; j++) {
                    double s = 0.0;
                    for (int c = 0; c < D; c++) s += (double)Q[t * D + c] * K[j * D + c];
                    s /= sqrt((double)D);
                    if (cap > 0) {
                        if (s > cap) s = cap;
                        else if (s < -cap) s = -cap;
                    }
                    s -= slope * (me - j);
                    w[j] = s;
                    if (s > best) best = s;
                }
                double total = 0.0;
                for (int j = 0; j <= me; j++) total += (w[j] = exp(w[j] - best));
                for (int c = 0; c < D; c++) {
                    double acc = 0.0;
                    for (int j = 0; j <= me; j++) acc += w[j] * V[j * D + c];
                    O[t * D + c] = (float)(acc / total);
                }
            }
        }
    }
    free(w);
}
