/* expect: AC */
/* No flag array: a binary search of the sorted global_idx for each position; scores and sums in double, two passes. */
#include <math.h>
#include <stdlib.h>

static int listed(const int *idx, int G, int x)
{
    int lo = 0, hi = G - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (idx[mid] == x) return 1;
        if (idx[mid] < x) lo = mid + 1;
        else hi = mid - 1;
    }
    return 0;
}

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    double *s = malloc(sizeof(double) * T);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            size_t base = ((size_t)b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                int wide = listed(global_idx, G, i);
                double mx = -INFINITY, sum = 0.0;
                for (int j = 0; j <= i; j++) {
                    s[j] = -INFINITY;
                    if (!wide && j <= i - W && !listed(global_idx, G, j)) continue;
                    double d = 0.0;
                    for (int c = 0; c < D; c++) d += (double)q[base + i * D + c] * k[base + j * D + c];
                    s[j] = d / sqrt((double)D);
                    if (s[j] > mx) mx = s[j];
                }
                for (int j = 0; j <= i; j++) sum += s[j] == -INFINITY ? 0.0 : exp(s[j] - mx);
                for (int c = 0; c < D; c++) {
                    double a = 0.0;
                    for (int j = 0; j <= i; j++)
                        if (s[j] != -INFINITY) a += exp(s[j] - mx) * v[base + j * D + c];
                    out[base + i * D + c] = (float)(a / sum);
                }
            }
        }
    free(s);
}
