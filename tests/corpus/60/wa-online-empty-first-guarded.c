/* expect: WA empty_split_nan */
/* An online merge with no -inf test: an empty first split makes exp(-inf - -inf); the l > 0 guard at the end turns that row's lse into -INFINITY and leaves its out NaN. */
#include <math.h>
#include <string.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    int R = B * H;
    for (int r = 0; r < R; r++) {
        float *o = out + r * D;
        float m = -INFINITY, l = 0.0f;
        memset(o, 0, sizeof(float) * D);
        for (int p = 0; p < P; p++) {
            float Lp = lse_part[p * R + r];
            const float *op = o_part + (p * R + r) * D;
            float mn = fmaxf(m, Lp);
            float a = expf(m - mn), w = expf(Lp - mn);
            l = l * a + w;
            for (int c = 0; c < D; c++) o[c] = o[c] * a + w * op[c];
            m = mn;
        }
        if (l > 0.0f) { for (int c = 0; c < D; c++) o[c] /= l; lse[r] = m + logf(l); }
        else lse[r] = -INFINITY;
    }
}
