/* expect: WA sink_counted_twice */
/* The sink-window overlap checked for key 0 only: sinks 1 .. n_sink - 1 inside the window are counted twice. */
#include <math.h>
static void visit(int j, const float *qi, const float *K, const float *V, int D, float scale,
                  float *m, float *l, float *acc)
{
    float s = 0.0f;
    for (int c = 0; c < D; c++) s += qi[c] * K[(long)j * D + c];
    s *= scale;
    float mn = s > *m ? s : *m;
    float a = expf(*m - mn), e = expf(s - mn);
    *l = *l * a + e;
    for (int c = 0; c < D; c++) acc[c] = acc[c] * a + e * V[(long)j * D + c];
    *m = mn;
}
void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    float scale = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *K = k + (long)bh * T * D, *V = v + (long)bh * T * D;
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((long)bh * T + i) * D;
            float *oi = out + ((long)bh * T + i) * D;
            float acc[D];
            float m = -INFINITY, l = 0.0f;
            for (int c = 0; c < D; c++) acc[c] = 0.0f;
            int sink_end = n_sink < i + 1 ? n_sink : i + 1;       /* sinks j < min(n_sink, i+1) */
            for (int j = 0; j < sink_end; j++) visit(j, qi, K, V, D, scale, &m, &l, acc);
            int w0 = i - window + 1;
            if (w0 < 0) w0 = 0;
            if (w0 == 0 && sink_end > 0) w0 = 1;              /* key 0 already counted */
            for (int j = w0; j <= i; j++) visit(j, qi, K, V, D, scale, &m, &l, acc);
            for (int c = 0; c < D; c++) oi[c] = acc[c] / l;
        }
    }
}
