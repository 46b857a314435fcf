/* expect: WA new_token_not_attended */
/* Appends k and v, but attends over the n old keys only (j < n): the new token does not see itself. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    float *p = malloc(sizeof(float) * S_max);
    for (int b = 0; b < B; b++) {
        int n = len[b];
        for (int h = 0; h < H; h++)
            for (int c = 0; c < D; c++) {
                k_cache[((b * S_max + n) * H + h) * D + c] = k[(b * H + h) * D + c];
                v_cache[((b * S_max + n) * H + h) * D + c] = v[(b * H + h) * D + c];
            }
        for (int h = 0; h < H; h++) {
            float max = -INFINITY, sum = 0.0f;
            for (int j = 0; j < n; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++)
                    s += q[(b * H + h) * D + c] * k_cache[((b * S_max + j) * H + h) * D + c];
                p[j] = s / sqrtf((float)D);
                if (p[j] > max) max = p[j];
            }
            for (int j = 0; j < n; j++) {
                p[j] = expf(p[j] - max);
                sum += p[j];
            }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j < n; j++)
                    acc += p[j] * v_cache[((b * S_max + j) * H + h) * D + c];
                out[(b * H + h) * D + c] = (sum > 0 ? acc / sum : 0.0f);
            }
        }
        len[b] = n + 1;
    }
    free(p);
}
