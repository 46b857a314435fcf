/* expect: WA window_counts_sinks */
/* Thinks of a fixed cache of `window` slots: the sinks take n_sink of them,
 * so only window - n_sink recent keys are left (never below one: the query
 * always sees itself). An online softmax over the visible keys. */
#include <math.h>
#include <stddef.h>

static int visible(int i, int j, int n_sink, int recent)
{
    return j <= i && (j < n_sink || j > i - recent);
}

void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    int recent = window - n_sink;
    if (recent < 1) recent = 1;
    const float sc = 1.0f / sqrtf((float)D);
    for (size_t bh = 0; bh < (size_t)B * H; bh++) {
        const float *Q = q + bh * T * D, *K = k + bh * T * D, *V = v + bh * T * D;
        float *O = out + bh * T * D;
        for (int i = 0; i < T; i++) {
            float m = -INFINITY, l = 0;
            for (int c = 0; c < D; c++) O[i * D + c] = 0;
            for (int j = 0; j <= i; j++) {
                if (!visible(i, j, n_sink, recent)) continue;
                float s = 0;
                for (int c = 0; c < D; c++) s += Q[i * D + c] * K[j * D + c];
                s *= sc;
                float mn = s > m ? s : m, a = expf(m - mn), e = expf(s - mn);
                l = l * a + e;
                for (int c = 0; c < D; c++) O[i * D + c] = O[i * D + c] * a + e * V[j * D + c];
                m = mn;
            }
            for (int c = 0; c < D; c++) O[i * D + c] /= l;
        }
    }
}
