/* expect: WA exp_without_max */
/* Two passes in float, the running max begun at 0 instead of -INFINITY: right while some lse_p is above 0, but where every lse_p is far below 0 the weights underflow to 0. */
#include <math.h>
/* max starts at 0 (float) */
void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    int R = B * H;
    for (int r = 0; r < R; r++) {
        float m = 0.0f, s = 0.0f;
        for (int p = 0; p < P; p++) if (lse_part[p * R + r] > m) m = lse_part[p * R + r];
        for (int c = 0; c < D; c++) out[r * D + c] = 0;
        for (int p = 0; p < P; p++) {
            float w = expf(lse_part[p * R + r] - m);
            s += w;
            for (int c = 0; c < D; c++) out[r * D + c] += w * o_part[(p * R + r) * D + c];
        }
        if (s > 0) for (int c = 0; c < D; c++) out[r * D + c] /= s;
        lse[r] = m + logf(s);
    }
}
