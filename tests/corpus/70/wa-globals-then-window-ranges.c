/* expect: WA hybrid_global_at_window_edge_missed */
/* The keys are gathered in two ranges, the global keys with j < i - W and then the window j > i - W, so a global key at exactly j = i - W falls between them. */
#include <math.h>
#include <stdlib.h>

static int is_in(const int *set, int n, int x)
{
    for (int a = 0; a < n; a++)
        if (set[a] == x) return 1;
    return 0;
}

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    double scale = 1.0 / sqrt((double)D);
    int *keys = malloc(sizeof(int) * (T > 0 ? T : 1));
    float *e = malloc(sizeof(float) * (T > 0 ? T : 1));
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            size_t off = ((size_t)b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                int n = 0;
                if (is_in(global_idx, G, i)) {
                    for (int j = 0; j <= i; j++) keys[n++] = j;   /* a global query: the whole past */
                } else {
                    /* global keys older than the window ... */
                    for (int g = 0; g < G && global_idx[g] < i - W; g++) keys[n++] = global_idx[g];
                    /* ... then the window itself */
                    for (int j = i - W + 1 > 0 ? i - W + 1 : 0; j <= i; j++) keys[n++] = j;
                }
                const float *qi = q + off + (size_t)i * D;
                float best = -INFINITY;
                for (int a = 0; a < n; a++) {
                    const float *kj = k + off + (size_t)keys[a] * D;
                    double d = 0.0;
                    for (int c = 0; c < D; c++) d += qi[c] * kj[c];
                    e[a] = (float)(d * scale);
                    if (e[a] > best) best = e[a];
                }
                double sum = 0.0;
                for (int a = 0; a < n; a++) sum += e[a] = expf(e[a] - best);
                float *oi = out + off + (size_t)i * D;
                for (int c = 0; c < D; c++) {
                    double acc = 0.0;
                    for (int a = 0; a < n; a++) acc += e[a] * v[off + (size_t)keys[a] * D + c];
                    oi[c] = (float)(acc / sum);
                }
            }
        }
    free(keys);
    free(e);
}
