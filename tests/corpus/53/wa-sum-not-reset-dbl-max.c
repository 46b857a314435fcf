/* expect: WA sum_not_reset */
/* softmax denominator declared and zeroed once at the top of the function; b->h->i loops, keys 0..i with an "evicted" skip test, double accumulators, VLA scores, -DBL_MAX markers for skipped keys */
#include <float.h>
#include <math.h>

void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    double scale = 1.0 / sqrt((double)D);
    double denom = 0.0;
    double s[T];
    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            long base = (long)(b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                double mx = -DBL_MAX;
                for (int j = 0; j <= i; j++) {
                    int evicted = (j >= n_sink) && (j <= i - window);
                    if (evicted) { s[j] = -DBL_MAX; continue; }
                    double d = 0.0;
                    for (int c = 0; c < D; c++) d += (double)q[base + (long)i * D + c] * k[base + (long)j * D + c];
                    s[j] = d * scale;
                    if (s[j] > mx) mx = s[j];
                }
                for (int j = 0; j <= i; j++) {
                    if (s[j] == -DBL_MAX) { s[j] = 0.0; continue; }
                    s[j] = exp(s[j] - mx);
                    denom += s[j];
                }
                for (int c = 0; c < D; c++) {
                    double a = 0.0;
                    for (int j = 0; j <= i; j++) a += s[j] * v[base + (long)j * D + c];
                    out[base + (long)i * D + c] = (float)(a / denom);
                }
            }
        }
    }
}
