/* expect: WA exp_factor_ln_two */
/* exp2f(ln2 * x): the constant picked up from the wrong side of exp(x) = 2^(x / ln 2) */
#include <math.h>
#include <stdlib.h>

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * T);
    char *global = calloc(T, 1), *seen = malloc(T);
    for (int g = 0; g < G; g++) global[global_idx[g]] = 1;
    for (int bh = 0; bh < B * H; bh++) {
        const float *qh = q + bh * T * D, *kh = k + bh * T * D, *vh = v + bh * T * D;
        float *oh = out + bh * T * D;
        for (int i = 0; i < T; i++) {
            float max = -INFINITY, sum = 0.0f;
            for (int j = 0; j <= i; j++) {   /* causal: never past i, global or not */
                seen[j] = j > i - W || global[j] || global[i];
                if (!seen[j]) continue;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qh[i * D + c] * kh[j * D + c];
                p[j] = s * scale;
                if (p[j] > max) max = p[j];
            }
            for (int j = 0; j <= i; j++)
                if (seen[j]) sum += p[j] = exp2f(0.6931472f * (p[j] - max));
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= i; j++)
                    if (seen[j]) acc += p[j] * vh[j * D + c];
                oh[i * D + c] = acc / sum;   /* key i is always seen */
            }
        }
    }
    free(p);
    free(global);
    free(seen);
}
