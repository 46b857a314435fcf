/* expect: AC */
/* Folds the splits two at a time, as a merge of two states (vLLM's merge_attn_states): the running state and the next split combined by log-add-exp, -inf on either side handled. */
#include <math.h>

static void merge_two(float *o, float *l, const float *o2, float l2, int D)
{
    if (l2 == -INFINITY) return;
    if (*l == -INFINITY) {
        for (int c = 0; c < D; c++) o[c] = o2[c];
        *l = l2;
        return;
    }
    float m = *l > l2 ? *l : l2;
    float a = expf(*l - m), b = expf(l2 - m), s = a + b;
    for (int c = 0; c < D; c++) o[c] = (a * o[c] + b * o2[c]) / s;
    *l = m + logf(s);
}

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    int rows = B * H;
    for (int r = 0; r < rows; r++) {
        float *o = out + r * D;
        for (int c = 0; c < D; c++) o[c] = 0.0f;
        lse[r] = -INFINITY;
        for (int p = 0; p < P; p++) merge_two(o, &lse[r], o_part + (p * rows + r) * D, lse_part[p * rows + r], D);
    }
}
