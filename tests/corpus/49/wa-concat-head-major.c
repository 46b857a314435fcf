/* expect: WA concat_layout */
/* the per-head outputs stay in [H, T, D] layout and are fed to wo as if they were the concatenated [T, d] matrix (heads never merged back). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void mha(float *out, const float *x,
         const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    const int H = n_heads, D = d / n_heads;
    const float scale = 1.0f / sqrtf((float)D);
    size_t per_b = (size_t)T * d;
    float *qh = malloc(per_b * sizeof(float));   /* [H, T, D] for one sequence */
    float *kh = malloc(per_b * sizeof(float));
    float *vh = malloc(per_b * sizeof(float));
    float *oh = malloc(per_b * sizeof(float));
    float *p = malloc((size_t)T * sizeof(float));

    for (int b = 0; b < B; b++) {
        const float *xb = x + b * per_b;
        for (int t = 0; t < T; t++)
            for (int f = 0; f < d; f++) {
                float a = 0.0f, c = 0.0f, e = 0.0f;
                for (int i = 0; i < d; i++) {
                    a += xb[t * d + i] * wq[i * d + f];
                    c += xb[t * d + i] * wk[i * d + f];
                    e += xb[t * d + i] * wv[i * d + f];
                }
                size_t at = ((size_t)(f / D) * T + t) * D + f % D;
                qh[at] = a; kh[at] = c; vh[at] = e;
            }

        for (int h = 0; h < H; h++) {
            const float *Qh = qh + (size_t)h * T * D, *Kh = kh + (size_t)h * T * D, *Vh = vh + (size_t)h * T * D;
            float *Oh = oh + (size_t)h * T * D;
            for (int i = 0; i < T; i++) {
                float mx = -INFINITY;
                for (int j = 0; j < T; j++) {
                    if ((causal && j > i) || (mask && !mask[b * T + j])) { p[j] = -INFINITY; continue; }
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += Qh[i * D + c] * Kh[j * D + c];
                    p[j] = s * scale;
                    if (p[j] > mx) mx = p[j];
                }
                float z = 0.0f;
                for (int j = 0; j < T; j++) {
                    p[j] = (p[j] == -INFINITY) ? 0.0f : expf(p[j] - mx);
                    z += p[j];
                }
                for (int c = 0; c < D; c++) {
                    float a = 0.0f;
                    for (int j = 0; j < T; j++) a += p[j] * Vh[j * D + c];
                    Oh[i * D + c] = (z > 0.0f) ? a / z : 0.0f;
                }
            }
        }

        /* out = concat(heads) . wo */
        float *ob = out + b * per_b;
        for (int t = 0; t < T; t++)
            for (int f = 0; f < d; f++) {
                float a = 0.0f;
                for (int i = 0; i < d; i++) a += oh[t * d + i] * wo[i * d + f];
                ob[t * d + f] = a;
            }
    }
    free(qh); free(kh); free(vh); free(oh); free(p);
}
