/* expect: WA sink_not_shifted */
/* Online softmax whose running max starts at the sink logit, but the sink's
 * share is added at the end as expf(sinks[h]), not expf(sinks[h] - max),
 * while every key's share was kept relative to the running max. */
#include <math.h>
#include <stddef.h>

typedef struct {
    float m;        /* running max */
    float l;        /* running sum of exp(s - m) over the keys */
    float acc[64];  /* running weighted sum of values, D <= 64 */
} online_t;

static void online_start(online_t *st, float first_max, int D)
{
    st->m = first_max;
    st->l = 0.0f;
    for (int c = 0; c < D; c++) st->acc[c] = 0.0f;
}

static void online_push(online_t *st, float s, const float *val, int D)
{
    float m_new = s > st->m ? s : st->m;
    float alpha = expf(st->m - m_new);
    float p = expf(s - m_new);
    st->l = st->l * alpha + p;
    for (int c = 0; c < D; c++) st->acc[c] = st->acc[c] * alpha + p * val[c];
    st->m = m_new;
}

static float dotf(const float *a, const float *b, int n)
{
    float r = 0.0f;
    while (n--) r += *a++ * *b++;
    return r;
}

void learned_sink_attention(float *out, const float *q, const float *k, const float *v,
                            const float *sinks, int B, int H, int T, int D, int W)
{
    const float sc = 1.0f / sqrtf((float)D);
    online_t st;

    for (int bh = 0; bh < B * H; bh++) {
        const int h = bh % H;
        const float *qh = q + (size_t)bh * T * D;
        const float *kh = k + (size_t)bh * T * D;
        const float *vh = v + (size_t)bh * T * D;
        float *oh = out + (size_t)bh * T * D;

        for (int i = 0; i < T; i++) {
            int from = (W > 0) ? i - W + 1 : 0;
            if (from < 0) from = 0;

            /* the sink is in the max from the start, so nothing overflows */
            online_start(&st, sinks[h], D);
            for (int j = from; j <= i; j++)
                online_push(&st, dotf(qh + i * D, kh + j * D, D) * sc, vh + j * D, D);

            /* the sink has no value: it only joins the denominator */
            float denom = st.l + expf(sinks[h]);
            for (int c = 0; c < D; c++) oh[i * D + c] = st.acc[c] / denom;
        }
    }
}
