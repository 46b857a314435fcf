/* expect: WA split_layout_head_major */
/* The projections are computed as [T, d] rows, but each head is then taken
 * as a contiguous [T, D] block at h*T*D (as if they were [H, T, D]); the
 * heads' outputs go back into [T, d] rows correctly. */
#include <math.h>
#include <stdlib.h>

#define HEAD(buf, h, t, c) (buf)[(h) * T * D + (t) * D + (c)]   /* the slip: buf is [T, d] */

void mha(float *out, const float *x,
         const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    const int D = d / n_heads;
    const float scale = 1.0f / sqrtf((float)D);
    float *q = calloc((size_t)4 * T * d + T, sizeof(float));
    float *k = q + T * d, *v = k + T * d, *y = v + T * d, *p = y + T * d;
    const float *w3[3] = { wq, wk, wv };
    float *o3[3] = { q, k, v };
    for (int b = 0; b < B; b++) {
        const float *xb = x + b * T * d;
        for (int m = 0; m < 3; m++)
            for (int t = 0; t < T; t++)
                for (int j = 0; j < d; j++) {
                    float s = 0.0f;
                    for (int i = 0; i < d; i++) s += xb[t * d + i] * w3[m][i * d + j];
                    o3[m][t * d + j] = s;
                }
        for (int h = 0; h < n_heads; h++)
            for (int t = 0; t < T; t++) {
                float mx = -INFINITY, sum = 0.0f;
                for (int u = 0; u < T; u++) {
                    p[u] = -INFINITY;
                    if ((causal && u > t) || (mask && !mask[b * T + u])) continue;
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += HEAD(q, h, t, c) * HEAD(k, h, u, c);
                    p[u] = s * scale;
                    mx = p[u] > mx ? p[u] : mx;
                }
                for (int u = 0; u < T; u++) {
                    p[u] = p[u] == -INFINITY ? 0.0f : expf(p[u] - mx);
                    sum += p[u];
                }
                for (int c = 0; c < D; c++) {
                    float a = 0.0f;
                    for (int u = 0; u < T; u++) a += p[u] * HEAD(v, h, u, c);
                    y[t * d + h * D + c] = sum > 0.0f ? a / sum : 0.0f;
                }
            }
        for (int t = 0; t < T; t++)
            for (int j = 0; j < d; j++) {
                float s = 0.0f;
                for (int i = 0; i < d; i++) s += y[t * d + i] * wo[i * d + j];
                out[b * T * d + t * d + j] = s;
            }
    }
    free(q);
}
