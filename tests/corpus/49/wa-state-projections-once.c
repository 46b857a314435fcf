/* expect: WA depends_on_earlier_calls */
/* Beginner helpers; q, k and v live in static arrays that are projected on
 * the first call only ("the weights do not change"), so later calls attend
 * over stale projections. */
#include <math.h>
#include <stdlib.h>

#define AT(a, row, col, width) a[(row) * (width) + (col)]

void linear(float *y, const float *x, const float *w, int T, int d)
{
    for (int t = 0; t < T; t++) {
        for (int j = 0; j < d; j++) {
            float total = 0;
            for (int i = 0; i < d; i++) {
                total += AT(x, t, i, d) * AT(w, i, j, d);
            }
            AT(y, t, j, d) = total;
        }
    }
}

int visible(const unsigned char *mask, int b, int i, int j, int T, int causal)
{
    if (causal && j > i) return 0;
    if (mask != 0 && mask[b * T + j] == 0) return 0;
    return 1;
}

void one_head(float *cat, const float *Q, const float *K, const float *V,
              const unsigned char *mask, int b, int h, int T, int d, int D, int causal)
{
    float *score = calloc(T, sizeof(float));
    for (int i = 0; i < T; i++) {
        float biggest = -1e30f;
        int count = 0;
        for (int j = 0; j < T; j++) {
            if (visible(mask, b, i, j, T, causal)) {
                float s = 0;
                for (int c = 0; c < D; c++) {
                    s += AT(Q, i, h * D + c, d) * AT(K, j, h * D + c, d);
                }
                score[j] = s / sqrtf(D);
                if (score[j] > biggest) biggest = score[j];
                count++;
            } else {
                score[j] = -1e30f;
            }
        }
        float total = 0;
        for (int j = 0; j < T; j++) {
            score[j] = expf(score[j] - biggest);
            total += score[j];
        }
        for (int c = 0; c < D; c++) {
            float sum = 0;
            for (int j = 0; j < T; j++) {
                sum += score[j] * AT(V, j, h * D + c, d);
            }
            if (count == 0) {
                AT(cat, i, h * D + c, d) = 0;
            } else {
                AT(cat, i, h * D + c, d) = sum / total;
            }
        }
    }
    free(score);
}

void mha(float *out, const float *x,
         const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    int D = d / n_heads;
    static float Q[3][65 * 96], K[3][65 * 96], V[3][65 * 96];
    static int projected = 0;
    float *cat = calloc(T * d, sizeof(float));
    for (int b = 0; b < B; b++) {
        if (!projected) {
            linear(Q[b], &x[b * T * d], wq, T, d);
            linear(K[b], &x[b * T * d], wk, T, d);
            linear(V[b], &x[b * T * d], wv, T, d);
        }
        for (int h = 0; h < n_heads; h++) {
            one_head(cat, Q[b], K[b], V[b], mask, b, h, T, d, D, causal);
        }
        linear(&out[b * T * d], cat, wo, T, d);
    }
    projected = 1;
    free(cat);
}
