/* expect: WA split_axis_inner */
/* Indexes lse_part as [B, H, P] (row-major with the split last) instead of [P, B, H]. */
#include <math.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            const float *l = lse_part + (b * H + h) * P;
            float *o = out + (b * H + h) * D;
            double m = -INFINITY, s = 0.0;
            for (int p = 0; p < P; p++) if (l[p] > m) m = l[p];
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            if (m == -INFINITY) { lse[b * H + h] = -INFINITY; continue; }
            for (int p = 0; p < P; p++) s += exp(l[p] - m);
            for (int p = 0; p < P; p++) {
                if (l[p] == -INFINITY) continue;
                double w = exp(l[p] - m) / s;
                const float *src = o_part + ((p * B + b) * H + h) * D;
                for (int c = 0; c < D; c++) o[c] += (float)(w * src[c]);
            }
            lse[b * H + h] = (float)(m + log(s));
        }
    }
}
