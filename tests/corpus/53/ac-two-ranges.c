/* expect: AC */
/* Two index ranges, sinks [0, min(n_sink, i+1)) then the window [max(i-W+1, sinks end), i]: no key twice; online softmax, no score buffer. */
#include <math.h>

void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    for (int bh = 0; bh < B * H; bh++) {
        const float *qb = q + bh * T * D, *kb = k + bh * T * D, *vb = v + bh * T * D;
        for (int i = 0; i < T; i++) {
            int sink_end = n_sink < i + 1 ? n_sink : i + 1;
            int lo = i - window + 1 > sink_end ? i - window + 1 : sink_end;
            float acc[64], m = -INFINITY, l = 0.0f;
            for (int c = 0; c < D; c++) acc[c] = 0.0f;
            for (int pass = 0; pass < 2; pass++) {
                int from = pass ? lo : 0, to = pass ? i + 1 : sink_end;
                for (int j = from; j < to; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qb[i * D + c] * kb[j * D + c];
                    s /= sqrtf((float)D);
                    float m2 = s > m ? s : m, a = expf(m - m2), e = expf(s - m2);
                    for (int c = 0; c < D; c++) acc[c] = acc[c] * a + e * vb[j * D + c];
                    l = l * a + e;
                    m = m2;
                }
            }
            for (int c = 0; c < D; c++) out[(bh * T + i) * D + c] = acc[c] / l;
        }
    }
}
