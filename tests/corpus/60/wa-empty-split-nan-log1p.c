/* expect: WA empty_split_nan */
/* Online merge that keeps the running lse itself (fmaxf + log1pf of the difference) without guarding -inf - -inf, so empty splits before the first non-empty one produce NaN. */
#include <math.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            int row = b * H + h;
            float run = -INFINITY;          /* merged lse so far */
            float *o = &out[row * D];
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            for (int p = 0; p < P; p++) {
                float x = lse_part[p * B * H + row];
                float mx = fmaxf(run, x), mn = fminf(run, x);
                float nl = mx + log1pf(expf(mn - mx));
                float a = expf(run - nl), w = expf(x - nl);
                for (int c = 0; c < D; c++)
                    o[c] = a * o[c] + w * o_part[(p * B * H + row) * D + c];
                run = nl;
            }
            lse[row] = run;
        }
    }
}
