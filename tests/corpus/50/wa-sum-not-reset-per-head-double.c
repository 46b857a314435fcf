/* expect: WA sum_not_reset */
/* softmax sum not reset per query row -- `double norm = 0.0;` zeroed once per (b, h) head, above the query loop; double accumulation, pointer arithmetic over rows, malloc'd score buffer reused per row */
#include <math.h>
#include <stdlib.h>

void swa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int T, int D, int W)
{
    double *s = malloc(sizeof(double) * (T > 0 ? T : 1));
    double inv_sqrt_d = 1.0 / sqrt((double)D);
    const float *qp = q, *kp = k, *vp = v;
    float *op = out;
    for (int head = 0; head < B * H; head++, qp += T * D, kp += T * D, vp += T * D, op += T * D) {
        double norm = 0.0;
        for (int i = 0; i < T; i++) {
            const float *qi = qp + i * D;
            int j0 = i >= W ? i - W + 1 : 0;
            double best = -INFINITY;
            for (int j = j0; j <= i; j++) {
                const float *kj = kp + j * D;
                double acc = 0.0;
                for (int c = 0; c < D; c++) acc += (double)qi[c] * (double)kj[c];
                s[j - j0] = acc * inv_sqrt_d;
                if (s[j - j0] > best) best = s[j - j0];
            }
            int n = i - j0 + 1;
            for (int t = 0; t < n; t++) {
                s[t] = exp(s[t] - best);
                norm += s[t];
            }
            float *oi = op + i * D;
            for (int c = 0; c < D; c++) {
                double acc = 0.0;
                for (int t = 0; t < n; t++) acc += s[t] * (double)vp[(j0 + t) * D + c];
                oi[c] = (float)(acc / norm);
            }
        }
    }
    free(s);
}
