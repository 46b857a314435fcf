/* expect: WA lse_missing_max */
/* Online merge keeps the output right, but the final lse is log(l) of the rescaled sum without the running max added. */
#include <math.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    int BH = B * H;
    for (int i = 0; i < BH; i++) {
        float m = -INFINITY, l = 0.0f;
        float *o = out + i * D;
        for (int c = 0; c < D; c++) o[c] = 0.0f;
        for (int p = 0; p < P; p++) {
            float x = lse_part[p * BH + i];
            if (x == -INFINITY) continue;
            const float *src = o_part + (p * BH + i) * D;
            if (x > m) {
                float a = (m == -INFINITY) ? 0.0f : expf(m - x);
                for (int c = 0; c < D; c++) o[c] = o[c] * a + src[c];
                l = l * a + 1.0f;
                m = x;
            } else {
                float w = expf(x - m);
                for (int c = 0; c < D; c++) o[c] += w * src[c];
                l += w;
            }
        }
        if (l == 0.0f) { lse[i] = -INFINITY; continue; }
        for (int c = 0; c < D; c++) o[c] /= l;
        lse[i] = logf(l);
    }
}
