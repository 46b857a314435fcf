/* expect: WA window_ignored */
/* sees() returns 1 for every past key after the sink test: window is never used, plain causal. */
#include <float.h>
#include <math.h>

static int sees(int i, int j, int n_sink, int window)
{
    if (j > i) return 0;            /* causal */
    if (j < n_sink) return 1;       /* a sink */
    (void)window;
    return 1;
}

void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    double p[T];
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            long base = ((long)b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                double best = -DBL_MAX;
                for (int j = 0; j < T; j++) {
                    if (!sees(i, j, n_sink, window)) continue;
                    double s = 0.0;
                    for (int c = 0; c < D; c++) s += (double)q[base + i * D + c] * k[base + j * D + c];
                    p[j] = s / sqrt((double)D);
                    if (p[j] > best) best = p[j];
                }
                double z = 0.0;
                for (int j = 0; j < T; j++)
                    if (sees(i, j, n_sink, window)) z += p[j] = exp(p[j] - best);
                for (int c = 0; c < D; c++) {
                    double acc = 0.0;
                    for (int j = 0; j < T; j++)
                        if (sees(i, j, n_sink, window)) acc += p[j] * v[base + j * D + c];
                    out[base + i * D + c] = (float)(acc / z);
                }
            }
        }
}
