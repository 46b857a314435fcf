/* expect: WA @slice */
/* q and out are found at ((b*H + h)*T + i)*D, right; k and v through one
 * block base bh*T that forgot to multiply by D. Head 0 of sequence 0 reads
 * its own keys (base 0); every other head reads a shifted window of rows. */
#include <math.h>
#include <stddef.h>

void learned_sink_attention(float *out, const float *q, const float *k, const float *v,
                            const float *sinks, int B, int H, int T, int D, int W)
{
    const float r = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        const int h = bh % H;
        const float *kk = k + bh * T, *vv = v + bh * T;   /* should be bh*T*D */
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((size_t)bh * T + i) * D;
            float *oi = out + ((size_t)bh * T + i) * D;
            int lo = (W > 0 && i >= W) ? i - W + 1 : 0;
            /* two passes: max, then the weighted sum with the sink in the denominator */
            float top = sinks[h];
            for (int j = lo; j <= i; j++) {
                float s = 0;
                for (int c = 0; c < D; c++) s += qi[c] * kk[j * D + c];
                top = fmaxf(top, s * r);
            }
            float den = expf(sinks[h] - top);
            for (int c = 0; c < D; c++) oi[c] = 0;
            for (int j = lo; j <= i; j++) {
                float s = 0;
                for (int c = 0; c < D; c++) s += qi[c] * kk[j * D + c];
                float e = expf(s * r - top);
                den += e;
                for (int c = 0; c < D; c++) oi[c] += e * vv[j * D + c];
            }
            for (int c = 0; c < D; c++) oi[c] /= den;
        }
    }
}
