/* expect: WA loop_breaks_at_padding */
/* Gathers the indices of the real encoder keys into a list first, but the
 * gathering loop stops at the first padded key, so real keys after a hole
 * (or after left padding) never make the list. */
#include <math.h>
#include <stdlib.h>

void cross_attention(float *out, const float *q, const float *k, const float *v,
                     const unsigned char *enc_mask, int B, int H, int T, int S, int D)
{
    int *keys = malloc(sizeof(int) * (size_t)S);
    double *w = malloc(sizeof(double) * (size_t)S);
    double scale = 1.0 / sqrt((double)D);
    for (int b = 0; b < B; b++) {
        int n = 0;
        while (n < S && (!enc_mask || enc_mask[(size_t)b * S + n])) {
            keys[n] = n;
            n++;
        }
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++) {
                const float *qt = q + (((size_t)b * H + h) * T + t) * D;
                float *o = out + (((size_t)b * H + h) * T + t) * D;
                double best = -INFINITY, total = 0.0;
                for (int a = 0; a < n; a++) {
                    const float *kj = k + (((size_t)b * H + h) * S + keys[a]) * D;
                    double s = 0.0;
                    for (int c = 0; c < D; c++) s += (double)qt[c] * kj[c];
                    w[a] = s * scale;
                    if (w[a] > best) best = w[a];
                }
                for (int a = 0; a < n; a++) total += (w[a] = exp(w[a] - best));
                for (int c = 0; c < D; c++) {
                    double acc = 0.0;
                    for (int a = 0; a < n; a++) acc += w[a] * v[(((size_t)b * H + h) * S + keys[a]) * D + c];
                    o[c] = n ? (float)(acc / total) : 0.0f;
                }
            }
    }
    free(keys);
    free(w);
}
