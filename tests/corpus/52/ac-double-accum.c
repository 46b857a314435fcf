/* expect: AC */
/* Double accumulation everywhere, static scratch sized for the limits (S_max <= 65), 4-D index macros. */
#include <math.h>

#define CACHE(c, b, pos, h, i) c[(((long)(b) * S_max + (pos)) * H + (h)) * D + (i)]
#define TOK(x, b, h, i) x[((b) * H + (h)) * D + (i)]

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    static double w[1024];
    for (int b = 0; b < B; b++) {
        int n = len[b];
        for (int h = 0; h < H; h++)
            for (int i = 0; i < D; i++) {
                CACHE(k_cache, b, n, h, i) = TOK(k, b, h, i);
                CACHE(v_cache, b, n, h, i) = TOK(v, b, h, i);
            }
        len[b] = n + 1;
        for (int h = 0; h < H; h++) {
            double mx = -INFINITY, z = 0.0;
            for (int j = 0; j <= n; j++) {
                double s = 0.0;
                for (int i = 0; i < D; i++) s += (double)TOK(q, b, h, i) * CACHE(k_cache, b, j, h, i);
                w[j] = s / sqrt((double)D);
                if (w[j] > mx) mx = w[j];
            }
            for (int j = 0; j <= n; j++) z += (w[j] = exp(w[j] - mx));
            for (int i = 0; i < D; i++) {
                double acc = 0.0;
                for (int j = 0; j <= n; j++) acc += w[j] * CACHE(v_cache, b, j, h, i);
                TOK(out, b, h, i) = (float)(acc / z);
            }
        }
    }
}
