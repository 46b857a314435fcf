/* expect: WA alibi_before_cap */
/* Online softmax in double that adds the bias and then caps the sum. */
#include <math.h>

/* Online softmax in double, one pass over the keys; the slopes come from
 * exp2 of the ALiBi exponent. */
void alibi_softcap_attention(float *out, const float *q, const float *k, const float *v,
                             int B, int H, int T, int S, int D, int cap, int alibi)
{
    double scale = 1.0 / sqrt((double)D);
    for (int bh = 0; bh < B * H; bh++) {
        double slope = exp2(-8.0 * (bh % H + 1) / H);
        const float *kb = k + (long)bh * S * D, *vb = v + (long)bh * S * D;
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((long)bh * T + i) * D;
            int pos = i + S - T;
            double m = -INFINITY, l = 0.0, acc[D];
            for (int c = 0; c < D; c++) acc[c] = 0.0;
            for (int j = 0; j <= pos; j++) {
                double s = 0.0;
                for (int c = 0; c < D; c++) s += (double)qi[c] * kb[(long)j * D + c];
                s *= scale;
                if (alibi) s += slope * (j - pos);
                if (cap > 0) s = cap * tanh(s / cap);
                double m2 = s > m ? s : m, corr = exp(m - m2), e = exp(s - m2);
                l = l * corr + e;
                for (int c = 0; c < D; c++) acc[c] = acc[c] * corr + e * vb[(long)j * D + c];
                m = m2;
            }
            for (int c = 0; c < D; c++) out[((long)bh * T + i) * D + c] = (float)(acc[c] / l);
        }
    }
}
