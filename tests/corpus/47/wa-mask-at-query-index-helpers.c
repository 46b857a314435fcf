/* expect: WA mask_at_query_index */
/* The beginner's helpers, with can_see() looking the padding mask up at the
 * query's index i instead of the key's j. */
#include <math.h>
#include <stdlib.h>

float dot(const float *a, const float *b, int n)
{
    float total = 0;
    for (int c = 0; c < n; c++) {
        total = total + a[c] * b[c];
    }
    return total;
}

int can_see(const unsigned char *mask, int b, int i, int j, int T, int S, int causal)
{
    if (causal == 1 && j > i + (S - T)) {
        return 0;
    }
    if (mask != NULL && mask[b * S + i] == 0) {
        return 0;
    }
    return 1;
}

void attend_one(float *o, const float *qi, const float *K, const float *V,
                const unsigned char *mask, int b, int i, int T, int S, int D, int causal)
{
    float *weight = malloc(S * sizeof(float));
    float biggest = -INFINITY;
    for (int j = 0; j < S; j++) {
        if (can_see(mask, b, i, j, T, S, causal)) {
            weight[j] = dot(qi, &K[j * D], D) / (float)sqrt(D);
            if (weight[j] > biggest) {
                biggest = weight[j];
            }
        }
    }
    float total = 0;
    for (int j = 0; j < S; j++) {
        if (can_see(mask, b, i, j, T, S, causal)) {
            weight[j] = (float)exp(weight[j] - biggest);
        } else {
            weight[j] = 0;
        }
        total = total + weight[j];
    }
    for (int c = 0; c < D; c++) {
        float sum = 0;
        for (int j = 0; j < S; j++) {
            sum = sum + weight[j] * V[j * D + c];
        }
        if (total == 0) {
            o[c] = 0;
        } else {
            o[c] = sum / total;
        }
    }
    free(weight);
}

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            int n = b * H + h;
            for (int i = 0; i < T; i++) {
                attend_one(&out[(n * T + i) * D], &q[(n * T + i) * D], &k[n * S * D],
                           &v[n * S * D], mask, b, i, T, S, D, causal);
            }
        }
    }
}
