/* expect: WA diagonal_masked */
#include <math.h>
#include <stdlib.h>
void gqa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int Hkv, int T, int S, int D, int causal)
{
    float *w = malloc(sizeof(float) * S);
    for (int b = 0; b < B; b++)
    for (int h = 0; h < H; h++) {
        int kvh = h / (H / Hkv);
        const float *K = k + (b * Hkv + kvh) * S * D;
        const float *V = v + (b * Hkv + kvh) * S * D;
        for (int i = 0; i < T; i++) {
            const float *qq = q + ((b * H + h) * T + i) * D;
            float best = -INFINITY; float tot = 0;
            for (int j = 0; j < S; j++) {
                if (causal && j >= i + S - T) { w[j] = -INFINITY; continue; }
                float d = 0; for (int c = 0; c < D; c++) d += qq[c] * K[j * D + c];
                w[j] = d / sqrtf((float)D);
                if (w[j] > best) best = w[j];
            }
            for (int j = 0; j < S; j++) { w[j] = expf(w[j] - best); tot += w[j]; }
            for (int c = 0; c < D; c++) {
                float a = 0; for (int j = 0; j < S; j++) a += w[j] * V[j * D + c];
                out[((b * H + h) * T + i) * D + c] = a / tot;
            }
        }
    }
    free(w);
}
