/* expect: WA state_kept_between_calls */
/* Double score matrix behind a memo keyed on the shape: a repeated shape
 * gets the previous call's probs and sink back. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void compute(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    double *sc = malloc(sizeof(double) * T * S);
    for (int h = 0; h < H; h++)
        for (int b = 0; b < B; b++) {
            int bh = b * H + h;
            for (int i = 0; i < T; i++)
                for (int j = 0; j < S; j++) {
                    double dot = 0.0;
                    for (int c = 0; c < D; c++)
                        dot += (double)q[(bh * T + i) * D + c] * k[(bh * S + j) * D + c];
                    sc[i * S + j] = causal && j > i + S - T ? -INFINITY : dot / sqrt(D);
                }
            for (int i = 0; i < T; i++) {
                double mx = -INFINITY, sum = 0.0;
                for (int j = 0; j < S; j++) if (sc[i * S + j] > mx) mx = sc[i * S + j];
                for (int j = 0; j < S; j++) sum += sc[i * S + j] = exp(sc[i * S + j] - mx);
                for (int j = 0; j < S; j++) probs[(bh * T + i) * S + j] = (float)(sc[i * S + j] / sum);
                sink[bh * T + i] = (float)(sc[i * S] / sum);
            }
        }
    free(sc);
}

static float *old_probs, *old_sink;
static int old_shape[6];

void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    int shape[6] = { B, H, T, S, D, causal };
    size_t np = sizeof(float) * (size_t)B * H * T * S, ns = sizeof(float) * (size_t)B * H * T;
    if (old_probs && memcmp(shape, old_shape, sizeof shape) == 0) {
        memcpy(probs, old_probs, np);
        memcpy(sink, old_sink, ns);
        return;
    }
    compute(probs, sink, q, k, B, H, T, S, D, causal);
    free(old_probs);
    free(old_sink);
    old_probs = malloc(np);
    old_sink = malloc(ns);
    memcpy(old_probs, probs, np);
    memcpy(old_sink, sink, ns);
    memcpy(old_shape, shape, sizeof shape);
}
