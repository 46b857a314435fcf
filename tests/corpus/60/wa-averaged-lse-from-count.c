/* expect: WA outputs_averaged */
/* Every split with keys counts the same: the mean of their outputs, and an lse of max + log(count) to match. */
#include <math.h>
#include <string.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    int rows = B * H;
    for (int r = 0; r < rows; r++) {
        float *o = out + (size_t)r * D;
        memset(o, 0, sizeof(float) * D);
        int cnt = 0;
        float best = -INFINITY;
        for (int p = 0; p < P; p++) {
            float l = lse_part[p * rows + r];
            if (isinf(l) && l < 0) continue;   /* an empty split */
            cnt++;
            best = fmaxf(best, l);
            for (int c = 0; c < D; c++) o[c] += o_part[((size_t)p * rows + r) * D + c];
        }
        if (cnt == 0) {
            lse[r] = -INFINITY;
            continue;
        }
        for (int c = 0; c < D; c++) o[c] /= cnt;
        lse[r] = best + logf((float)cnt);
    }
}
