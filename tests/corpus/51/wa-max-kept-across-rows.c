/* expect: WA max_not_per_row */
/* The running max set once per (batch, head) and kept from row to row: exact in theory, but a row far below an earlier one underflows. */
#include <math.h>
#include <stdlib.h>

void gqa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int Hkv, int T, int S, int D, int causal)
{
    float *p = malloc(sizeof(float) * (size_t)S);
    const int group = H / Hkv;
    const float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *Q = q + ((size_t)b * H + h) * T * D;
            const float *K = k + ((size_t)b * Hkv + h / group) * S * D;
            const float *V = v + ((size_t)b * Hkv + h / group) * S * D;
            float *O = out + ((size_t)b * H + h) * T * D;
            float mx = -INFINITY;
            for (int i = 0; i < T; i++) {
                int n = causal ? i + S - T + 1 : S;
                for (int j = 0; j < n; j++) {
                    float d = 0.0f;
                    for (int c = 0; c < D; c++) d += Q[i * D + c] * K[j * D + c];
                    p[j] = d * scale;
                    if (p[j] > mx) mx = p[j];
                }
                float z = 0.0f;
                for (int j = 0; j < n; j++) z += p[j] = expf(p[j] - mx);
                for (int c = 0; c < D; c++) {
                    float a = 0.0f;
                    for (int j = 0; j < n; j++) a += p[j] * V[j * D + c];
                    O[i * D + c] = a / z;
                }
            }
        }
    free(p);
}
