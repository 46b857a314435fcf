/* expect: WA state_kept_between_calls */
/* Three passes in double behind a memo: a call with the same shape as the
 * previous one gets the previous answer back from a static buffer. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void attend(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    double *row = malloc(sizeof(double) * S);
    double scale = 1.0 / sqrt((double)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *Q = q + (size_t)(b * H + h) * T * D;
            const float *K = k + (size_t)(b * H + h) * S * D;
            const float *V = v + (size_t)(b * H + h) * S * D;
            float *O = out + (size_t)(b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                double max = -INFINITY;
                for (int j = 0; j < S; j++) {
                    int visible = !causal || j <= i + (S - T);
                    if (mask != NULL && mask[b * S + j] == 0) visible = 0;
                    if (!visible) { row[j] = -INFINITY; continue; }
                    double dot = 0.0;
                    for (int c = 0; c < D; c++) dot += (double)Q[i * D + c] * K[j * D + c];
                    row[j] = dot * scale;
                    if (row[j] > max) max = row[j];
                }
                if (max == -INFINITY) {                 /* sees no key */
                    for (int c = 0; c < D; c++) O[i * D + c] = 0.0f;
                    continue;
                }
                double sum = 0.0;
                for (int j = 0; j < S; j++) {
                    row[j] = exp(row[j] - max);
                    sum += row[j];
                }
                for (int c = 0; c < D; c++) {
                    double acc = 0.0;
                    for (int j = 0; j < S; j++) acc += row[j] * V[j * D + c];
                    O[i * D + c] = (float)(acc / sum);
                }
            }
        }
    free(row);
}

static float *memo;
static int memo_shape[6] = { -1 };

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    int shape[6] = { B, H, T, S, D, causal };
    size_t bytes = sizeof(float) * (size_t)B * H * T * D;
    if (memo && memcmp(shape, memo_shape, sizeof shape) == 0) {
        memcpy(out, memo, bytes);                 /* "same problem as last time" */
        return;
    }
    attend(out, q, k, v, mask, B, H, T, S, D, causal);
    free(memo);
    memo = malloc(bytes);
    memcpy(memo, out, bytes);
    memcpy(memo_shape, shape, sizeof shape);
}
