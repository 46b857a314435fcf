/* expect: WA causal_offset_negated */
/* Online softmax in double over the visible prefix; the last visible key is computed as i - (S - T), the offset subtracted. */
#include <math.h>

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    double scale = 1.0 / sqrt((double)D);
    for (int bh = 0; bh < B * H; bh++) {
        int b = bh / H;
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((long)bh * T + i) * D;
            float *oi = out + ((long)bh * T + i) * D;
            double m = -INFINITY, l = 0.0, acc[512];
            for (int c = 0; c < D; c++) acc[c] = 0.0;
            int last = causal ? i - (S - T) : S - 1;
            for (int j = 0; j <= last; j++) {
                if (mask && !mask[b * S + j]) continue;
                const float *kj = k + ((long)bh * S + j) * D, *vj = v + ((long)bh * S + j) * D;
                double s = 0.0;
                for (int c = 0; c < D; c++) s += (double)qi[c] * kj[c];
                s *= scale;
                double m2 = s > m ? s : m, old = exp(m - m2), w = exp(s - m2);
                for (int c = 0; c < D; c++) acc[c] = acc[c] * old + w * vj[c];
                l = l * old + w;
                m = m2;
            }
            for (int c = 0; c < D; c++) oi[c] = l > 0.0 ? (float)(acc[c] / l) : 0.0f;
        }
    }
}
