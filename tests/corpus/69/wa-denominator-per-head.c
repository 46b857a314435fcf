/* expect: WA sum_not_reset */
/* The selection and the max are per query, but the denominator is a
 * variable of the head: zeroed before the loop over the queries, so every
 * row divides by the exp-sums of the rows before it too. Selection by
 * repeated argmax over the visible keys (ties to the lower index). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    float *sc = malloc(sizeof(float) * (size_t)T);
    char *taken = malloc((size_t)T);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D, *K = k + (size_t)bh * T * D, *V = v + (size_t)bh * T * D;
        float denom = 0.0f;                           /* once per head */
        for (int i = 0; i < T; i++) {
            for (int j = 0; j <= i; j++) {
                float d = 0.0f;
                for (int c = 0; c < D; c++) d += Q[i * D + c] * K[j * D + c];
                sc[j] = d * (1.0f / sqrtf((float)D));
            }
            memset(taken, 0, (size_t)i + 1);
            int n = topk < i + 1 ? topk : i + 1;
            for (int pick = 0; pick < n; pick++) {     /* best remaining, lowest index on a tie */
                int best = -1;
                for (int j = 0; j <= i; j++)
                    if (!taken[j] && (best < 0 || sc[j] > sc[best])) best = j;
                taken[best] = 1;
            }
            float mx = -INFINITY;
            for (int j = 0; j <= i; j++) if (taken[j] && sc[j] > mx) mx = sc[j];
            for (int j = 0; j <= i; j++) if (taken[j]) denom += sc[j] = expf(sc[j] - mx);
            for (int c = 0; c < D; c++) {
                float a = 0.0f;
                for (int j = 0; j <= i; j++) if (taken[j]) a += sc[j] * V[j * D + c];
                out[((size_t)bh * T + i) * D + c] = a / denom;
            }
        }
    }
    free(sc);
    free(taken);
}
