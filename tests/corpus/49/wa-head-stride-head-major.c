/* expect: WA head_stride */
/* Head-major buffers filled with the wrong split: feature f goes to head
 * f % H (every H-th feature); the concatenation is contiguous. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

/* dst[h][t][c] = (x . w)[t][h * D + c]: the projection, already split. */
static void project_heads(float *dst, const float *x, const float *w, int T, int d, int H)
{
    int D = d / H;
    for (int t = 0; t < T; t++)
        for (int f = 0; f < d; f++) {
            float s = 0.0f;
            for (int i = 0; i < d; i++) s += x[t * d + i] * w[i * d + f];
            dst[((f % H) * T + t) * D + f / H] = s;
        }
}

void mha(float *out, const float *x,
         const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    int D = d / n_heads;
    float scale = 1.0f / sqrtf((float)D);
    size_t td = (size_t)T * d;
    float *buf = malloc(sizeof(float) * (4 * td + T));
    float *Q = buf, *K = Q + td, *V = K + td, *cat = V + td, *w = cat + td;
    for (int b = 0; b < B; b++) {
        const float *xb = x + b * td;
        const unsigned char *mb = mask ? mask + b * T : NULL;
        project_heads(Q, xb, wq, T, d, n_heads);
        project_heads(K, xb, wk, T, d, n_heads);
        project_heads(V, xb, wv, T, d, n_heads);
        for (int h = 0; h < n_heads; h++) {
            const float *Qh = Q + (size_t)h * T * D, *Kh = K + (size_t)h * T * D;
            const float *Vh = V + (size_t)h * T * D;
            for (int i = 0; i < T; i++) {
                float *o = cat + (size_t)i * d + h * D;
                float top = -FLT_MAX;
                int seen = 0;
                for (int j = 0; j < T; j++) {
                    w[j] = -FLT_MAX;               /* exp() of it is 0 */
                    if (causal && j > i) continue;
                    if (mb && !mb[j]) continue;
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += Qh[i * D + c] * Kh[j * D + c];
                    w[j] = s * scale;
                    top = fmaxf(top, w[j]);
                    seen++;
                }
                if (!seen) {
                    for (int c = 0; c < D; c++) o[c] = 0.0f;
                    continue;
                }
                float z = 0.0f;
                for (int j = 0; j < T; j++) z += w[j] = expf(w[j] - top);
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j < T; j++) acc += w[j] * Vh[j * D + c];
                    o[c] = acc / z;
                }
            }
        }
        for (int t = 0; t < T; t++)
            for (int f = 0; f < d; f++) {
                float s = 0.0f;
                for (int i = 0; i < d; i++) s += cat[t * d + i] * wo[i * d + f];
                out[b * td + t * d + f] = s;
            }
    }
    free(buf);
}
