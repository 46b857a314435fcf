/* expect: WA no_rescale_acc */
/* Online softmax in double with a -1e30 start: l takes the correction, the value accumulator does not. */
#include <math.h>
#include <stdlib.h>
void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    double *acc = malloc(sizeof(double) * D);
    double sc = 1.0 / sqrt((double)D);
    for (int b = 0; b < B; ++b) for (int h = 0; h < H; ++h) {
        size_t base_q = (size_t)(b * H + h) * T * D, base_k = (size_t)(b * H + h) * S * D;
        for (int i = 0; i < T; ++i) {
            double m = -1e30, l = 0.0;
            for (int c = 0; c < D; ++c) acc[c] = 0.0;
            int lim = causal ? i + (S - T) : S - 1;
            for (int j = 0; j <= lim; ++j) {
                if (mask && mask[b * S + j] == 0) continue;
                double s = 0;
                for (int c = 0; c < D; ++c) s += (double)q[base_q + i * D + c] * k[base_k + j * D + c];
                s *= sc;
                double mn = s > m ? s : m;
                double corr = exp(m - mn), e = exp(s - mn);
                l = l * corr + e;
                for (int c = 0; c < D; ++c) acc[c] = acc[c] + e * v[base_k + j * D + c];
                m = mn;
            }
            for (int c = 0; c < D; ++c) out[base_q + i * D + c] = l > 0 ? (float)(acc[c] / l) : 0.0f;
        }
    }
    free(acc);
}
