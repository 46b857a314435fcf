/* expect: WA no_rescale_sum */
/* Folds the splits in one at a time into a running (max, sum, output); when
 * a split raises the max, the output so far is scaled down to it but the
 * running sum is not. */
#include <math.h>
#include <string.h>

typedef struct { float m, l; } run_t;

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    const int rows = B * H;
    for (int r = 0; r < rows; r++) {
        float *o = out + (size_t)r * D;
        run_t st = { -INFINITY, 0.0f };
        memset(o, 0, sizeof(float) * D);
        for (int p = 0; p < P; p++) {
            float x = lse_part[(size_t)p * rows + r];
            if (isinf(x) && x < 0) continue;
            const float *op = o_part + ((size_t)p * rows + r) * D;
            if (x > st.m) {
                float a = expf(st.m - x);
                for (int c = 0; c < D; c++) o[c] *= a;
                st.m = x;
            }
            float w = expf(x - st.m);
            st.l += w;
            for (int c = 0; c < D; c++) o[c] += w * op[c];
        }
        if (st.l == 0.0f) {
            lse[r] = -INFINITY;
            continue;
        }
        for (int c = 0; c < D; c++) o[c] /= st.l;
        lse[r] = st.m + logf(st.l);
    }
}
