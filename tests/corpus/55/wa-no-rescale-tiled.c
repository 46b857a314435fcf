/* expect: WA no_rescale */
/* Tiles of 16 keys with the score tile in scratch; takes each tile's weights against the new max but never rescales l and the accumulator already summed. */
#include <math.h>
void flash_attention(float *out, float *lse, const float *q, const float *k, const float *v, float *scratch, int B, int H, int T, int S, int D, int causal, int n_scratch)
{
    (void)n_scratch;
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            float *o = out + ((long)bh * T + i) * D, m = -INFINITY, l = 0;
            for (int c = 0; c < D; c++) o[c] = 0;
            int last = causal ? i + S - T : S - 1;
            for (int j0 = 0; j0 <= last; j0 += 16) {
                float mt = -INFINITY;
                for (int t = 0; t < 16 && j0 + t <= last; t++) {
                    float s = 0; for (int c = 0; c < D; c++) s += q[((long)bh*T+i)*D+c] * k[((long)bh*S+j0+t)*D+c];
                    scratch[t] = s / sqrtf(D); mt = fmaxf(mt, scratch[t]);
                }
                float mn = fmaxf(m, mt);
                for (int t = 0; t < 16 && j0 + t <= last; t++) {
                    float p = expf(scratch[t] - mn); l += p;
                    for (int c = 0; c < D; c++) o[c] += p * v[((long)bh*S+j0+t)*D+c];
                }
                m = mn;
            }
            for (int c = 0; c < D; c++) o[c] /= l;
            lse[(long)bh*T+i] = m + logf(l);
        }
}
