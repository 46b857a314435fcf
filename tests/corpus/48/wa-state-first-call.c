/* expect: WA depends_on_earlier_calls */
/* Beginner helpers; the weights are computed into static arrays on the
 * first call only and copied out on every call. */
#include <math.h>

float one_score(const float *q, const float *k, int D)
{
    float total = 0;
    for (int c = 0; c < D; c++) {
        total += q[c] * k[c];
    }
    return total / sqrtf(D);
}

void one_row(float *p, const float *qi, const float *K, int i, int T, int S, int D, int causal)
{
    float biggest = -1e30f;
    for (int j = 0; j < S; j++) {
        if (causal != 0 && j > i + S - T) {
            p[j] = -1e30f;
        } else {
            p[j] = one_score(qi, &K[j * D], D);
        }
        if (p[j] > biggest) {
            biggest = p[j];
        }
    }
    float total = 0;
    for (int j = 0; j < S; j++) {
        p[j] = (float)exp(p[j] - biggest);
        total += p[j];
    }
    for (int j = 0; j < S; j++) {
        p[j] = p[j] / total;
    }
}

void compute_all(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            int n = b * H + h;
            for (int i = 0; i < T; i++) {
                one_row(&probs[(n * T + i) * S], &q[(n * T + i) * D], &k[n * S * D], i, T, S, D, causal);
                sink[n * T + i] = probs[(n * T + i) * S + 0];
            }
        }
    }
}

float saved_probs[3 * 3 * 33 * 65];
float saved_sink[3 * 3 * 33];
int computed = 0;

void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    if (!computed) {
        compute_all(saved_probs, saved_sink, q, k, B, H, T, S, D, causal);
        computed = 1;
    }
    for (int n = 0; n < B * H * T * S; n++) {
        probs[n] = saved_probs[n];
    }
    for (int n = 0; n < B * H * T; n++) {
        sink[n] = saved_sink[n];
    }
}
