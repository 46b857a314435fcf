/* expect: WA window_start_clamped_first */
/* window start clamped to the sinks before adding one -- sinks loop, then `start = i - window; if (start < n_sink) start = n_sink; for (j = start + 1; j <= i; ...)`: right when i - window >= n_sink, but whenever the clamp fires key n_sink is dropped (with n_sink = 0, rows i < window lose key 0 and row 0 sees nothing -> NaN); two-pass softmax in double over a compact index list, no empty-row guard */
#include <math.h>
#include <stdlib.h>

void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    double *sc = malloc(sizeof(double) * T);
    int *who = malloc(sizeof(int) * T);
    double scale = 1.0 / sqrt((double)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *Q = &q[(b * H + h) * T * D];
            const float *K = &k[(b * H + h) * T * D];
            const float *V = &v[(b * H + h) * T * D];
            float *O = &out[(b * H + h) * T * D];
            for (int i = 0; i < T; i++) {
                int cnt = 0;
                /* the sinks, as long as they are in the past */
                for (int j = 0; j < n_sink && j <= i; j++) who[cnt++] = j;
                /* the recent window, without repeating a sink */
                int start = i - window;
                if (start < n_sink) start = n_sink;
                for (int j = start + 1; j <= i; j++) who[cnt++] = j;

                double best = -INFINITY;
                for (int a = 0; a < cnt; a++) {
                    double s = 0;
                    for (int c = 0; c < D; c++) s += (double)Q[i * D + c] * K[who[a] * D + c];
                    sc[a] = s * scale;
                    if (sc[a] > best) best = sc[a];
                }
                double z = 0;
                for (int a = 0; a < cnt; a++) { sc[a] = exp(sc[a] - best); z += sc[a]; }
                for (int c = 0; c < D; c++) {
                    double acc = 0;
                    for (int a = 0; a < cnt; a++) acc += sc[a] * V[who[a] * D + c];
                    O[i * D + c] = (float)(acc / z);
                }
            }
        }
    free(sc);
    free(who);
}
