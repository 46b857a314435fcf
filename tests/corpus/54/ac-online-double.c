/* expect: AC */
/* One pass per query with an online softmax in double (running max, rescaled sum and accumulator); encoder row pointer per batch. */
#include <math.h>

void cross_attention(float *out, const float *q, const float *k, const float *v,
                     const unsigned char *enc_mask, int B, int H, int T, int S, int D)
{
    for (int b = 0; b < B; b++) {
        const unsigned char *row = enc_mask ? enc_mask + (long)b * S : 0;
        for (int h = 0; h < H; h++) {
            const float *K = k + (long)(b * H + h) * S * D, *V = v + (long)(b * H + h) * S * D;
            for (int i = 0; i < T; i++) {
                const float *qi = q + ((long)(b * H + h) * T + i) * D;
                float *o = out + ((long)(b * H + h) * T + i) * D;
                double m = -INFINITY, l = 0.0, acc[32] = { 0 };
                for (int j = 0; j < S; j++) {
                    if (row && row[j] == 0) continue;
                    double s = 0.0;
                    for (int c = 0; c < D; c++) s += (double)qi[c] * K[j * D + c];
                    s /= sqrt((double)D);
                    double m2 = s > m ? s : m, a = exp(m - m2), e = exp(s - m2);
                    for (int c = 0; c < D; c++) acc[c] = acc[c] * a + e * V[j * D + c];
                    l = l * a + e;
                    m = m2;
                }
                for (int c = 0; c < D; c++) o[c] = l > 0 ? (float)(acc[c] / l) : 0.0f;
            }
        }
    }
}
