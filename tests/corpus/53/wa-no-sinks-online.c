/* expect: WA no_sinks */
/* Online softmax over the window only; n_sink is never used. */
#include <math.h>

/* one online-softmax step: key score s with value row vj into (m, l, acc) */
static void take(float s, const float *vj, float *m, float *l, float *acc, int D)
{
    float mn = s > *m ? s : *m;
    float corr = expf(*m - mn), p = expf(s - mn);
    *l = *l * corr + p;
    for (int c = 0; c < D; c++) acc[c] = acc[c] * corr + p * vj[c];
    *m = mn;
}

static float dot(const float *a, const float *b, int D)
{
    float s = 0.0f;
    for (int c = 0; c < D; c++) s += a[c] * b[c];
    return s;
}

void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    (void)n_sink;
    float scale = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + bh * T * D, *K = k + bh * T * D, *V = v + bh * T * D;
        float *O = out + bh * T * D;
        for (int i = 0; i < T; i++) {
            float m = -INFINITY, l = 0.0f, *acc = O + i * D;
            for (int c = 0; c < D; c++) acc[c] = 0.0f;
            int lo = i - window + 1;
            if (lo < 0) lo = 0;
            for (int j = lo; j <= i; j++)
                take(dot(Q + i * D, K + j * D, D) * scale, V + j * D, &m, &l, acc, D);
            for (int c = 0; c < D; c++) acc[c] /= l;
        }
    }
}
