/* expect: WA head_split_offset_missing */
/* Each head's dot products and weighted sums read q, k and v at
 * row*d + c, without the head's h*D: every head attends with head 0's
 * features, though it writes its own slot of the concatenation. */
#include <math.h>
#include <stdlib.h>

static void linear(float *y, const float *x, const float *w, int rows, int d)
{
    for (int r = 0; r < rows; r++) {
        float *yr = y + r * d;
        for (int o = 0; o < d; o++) yr[o] = 0.0f;
        for (int i = 0; i < d; i++) {
            const float xi = x[r * d + i], *wi = w + i * d;
            for (int o = 0; o < d; o++) yr[o] += xi * wi[o];
        }
    }
}

void mha(float *out, const float *x,
         const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    const int D = d / n_heads;
    float *Q = malloc(sizeof(float) * 4 * T * d), *K = Q + T * d, *V = K + T * d, *C = V + T * d;
    float *e = malloc(sizeof(float) * T);
    for (int b = 0; b < B; b++) {
        linear(Q, x + b * T * d, wq, T, d);
        linear(K, x + b * T * d, wk, T, d);
        linear(V, x + b * T * d, wv, T, d);
        for (int h = 0; h < n_heads; h++)
            for (int i = 0; i < T; i++) {
                float top = -INFINITY, z = 0.0f;
                for (int j = 0; j < T; j++) {
                    int off = (causal && j > i) || (mask && !mask[b * T + j]);
                    float dot = 0.0f;
                    for (int c = 0; c < D && !off; c++) dot += Q[i * d + c] * K[j * d + c];   /* no h*D */
                    e[j] = off ? -INFINITY : dot / sqrtf((float)D);
                    if (e[j] > top) top = e[j];
                }
                for (int j = 0; j < T; j++) z += e[j] = e[j] == -INFINITY ? 0.0f : expf(e[j] - top);
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j < T; j++) acc += e[j] * V[j * d + c];
                    C[i * d + h * D + c] = z > 0.0f ? acc / z : 0.0f;
                }
            }
        linear(out + b * T * d, C, wo, T, d);
    }
    free(Q);
    free(e);
}
