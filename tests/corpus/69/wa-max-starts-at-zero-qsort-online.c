/* expect: WA max_starts_at_zero */
/* qsort of (score, index) pairs, score descending then index ascending, then an online softmax over the first topk with VLAs; the online max m starts at 0.0f instead of -INFINITY. */
#include <math.h>
#include <stdlib.h>

struct cand { float s; int j; };

static int by_score(const void *x, const void *y)
{
    const struct cand *a = x, *b = y;
    if (a->s != b->s) return a->s < b->s ? 1 : -1;
    return a->j - b->j;
}

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    float scale = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D, *K = k + (size_t)bh * T * D, *V = v + (size_t)bh * T * D;
        for (int i = 0; i < T; i++) {
            struct cand cs[i + 1];
            for (int j = 0; j <= i; j++) {
                float d = 0.0f;
                for (int c = 0; c < D; c++) d += Q[i * D + c] * K[j * D + c];
                cs[j].s = d * scale;
                cs[j].j = j;
            }
            qsort(cs, i + 1, sizeof cs[0], by_score);
            int n = i + 1 < topk ? i + 1 : topk;
            float acc[D], m = 0.0f, l = 0.0f;
            for (int c = 0; c < D; c++) acc[c] = 0.0f;
            for (int t = 0; t < n; t++) {
                float nm = fmaxf(m, cs[t].s);
                float r = expf(m - nm), p = expf(cs[t].s - nm);
                l = l * r + p;
                for (int c = 0; c < D; c++) acc[c] = acc[c] * r + p * V[cs[t].j * D + c];
                m = nm;
            }
            for (int c = 0; c < D; c++) out[((size_t)bh * T + i) * D + c] = acc[c] / l;
        }
    }
}
