/* expect: WA max_over_hidden_keys */
/* Local window plus global tokens: the scores of every key up to the query,
 * their max, then only the visible ones exponentiated. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    unsigned char *is_g = calloc((size_t)T, 1), *vis = malloc((size_t)T);
    float *e = malloc(sizeof(float) * (size_t)T);
    for (int g = 0; g < G; g++) is_g[global_idx[g]] = 1;
    const float r = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            size_t o = ((size_t)b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                memset(vis, 0, (size_t)T);
                for (int j = 0; j <= i; j++)
                    if (is_g[i] || is_g[j] || i - j < W) vis[j] = 1;
                float m = -INFINITY, z = 0.0f;
                for (int j = 0; j <= i; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += q[o + (size_t)i * D + c] * k[o + (size_t)j * D + c];
                    e[j] = s * r;
                    m = fmaxf(m, e[j]);
                }
                for (int j = 0; j <= i; j++)
                    if (vis[j]) z += e[j] = expf(e[j] - m);
                for (int c = 0; c < D; c++) {
                    float y = 0.0f;
                    for (int j = 0; j <= i; j++)
                        if (vis[j]) y += e[j] * v[o + (size_t)j * D + c];
                    out[o + (size_t)i * D + c] = y / z;
                }
            }
        }
    free(is_g);
    free(vis);
    free(e);
}
