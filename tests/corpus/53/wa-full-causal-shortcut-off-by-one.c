/* expect: WA */
/* When the cache never fills (n_sink + window covers the sequence), plain causal attention; the test written against T - 1 keys instead of T, so one evicting case takes the shortcut. */
#include <math.h>
#include <stdlib.h>

static void row(float *o, const float *qi, const float *K, const float *V, int D, int i, int n_sink, int window,
                int all, float *w)
{
    float scale = 1.0f / sqrtf((float)D), m = -INFINITY, z = 0.0f;
    for (int j = 0; j <= i; j++) {
        w[j] = -INFINITY;
        if (!all && !(j < n_sink || j > i - window)) continue;
        float d = 0.0f;
        for (int c = 0; c < D; c++) d += qi[c] * K[j * D + c];
        w[j] = d * scale;
        if (w[j] > m) m = w[j];
    }
    for (int j = 0; j <= i; j++) z += w[j] = w[j] == -INFINITY ? 0.0f : expf(w[j] - m);
    for (int c = 0; c < D; c++) {
        float a = 0.0f;
        for (int j = 0; j <= i; j++) a += w[j] * V[j * D + c];
        o[c] = a / z;
    }
}

void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    float *w = malloc(sizeof(float) * (size_t)T);
    int all = n_sink + window >= T - 1;
    for (int bh = 0; bh < B * H; bh++) {
        size_t at = (size_t)bh * T * D;
        for (int i = 0; i < T; i++)
            row(out + at + (size_t)i * D, q + at + (size_t)i * D, k + at, v + at, D, i, n_sink, window, all, w);
    }
    free(w);
}
