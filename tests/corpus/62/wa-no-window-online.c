/* expect: WA no_window */
/* Online softmax from the sink over every key up to the query, W ignored. */
#include <math.h>
#include <stddef.h>

/* One pass per query: the sink opens the running softmax (m = sink, l = 1,
 * no value), then each visible key rescales what came before. */
static float dot(const float *a, const float *b, int n)
{
    float s = 0.0f;
    for (int c = 0; c < n; c++) s += a[c] * b[c];
    return s;
}

void learned_sink_attention(float *out, const float *q, const float *k, const float *v,
                            const float *sinks, int B, int H, int T, int D, int W)
{
    const float scale = 1.0f / sqrtf((float)D);
    float acc[64];   /* D <= 64 */
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            size_t base = ((size_t)b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                float m = sinks[h], l = 1.0f;
                for (int c = 0; c < D; c++) acc[c] = 0.0f;
                int start = 0;
                (void)W;
                for (int j = start; j <= i; j++) {
                    float s = dot(q + base + (size_t)i * D, k + base + (size_t)j * D, D) * scale;
                    float m2 = s > m ? s : m;
                    float corr = expf(m - m2), e = expf(s - m2);
                    l = l * corr + e;
                    for (int c = 0; c < D; c++) acc[c] = acc[c] * corr + e * v[base + (size_t)j * D + c];
                    m = m2;
                }
                for (int c = 0; c < D; c++) out[base + (size_t)i * D + c] = acc[c] / l;
            }
        }
}
