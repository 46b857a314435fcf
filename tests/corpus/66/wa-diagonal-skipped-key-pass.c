/* expect: WA diagonal_tiles_skipped */
/* In the dK/dV pass, the query loop starts at the first query that sees the whole key tile, so queries on the diagonal tile are skipped. */
#include <math.h>
#include <stdlib.h>

enum { KT = 64, QT = 16 };

static float dotf(const float *a, const float *b, int n)
{
    float s = 0.0f;
    for (int c = 0; c < n; c++) s += a[c] * b[c];
    return s;
}

void flash_attention_backward(float *dq, float *dk, float *dv, const float *q,
                              const float *k, const float *v, const float *out,
                              const float *lse, const float *d_out, int B, int H, int T,
                              int S, int D, int causal)
{
    float scale = 1.0f / sqrtf((float)D);
    float *Dv = malloc(sizeof(float) * T);
    int shift = S - T;   /* query i sees keys j <= i + shift */

    for (int bh = 0; bh < B * H; bh++) {
        const float *qh = q + (long)bh * T * D, *kh = k + (long)bh * S * D;
        const float *vh = v + (long)bh * S * D, *oh = out + (long)bh * T * D;
        const float *gh = d_out + (long)bh * T * D, *lh = lse + (long)bh * T;
        float *dqh = dq + (long)bh * T * D, *dkh = dk + (long)bh * S * D, *dvh = dv + (long)bh * S * D;

        for (int i = 0; i < T; i++) Dv[i] = dotf(gh + (long)i * D, oh + (long)i * D, D);

        /* pass 1: dK and dV, key tiles outer */
        for (int j0 = 0; j0 < S; j0 += KT) {
            int j1 = j0 + KT < S ? j0 + KT : S;
            for (long e = (long)j0 * D; e < (long)j1 * D; e++) dkh[e] = dvh[e] = 0.0f;
            int ifirst = causal ? j1 - 1 - shift : 0; /* first query that sees the tile */
            if (ifirst < 0) ifirst = 0;
            for (int i = ifirst; i < T; i++) {
                const float *qi = qh + (long)i * D, *gi = gh + (long)i * D;
                for (int j = j0; j < j1; j++) {
                    if (causal && j > i + shift) break;
                    float p = expf(scale * dotf(qi, kh + (long)j * D, D) - lh[i]);
                    float ds = p * (dotf(gi, vh + (long)j * D, D) - Dv[i]);
                    for (int c = 0; c < D; c++) {
                        dvh[(long)j * D + c] += p * gi[c];
                        dkh[(long)j * D + c] += scale * ds * qi[c];
                    }
                }
            }
        }
        /* pass 2: dQ, query tiles outer */
        for (int i0 = 0; i0 < T; i0 += QT) {
            int i1 = i0 + QT < T ? i0 + QT : T;
            for (int i = i0; i < i1; i++) {
                const float *qi = qh + (long)i * D, *gi = gh + (long)i * D;
                float *dqi = dqh + (long)i * D;
                int jend = causal ? i + shift + 1 : S;
                if (jend > S) jend = S;
                for (int c = 0; c < D; c++) dqi[c] = 0.0f;
                for (int j = 0; j < jend; j++) {
                    float p = expf(scale * dotf(qi, kh + (long)j * D, D) - lh[i]);
                    float ds = p * (dotf(gi, vh + (long)j * D, D) - Dv[i]);
                    for (int c = 0; c < D; c++) dqi[c] += scale * ds * kh[(long)j * D + c];
                }
            }
        }
    }
    free(Dv);
}
