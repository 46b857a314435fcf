/* expect: WA softmax_overflow */
/* softmax without max */
#include <math.h>
#include <stdlib.h>
/* a T x T visibility mask built once per call, then masked softmax with -INFINITY scores */
void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    unsigned char *M = calloc((size_t)T * T, 1), *isg = calloc(T ? T : 1, 1);
    float *s = malloc(sizeof(float) * (T ? T : 1));
    for (int g = 0; g < G; g++) isg[global_idx[g]] = 1;
    for (int i = 0; i < T; i++)
        for (int j = 0; j <= i; j++)
            M[i * T + j] = (i - j < W) || isg[i] || isg[j];
    float sc = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((size_t)bh * T + i) * D;
            float mx = -INFINITY;
            for (int j = 0; j < T; j++) {
                if (!M[i * T + j]) { s[j] = -INFINITY; continue; }
                float d = 0; for (int c = 0; c < D; c++) d += qi[c] * k[((size_t)bh * T + j) * D + c];
                s[j] = d * sc; mx = fmaxf(mx, s[j]);
            }
            float z = 0;
            for (int j = 0; j < T; j++) { s[j] = M[i * T + j] ? expf(s[j]) : 0.f; z += s[j]; }
            for (int c = 0; c < D; c++) {
                float a = 0;
                for (int j = 0; j < T; j++) a += s[j] * v[((size_t)bh * T + j) * D + c];
                out[((size_t)bh * T + i) * D + c] = a / z;
            }
        }
    free(M); free(isg); free(s);
}
