/* expect: WA kv_swapped */
/* after splitting heads, the scores are taken against the value slices and the weighted sum is over the key slices (K and V used the wrong way round). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void mha(float *out, const float *x,
         const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    int H = n_heads, D = d / n_heads;
    float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++) {
        const float *xb = x + (size_t)b * T * d;
        float (*qh)[T][D] = malloc(sizeof(float[H][T][D]));
        float (*kh)[T][D] = malloc(sizeof(float[H][T][D]));
        float (*vh)[T][D] = malloc(sizeof(float[H][T][D]));
        float (*cat)[d] = malloc(sizeof(float[T][d]));

        for (int t = 0; t < T; t++)
            for (int f = 0; f < d; f++) {
                float a = 0, c = 0, e = 0;
                for (int i = 0; i < d; i++) {
                    a += xb[t * d + i] * wq[i * d + f];
                    c += xb[t * d + i] * wk[i * d + f];
                    e += xb[t * d + i] * wv[i * d + f];
                }
                qh[f / D][t][f % D] = a;
                kh[f / D][t][f % D] = c;
                vh[f / D][t][f % D] = e;
            }

        for (int h = 0; h < H; h++)
            for (int i = 0; i < T; i++) {
                float w[T];
                float mx = -INFINITY;
                for (int j = 0; j < T; j++) {
                    int ok = (!causal || j <= i) && (!mask || mask[b * T + j]);
                    float s = 0;
                    if (ok) for (int c = 0; c < D; c++) s += qh[h][i][c] * vh[h][j][c];
                    w[j] = ok ? s * scale : -INFINITY;
                    if (w[j] > mx) mx = w[j];
                }
                float z = 0;
                for (int j = 0; j < T; j++) {
                    w[j] = (mx == -INFINITY || w[j] == -INFINITY) ? 0.0f : expf(w[j] - mx);
                    z += w[j];
                }
                for (int c = 0; c < D; c++) {
                    float a = 0;
                    for (int j = 0; j < T; j++) a += w[j] * kh[h][j][c];
                    cat[i][h * D + c] = z > 0 ? a / z : 0.0f;
                }
            }

        for (int t = 0; t < T; t++)
            for (int f = 0; f < d; f++) {
                float a = 0;
                for (int i = 0; i < d; i++) a += cat[t][i] * wo[i * d + f];
                out[((size_t)b * T + t) * d + f] = a;
            }
        free(qh); free(kh); free(vh); free(cat);
    }
}
