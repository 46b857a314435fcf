/* expect: WA sum_not_reset */
/* softmax sum not reset per query row -- `float sum = 0.0f;` declared once at the top of the function (max is reset per row); otherwise a plain two-pass softmax, loops b, head, query; malloc'd score buffer; pointer-walking projection helper */
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void linear(float *y, const float *x, const float *w, int rows, int d)
{
    for (int r = 0; r < rows; r++, x += d, y += d) {
        for (int j = 0; j < d; j++) {
            const float *wp = w + j;
            float acc = 0.0f;
            for (int i = 0; i < d; i++, wp += d) acc += x[i] * *wp;
            y[j] = acc;
        }
    }
}

void mha(float *out, const float *x,
         const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    const int hs = d / n_heads;
    const float inv = 1.0f / sqrtf((float)hs);
    float *q = malloc(sizeof(float) * B * T * d);
    float *k = malloc(sizeof(float) * B * T * d);
    float *v = malloc(sizeof(float) * B * T * d);
    float *y = malloc(sizeof(float) * B * T * d);
    float *att = malloc(sizeof(float) * T);
    float sum = 0.0f;

    linear(q, x, wq, B * T, d);
    linear(k, x, wk, B * T, d);
    linear(v, x, wv, B * T, d);

    for (int b = 0; b < B; b++) {
        for (int h = 0; h < n_heads; h++) {
            for (int i = 0; i < T; i++) {
                const float *qi = q + (b * T + i) * d + h * hs;
                float maxv = -INFINITY;
                for (int j = 0; j < T; j++) {
                    if ((causal && j > i) || (mask && !mask[b * T + j])) {
                        att[j] = -INFINITY;
                        continue;
                    }
                    const float *kj = k + (b * T + j) * d + h * hs;
                    float s = 0.0f;
                    for (int c = 0; c < hs; c++) s += qi[c] * kj[c];
                    att[j] = s * inv;
                    if (att[j] > maxv) maxv = att[j];
                }
                for (int j = 0; j < T; j++) {
                    att[j] = (att[j] == -INFINITY) ? 0.0f : expf(att[j] - maxv);
                    sum += att[j];
                }
                float *yi = y + (b * T + i) * d + h * hs;
                for (int c = 0; c < hs; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j < T; j++)
                        acc += att[j] * v[(b * T + j) * d + h * hs + c];
                    yi[c] = (sum > 0.0f) ? acc / sum : 0.0f;
                }
            }
        }
    }

    linear(out, y, wo, B * T, d);
    free(q); free(k); free(v); free(y); free(att);
}
