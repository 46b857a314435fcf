/* expect: WA stale_weights_past_limit */
/* 因果多头注意力：每个头一个分数缓冲区，exp 之后在输出时再除以和。 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define IDX(t, c, n) ((size_t)(t) * (n) + (c))

static void project(const float *x, const float *w, float *y, int T, int n)
{
    for (int t = 0; t < T; t++)
        for (int o = 0; o < n; o++) {
            float a = 0.0f;
            for (int c = 0; c < n; c++) a += x[IDX(t, c, n)] * w[IDX(c, o, n)];
            y[IDX(t, o, n)] = a;
        }
}

void mha(float *y, const float *x, const float *w_q, const float *w_k,
         const float *w_v, const float *w_o, const unsigned char *mask, int B, int T, int d, int H, int causal)
{
    int hd = d / H;
    float *Q = malloc(sizeof(float) * T * d), *K = malloc(sizeof(float) * T * d);
    float *V = malloc(sizeof(float) * T * d), *A = malloc(sizeof(float) * T * d);
    float *e = calloc(T, sizeof(float));
    for (int b = 0; b < B; b++) {
        const float *xb = x + (size_t)b * T * d;
        project(xb, w_q, Q, T, d);
        project(xb, w_k, K, T, d);
        project(xb, w_v, V, T, d);
        for (int h = 0; h < H; h++) {
            int off = h * hd;
            for (int i = 0; i < T; i++) {
                int end = causal ? i + 1 : T;   /* keys 0 .. end-1 */
                float m = -INFINITY, l = 0.0f;
                for (int j = 0; j < end; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < hd; c++) s += Q[IDX(i, off + c, d)] * K[IDX(j, off + c, d)];
                    e[j] = mask && !mask[b * T + j] ? -INFINITY : s / sqrtf((float)hd);
                    m = fmaxf(m, e[j]);
                }
                for (int j = 0; j < end; j++) {
                    e[j] = e[j] == -INFINITY ? 0.0f : expf(e[j] - m);
                    l += e[j];
                }
                for (int c = 0; c < hd; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j < T; j++) acc += e[j] * V[IDX(j, off + c, d)];
                    A[IDX(i, off + c, d)] = l > 0.0f ? acc / l : 0.0f;
                }
            }
        }
        project(A, w_o, y + (size_t)b * T * d, T, d);
    }
    free(Q); free(K); free(V); free(A); free(e);
}
