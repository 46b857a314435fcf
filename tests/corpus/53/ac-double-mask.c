/* expect: AC */
/* Builds the [T, T] keep mask once per call, then attends in double with VLAs. */
#include <math.h>

void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    unsigned char keep[T][T];
    for (int i = 0; i < T; i++)
        for (int j = 0; j < T; j++)
            keep[i][j] = j <= i && (j < n_sink || i - j < window);
    double p[T];
    for (int bh = 0; bh < B * H; bh++) {
        const float (*Q)[D] = (const float (*)[D])(q + bh * T * D);
        const float (*K)[D] = (const float (*)[D])(k + bh * T * D);
        const float (*V)[D] = (const float (*)[D])(v + bh * T * D);
        float (*O)[D] = (float (*)[D])(out + bh * T * D);
        for (int i = 0; i < T; i++) {
            double mx = -INFINITY, z = 0.0;
            for (int j = 0; j < T; j++) {
                if (!keep[i][j]) continue;
                double s = 0.0;
                for (int c = 0; c < D; c++) s += (double)Q[i][c] * K[j][c];
                p[j] = s / sqrt((double)D);
                if (p[j] > mx) mx = p[j];
            }
            for (int j = 0; j < T; j++) z += (p[j] = keep[i][j] ? exp(p[j] - mx) : 0.0);
            for (int c = 0; c < D; c++) {
                double acc = 0.0;
                for (int j = 0; j < T; j++) acc += p[j] * V[j][c];
                O[i][c] = (float)(acc / z);
            }
        }
    }
}
