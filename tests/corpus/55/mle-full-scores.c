/* expect: MLE */
/* The textbook way, not FlashAttention: materialises the whole T x S score matrix per head with malloc (16 MiB at T = S = 2048), over the 4 MiB limit. */
#include <math.h>
#include <stdlib.h>

void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    (void)scratch;
    (void)n_scratch;
    float *P = malloc(sizeof(float) * (size_t)T * S);
    for (int bh = 0; bh < B * H; bh++) {
        for (int i = 0; i < T; i++) {
            float mx = -INFINITY, z = 0.0f;
            for (int j = 0; j < S; j++) {
                float s = -INFINITY;
                if (!causal || j <= i + S - T) {
                    s = 0.0f;
                    for (int c = 0; c < D; c++) s += q[((long)bh * T + i) * D + c] * k[((long)bh * S + j) * D + c];
                    s /= sqrtf((float)D);
                }
                P[(long)i * S + j] = s;
                if (s > mx) mx = s;
            }
            for (int j = 0; j < S; j++) z += (P[(long)i * S + j] = expf(P[(long)i * S + j] - mx));
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j < S; j++) acc += P[(long)i * S + j] * v[((long)bh * S + j) * D + c];
                out[((long)bh * T + i) * D + c] = acc / z;
            }
            lse[(long)bh * T + i] = mx + logf(z);
        }
    }
    free(P);
}
