/* expect: WA hybrid_last_global_missed */
/* A binary search over the sorted global_idx uses hi = G - 1 with while (lo < hi), so it never tests the final candidate and misses the last global (and G = 1). */
#include <math.h>
#include <stdlib.h>

static int in_sorted(const int *a, int n, int x)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (a[mid] == x) return 1;
        if (a[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    return 0;
}

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    double scale = 1.0 / sqrt((double)D);
    double *sc = malloc(sizeof(double) * T);
    char *vis = malloc(T);
    for (int b = 0; b < B; b++)
    for (int h = 0; h < H; h++) {
        size_t base = ((size_t)b * H + h) * T * D;
        for (int i = 0; i < T; i++) {
            int qg = in_sorted(global_idx, G, i);
            double mx = -INFINITY, den = 0.0;
            for (int j = 0; j <= i; j++) {
                vis[j] = (i - j < W) || qg || in_sorted(global_idx, G, j);
                if (!vis[j]) continue;
                double d = 0.0;
                for (int c = 0; c < D; c++) d += (double)q[base + i * D + c] * k[base + j * D + c];
                sc[j] = d * scale;
                if (sc[j] > mx) mx = sc[j];
            }
            for (int j = 0; j <= i; j++) if (vis[j]) { sc[j] = exp(sc[j] - mx); den += sc[j]; }
            for (int c = 0; c < D; c++) {
                double num = 0.0;
                for (int j = 0; j <= i; j++) if (vis[j]) num += sc[j] * v[base + j * D + c];
                out[base + i * D + c] = (float)(num / den);
            }
        }
    }
    free(sc); free(vis);
}
