/* expect: WA causal_offset_negated */
/* Three passes in double; the causal test compares j with i + (T - S), the offset turned around. */
#include <math.h>
#include <stdlib.h>

void sdpa(float *out, const float *q, const float *k, const float *v,
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
                    int visible = !causal || j <= i + (T - S);
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
