/* expect: WA kv_head_modulo+no_scale */
/* Two mistakes at once: kv head h % Hkv (repeat instead of repeat_interleave), and no 1/sqrt(D). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void gqa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int Hkv, int T, int S, int D, int causal)
{
    size_t head = (size_t)S * D;
    float *K = malloc(sizeof(float) * B * H * head), *V = malloc(sizeof(float) * B * H * head);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            int src = b * Hkv + h % Hkv;
            memcpy(K + (b * H + h) * head, k + src * head, sizeof(float) * head);
            memcpy(V + (b * H + h) * head, v + src * head, sizeof(float) * head);
        }
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            double m = -INFINITY, l = 0.0, acc[64] = { 0 };
            for (int j = 0; j < S; j++) {
                if (causal && j > i + S - T) break;
                double s = 0.0;
                for (int c = 0; c < D; c++) s += (double)q[(bh * T + i) * D + c] * K[bh * head + j * D + c];
                /* (the 1/sqrt(D) scale is missing) */
                double m2 = fmax(m, s), r = exp(m - m2), w = exp(s - m2);
                for (int c = 0; c < D; c++) acc[c] = acc[c] * r + w * V[bh * head + j * D + c];
                l = l * r + w;
                m = m2;
            }
            for (int c = 0; c < D; c++) out[(bh * T + i) * D + c] = (float)(acc[c] / l);
        }
    free(K);
    free(V);
}
