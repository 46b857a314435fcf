/* expect: WA no_window */
/* Concatenated row in double that never reads W: every layer dense. */
#include <math.h>

/* As gpt-oss writes it: the row of visible scaled scores with the sink
 * logit appended, a softmax over all of it in double, the sink's column
 * then dropped. */
void learned_sink_attention(float *out, const float *q, const float *k, const float *v,
                            const float *sinks, int B, int H, int T, int D, int W)
{
    double scale = 1.0 / sqrt((double)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *Q = q + (b * H + h) * T * D, *K = k + (b * H + h) * T * D;
            const float *V = v + (b * H + h) * T * D;
            float *O = out + (b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                int idx[T];
                double row[T + 1];
                int n = 0;
                for (int j = 0; j <= i; j++) {
                    double s = 0.0;
                    for (int c = 0; c < D; c++) s += (double)Q[i * D + c] * K[j * D + c];
                    idx[n] = j;
                    row[n++] = s * scale;
                }
                row[n] = sinks[h];
                double mx = row[0];
                for (int t = 1; t <= n; t++) mx = row[t] > mx ? row[t] : mx;
                double z = 0.0;
                for (int t = 0; t <= n; t++) z += exp(row[t] - mx);
                for (int c = 0; c < D; c++) {
                    double acc = 0.0;
                    for (int t = 0; t < n; t++) acc += exp(row[t] - mx) / z * V[idx[t] * D + c];
                    O[i * D + c] = (float)acc;
                }
            }
        }
}
