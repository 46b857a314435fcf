/* expect: WA stale_weights_past_limit */
/* Sliding-window attention with the probabilities normalised in place in one
 * scratch row, then a plain weighted sum over the whole row. */
#include <math.h>
#include <stdlib.h>

void swa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int T, int D, int W)
{
    float *prob = calloc((size_t)T, sizeof(float));
    const float inv = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D, *K = k + (size_t)bh * T * D, *V = v + (size_t)bh * T * D;
        float *O = out + (size_t)bh * T * D;
        for (int t = 0; t < T; t++) {
            int first = t - W + 1 < 0 ? 0 : t - W + 1;
            float best = -INFINITY;
            for (int s = first; s <= t; s++) {
                float dot = 0.0f;
                for (int e = 0; e < D; e++) dot += Q[t * D + e] * K[s * D + e];
                prob[s] = dot * inv;
                if (prob[s] > best) best = prob[s];
            }
            float total = 0.0f;
            for (int s = first; s <= t; s++) {
                prob[s] = expf(prob[s] - best);
                total += prob[s];
            }
            for (int s = first; s <= t; s++) prob[s] /= total;
            for (int e = 0; e < D; e++) {
                float y = 0.0f;
                for (int s = 0; s < T; s++) y += prob[s] * V[s * D + e];
                O[t * D + e] = y;
            }
        }
    }
    free(prob);
}
