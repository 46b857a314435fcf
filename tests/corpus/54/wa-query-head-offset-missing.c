/* expect: WA @head */
/* Each head's block of k, v and out is found right, but the query block is
 * taken at b*H*T*D: the head term is gone, so every head asks head 0's
 * questions. Head 0 comes out right in every batch, the rest wrong. */
#include <math.h>
#include <stdlib.h>

#define AT(base, row, col, width) ((base)[(size_t)(row) * (width) + (col)])

static float dot(const float *a, const float *b, int n)
{
    float s = 0;
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

void cross_attention(float *out, const float *q, const float *k, const float *v,
                     const unsigned char *enc_mask, int B, int H, int T, int S, int D)
{
    float *w = malloc(sizeof(float) * (S > 0 ? S : 1));
    const float inv = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            size_t blk = (size_t)(b * H + h);
            const float *Q = q + (size_t)b * H * T * D;          /* the slip: no + h*T*D */
            const float *K = k + blk * S * D, *V = v + blk * S * D;
            float *O = out + blk * T * D;
            for (int t = 0; t < T; t++) {
                float m = -INFINITY, z = 0;
                for (int s = 0; s < S; s++) {
                    int keep = !enc_mask || enc_mask[b * S + s];
                    w[s] = keep ? dot(&AT(Q, t, 0, D), &AT(K, s, 0, D), D) * inv : -INFINITY;
                    m = fmaxf(m, w[s]);
                }
                for (int s = 0; s < S; s++) {
                    w[s] = w[s] == -INFINITY ? 0 : expf(w[s] - m);
                    z += w[s];
                }
                for (int c = 0; c < D; c++) {
                    float acc = 0;
                    for (int s = 0; s < S; s++) acc += w[s] * AT(V, s, c, D);
                    AT(O, t, c, D) = z > 0 ? acc / z : 0;
                }
            }
        }
    free(w);
}
