/* expect: WA hybrid_window_off_by_one */
/* The key list's window starts at i - W instead of i - W + 1. */
#include <math.h>
#include <stddef.h>

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    int is_g[T];
    for (int t = 0; t < T; t++) is_g[t] = 0;
    for (int g = 0; g < G; g++) is_g[global_idx[g]] = 1;
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            int keys[T], n = 0, first = i - W > 0 ? i - W : 0;
            if (is_g[i]) first = 0;
            for (int g = 0; g < G && global_idx[g] < first; g++) keys[n++] = global_idx[g];
            for (int j = first; j <= i; j++) keys[n++] = j;
            double s[T], mx = -INFINITY, l = 0.0;
            for (int t = 0; t < n; t++) {
                double d = 0.0;
                for (int c = 0; c < D; c++) d += q[((size_t)bh * T + i) * D + c] * k[((size_t)bh * T + keys[t]) * D + c];
                s[t] = d / sqrt((double)D);
                if (s[t] > mx) mx = s[t];
            }
            for (int t = 0; t < n; t++) l += s[t] = exp(s[t] - mx);
            for (int c = 0; c < D; c++) {
                double a = 0.0;
                for (int t = 0; t < n; t++) a += s[t] * v[((size_t)bh * T + keys[t]) * D + c];
                out[((size_t)bh * T + i) * D + c] = (float)(a / l);
            }
        }
}
