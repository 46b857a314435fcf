/* expect: WA hybrid_global_queries_narrow */
/* The key list: the globals before the window, then the window, for every query alike. */
#include <math.h>
#include <stddef.h>

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            int keys[T], n = 0, first = i - W + 1 > 0 ? i - W + 1 : 0;
            for (int g = 0; g < G && global_idx[g] < first; g++) keys[n++] = global_idx[g];
            for (int j = first; j <= i; j++) keys[n++] = j;
            float s[T], mx = -INFINITY, l = 0.0f;
            for (int t = 0; t < n; t++) {
                float d = 0.0f;
                for (int c = 0; c < D; c++) d += q[((size_t)bh * T + i) * D + c] * k[((size_t)bh * T + keys[t]) * D + c];
                s[t] = d / sqrtf((float)D);
                if (s[t] > mx) mx = s[t];
            }
            for (int t = 0; t < n; t++) l += s[t] = expf(s[t] - mx);
            for (int c = 0; c < D; c++) {
                float a = 0.0f;
                for (int t = 0; t < n; t++) a += s[t] * v[((size_t)bh * T + keys[t]) * D + c];
                out[((size_t)bh * T + i) * D + c] = a / l;
            }
        }
}
