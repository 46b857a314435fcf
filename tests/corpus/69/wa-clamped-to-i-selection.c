/* expect: WA topk_clamped_to_i */
/* Selects keys by repeated argmax, min(topk, i) picks for query i, which
 * sees keys 0 .. i: one pick short while i < topk, none for query 0 (its
 * output left at zero). */
#include <math.h>
#include <stdlib.h>

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    float *s = malloc(sizeof(float) * (size_t)T);
    unsigned char *taken = malloc((size_t)T);
    const float scale = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *qh = q + (size_t)bh * T * D, *kh = k + (size_t)bh * T * D, *vh = v + (size_t)bh * T * D;
        for (int i = 0; i < T; i++) {
            float *o = out + ((size_t)bh * T + i) * D;
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            for (int j = 0; j <= i; j++) {
                float d = 0.0f;
                for (int c = 0; c < D; c++) d += qh[i * D + c] * kh[j * D + c];
                s[j] = d * scale;
                taken[j] = 0;
            }
            int picks = topk < i ? topk : i;
            float best = -INFINITY, sum = 0.0f;
            for (int p = 0; p < picks; p++) {
                int arg = -1;
                for (int j = 0; j <= i; j++)
                    if (!taken[j] && (arg < 0 || s[j] > s[arg])) arg = j;
                taken[arg] = 1;
                if (p == 0) best = s[arg];
            }
            for (int j = 0; j <= i; j++) {
                if (!taken[j]) continue;
                float w = expf(s[j] - best);
                sum += w;
                for (int c = 0; c < D; c++) o[c] += w * vh[j * D + c];
            }
            for (int c = 0; c < D && sum > 0.0f; c++) o[c] /= sum;
        }
    }
    free(s);
    free(taken);
}
