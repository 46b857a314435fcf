/* expect: WA depends_on_earlier_calls */
/* Beginner helpers; the answer is computed into a static array on the
 * first call only, and every later call copies that array out. */
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
    if (mask != NULL && mask[b * S + j] == 0) {
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

void compute_all(float *out, const float *q, const float *k, const float *v,
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

float saved[3 * 4 * 33 * 33];
int have_saved = 0;

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    if (have_saved == 0) {
        compute_all(saved, q, k, v, mask, B, H, T, S, D, causal);
        have_saved = 1;
    }
    for (int n = 0; n < B * H * T * D; n++) {
        out[n] = saved[n];
    }
}
