/* expect: WA acc_not_reset_per_dim */
/* The accumulator is declared with the max and the sum, before the loop
 * over the output dims, so each dim adds onto the ones before it. */
#include <math.h>

void swa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int T, int D, int W)
{
    float w[4096];   /* T is small in these exercises */
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *Q = q + (b * H + h) * T * D, *K = k + (b * H + h) * T * D;
            const float *V = v + (b * H + h) * T * D;
            float *O = out + (b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                int lo = i - W + 1;
                if (lo < 0) lo = 0;
                float mx = -INFINITY, den = 0.0f, acc = 0.0f;   /* acc: one for the whole row */
                for (int j = lo; j <= i; j++) {
                    float d = 0.0f;
                    for (int c = 0; c < D; c++) d += Q[i * D + c] * K[j * D + c];
                    w[j] = d / sqrtf((float)D);
                    mx = fmaxf(mx, w[j]);
                }
                for (int j = lo; j <= i; j++) {
                    w[j] = expf(w[j] - mx);
                    den += w[j];
                }
                for (int c = 0; c < D; c++) {
                    for (int j = lo; j <= i; j++) acc += w[j] * V[j * D + c];
                    O[i * D + c] = acc / den;
                }
            }
        }
}
