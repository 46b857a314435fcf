/* expect: WA window_start_clamped_first */
/* window start clamped before adding one -- `lo = i - W; if (lo < 0) lo = 0; for (j = lo + 1; ...)`, so rows i >= W see keys i - W + 1 .. i correctly but rows i < W lose key 0 (row 0 sees nothing and the guard writes zeros); two-pass softmax, fixed-size stack array, guard z > 0 */
#include <math.h>
#include <stdlib.h>

void swa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int T, int D, int W)
{
    float p[128];
    float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            int hb = (b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                int lo = i - W;
                if (lo < 0) lo = 0;
                float m = -INFINITY;
                for (int j = lo + 1; j <= i; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += q[hb + i * D + c] * k[hb + j * D + c];
                    p[j] = s * scale;
                    if (p[j] > m) m = p[j];
                }
                float z = 0.0f;
                for (int j = lo + 1; j <= i; j++) {
                    p[j] = expf(p[j] - m);
                    z += p[j];
                }
                for (int c = 0; c < D; c++) {
                    float o = 0.0f;
                    for (int j = lo + 1; j <= i; j++) o += p[j] * v[hb + j * D + c];
                    out[hb + i * D + c] = z > 0.0f ? o / z : 0.0f;
                }
            }
        }
}
