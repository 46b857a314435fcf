/* expect: WA max_over_hidden_keys */
/* Causal scores for keys 0 .. i and their max first, then the cache rule (sinks, window) applied when the exps are summed: the evicted keys still count in the max. */
#include <math.h>
#include <stdlib.h>

void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    float *sc = malloc(sizeof(float) * (size_t)T);
    const float scale = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D, *K = k + (size_t)bh * T * D, *V = v + (size_t)bh * T * D;
        float *O = out + (size_t)bh * T * D;
        for (int i = 0; i < T; i++) {
            float mx = -INFINITY;
            for (int j = 0; j <= i; j++) {
                float d = 0.0f;
                for (int c = 0; c < D; c++) d += Q[i * D + c] * K[j * D + c];
                sc[j] = d * scale;
                mx = fmaxf(mx, sc[j]);
            }
            float z = 0.0f;
            for (int j = 0; j <= i; j++) {
                int cached = j < n_sink || j > i - window;
                sc[j] = cached ? expf(sc[j] - mx) : 0.0f;
                z += sc[j];
            }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= i; j++) acc += sc[j] * V[j * D + c];
                O[i * D + c] = acc / z;
            }
        }
    }
    free(sc);
}
