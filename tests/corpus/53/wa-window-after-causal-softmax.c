/* expect: WA window_after_softmax */
/* An online softmax over every key up to the query (causal only); the
 * sink-and-window rule is applied when the values are summed, so the keys
 * outside it still count in the max and the denominator. */
#include <math.h>
#include <stddef.h>

void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    const float r = 1.0f / sqrtf((float)D);
    for (size_t bh = 0; bh < (size_t)B * H; bh++) {
        const float *Q = q + bh * T * D, *K = k + bh * T * D, *V = v + bh * T * D;
        float *O = out + bh * T * D;
        for (int i = 0; i < T; i++) {
            float m = -INFINITY, l = 0.0f;
            float *o = O + (size_t)i * D;
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            for (int j = 0; j <= i; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += Q[(size_t)i * D + c] * K[(size_t)j * D + c];
                s *= r;
                float m2 = s > m ? s : m, a = expf(m - m2), e = expf(s - m2);
                l = l * a + e;
                int kept = j < n_sink || j > i - window;   /* only here */
                for (int c = 0; c < D; c++) o[c] = o[c] * a + (kept ? e * V[(size_t)j * D + c] : 0.0f);
                m = m2;
            }
            for (int c = 0; c < D; c++) o[c] /= l;
        }
    }
}
