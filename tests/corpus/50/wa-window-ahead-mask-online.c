/* expect: WA window_ahead */
/* Every key with an additive 0 / -inf mask, online in double; the band is written j >= i && j < i + W, the W keys ahead of the query. */
#include <math.h>

void swa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int T, int D, int W)
{
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            double m = -INFINITY, l = 0.0, acc[256] = { 0 };
            for (int j = 0; j < T; j++) {
                int inside = j >= i && j < i + W;
                if (!inside) continue;
                double s = 0.0;
                for (int c = 0; c < D; c++) s += (double)q[(bh * T + i) * D + c] * k[(bh * T + j) * D + c];
                s /= sqrt((double)D);
                double m2 = fmax(m, s), a = exp(m - m2), w = exp(s - m2);
                for (int c = 0; c < D; c++) acc[c] = acc[c] * a + w * v[(bh * T + j) * D + c];
                l = l * a + w;
                m = m2;
            }
            for (int c = 0; c < D; c++) out[(bh * T + i) * D + c] = (float)(acc[c] / l);
        }
}
