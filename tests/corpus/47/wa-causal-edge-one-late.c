/* expect: WA causal_one_ahead */
/* Builds the visible range of each query as [0, end) with end one past the
 * right one: end = pos + 2, so a query also sees the key just after it. */
#include <math.h>
#include <stdlib.h>

static int visible_end(int pos, int S, int causal)
{
    if (!causal) return S;
    int end = pos + 2;            /* keys 0 .. pos, "plus one for the range" */
    return end < S ? end : S;
}

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    float *w = malloc(sizeof(float) * (size_t)S);
    const float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const size_t qo = (size_t)(b * H + h) * T * D, ko = (size_t)(b * H + h) * S * D;
            for (int i = 0; i < T; i++) {
                const int end = visible_end(i + S - T, S, causal);
                float hi = -INFINITY, tot = 0.0f;
                for (int j = 0; j < end; j++) {
                    w[j] = -INFINITY;
                    if (mask && !mask[b * S + j]) continue;
                    float dot = 0.0f;
                    for (int c = 0; c < D; c++) dot += q[qo + (size_t)i * D + c] * k[ko + (size_t)j * D + c];
                    w[j] = dot * scale;
                    hi = w[j] > hi ? w[j] : hi;
                }
                for (int j = 0; j < end; j++) tot += w[j] = w[j] == -INFINITY ? 0.0f : expf(w[j] - hi);
                for (int c = 0; c < D; c++) {
                    float a = 0.0f;
                    for (int j = 0; j < end; j++) a += w[j] * v[ko + (size_t)j * D + c];
                    out[qo + (size_t)i * D + c] = tot > 0.0f ? a / tot : 0.0f;
                }
            }
        }
    free(w);
}
