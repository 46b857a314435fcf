/* expect: WA lse_base_two+exp_base_two */
/* 在线 softmax，一次一个查询、一次一个键；为了快把 expf 全换成 exp2f，
 * 可是分数没有乘 log2(e)：整个 softmax 都以 2 为底。lse 按自然对数算。 */
#include <math.h>

void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    (void)scratch; (void)n_scratch;
    const float sc = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (long)bh * T * D, *K = k + (long)bh * S * D, *V = v + (long)bh * S * D;
        float *O = out + (long)bh * T * D;
        for (int i = 0; i < T; i++) {
            float m = -INFINITY, l = 0.0f;
            float *o = O + i * D;
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            int last = causal ? i + S - T : S - 1;
            for (int j = 0; j <= last && j < S; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += Q[i * D + c] * K[j * D + c];
                s *= sc;
                float mn = s > m ? s : m;
                float a = exp2f(m - mn), p = exp2f(s - mn);   /* exp2 更快 */
                l = l * a + p;
                for (int c = 0; c < D; c++) o[c] = o[c] * a + p * V[j * D + c];
                m = mn;
            }
            if (l > 0.0f) {
                for (int c = 0; c < D; c++) o[c] /= l;
                lse[(long)bh * T + i] = m + logf(l);
            } else {
                lse[(long)bh * T + i] = -INFINITY;
            }
        }
    }
}
