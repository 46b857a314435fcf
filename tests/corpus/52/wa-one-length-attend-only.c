/* expect: WA one_length_for_batch */
/* Appends every sequence at its own length, then attends with n = len[0] for all of them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    size_t row = (size_t)H * D;
    for (int b = 0; b < B; b++) {
        memcpy(k_cache + ((size_t)b * S_max + len[b]) * row, k + b * row, row * sizeof(float));
        memcpy(v_cache + ((size_t)b * S_max + len[b]) * row, v + b * row, row * sizeof(float));
    }
    int n = len[0] + 1;
    float *e = calloc(S_max, sizeof(float));
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            float best = -INFINITY, tot = 0.0f;
            for (int j = 0; j < n; j++) {
                float d = 0.0f;
                for (int c = 0; c < D; c++)
                    d += q[b * row + h * D + c] * k_cache[((size_t)b * S_max + j) * row + h * D + c];
                e[j] = d / sqrtf((float)D);
                if (e[j] > best) best = e[j];
            }
            for (int j = 0; j < n; j++) tot += e[j] = expf(e[j] - best);
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j < n; j++) acc += e[j] * v_cache[((size_t)b * S_max + j) * row + h * D + c];
                out[b * row + h * D + c] = acc / tot;
            }
        }
    for (int b = 0; b < B; b++) len[b] += 1;
    free(e);
}
