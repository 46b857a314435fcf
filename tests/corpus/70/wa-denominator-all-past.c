/* expect: WA window_after_softmax */
/* The softmax's sum runs over every past key; only the weighted sum keeps to the window and the globals. */
#include <math.h>
#include <stdlib.h>

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    double scale = 1.0 / sqrt((double)D);
    double *p = malloc(sizeof(double) * T);
    char *glob = calloc(T, 1);
    for (int g = 0; g < G; g++) glob[global_idx[g]] = 1;
    for (int bh = 0; bh < B * H; bh++) {
        size_t off = (size_t)bh * T * D;
        for (int i = 0; i < T; i++) {
            double mx = -INFINITY;
            for (int j = 0; j <= i; j++) {
                double s = 0.0;
                for (int c = 0; c < D; c++) s += (double)q[off + i * D + c] * k[off + j * D + c];
                p[j] = s * scale;
                if (p[j] > mx) mx = p[j];
            }
            double sum = 0.0;
            for (int j = 0; j <= i; j++) sum += (p[j] = exp(p[j] - mx));
            for (int c = 0; c < D; c++) {
                double acc = 0.0;
                for (int j = 0; j <= i; j++)
                    if (j > i - W || glob[j] || glob[i]) acc += p[j] * v[off + j * D + c];
                out[off + i * D + c] = (float)(acc / sum);
            }
        }
    }
    free(p);
    free(glob);
}
