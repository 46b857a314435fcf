/* expect: WA kv_head_divided_by_hkv */
/* Per-head pointers to k and v at kv head h / Hkv: right for H = 4, Hkv = 2, past the last kv head for 8 heads over 2. */
#include <math.h>
#include <stdlib.h>
void gqa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int Hkv, int T, int S, int D, int causal)
{
    int group = H / Hkv;
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * S);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            int g = h / Hkv; (void)group;
            const float *K = k + ((long)b * Hkv + g) * S * D;
            const float *V = v + ((long)b * Hkv + g) * S * D;
            for (int i = 0; i < T; i++) {
                const float *qi = q + (((long)b * H + h) * T + i) * D;
                float *oi = out + (((long)b * H + h) * T + i) * D;
                int n = causal ? i + (S - T) + 1 : S;
                float m = -INFINITY;
                for (int j = 0; j < n; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qi[c] * K[(long)j * D + c];
                    p[j] = s * scale;
                    if (p[j] > m) m = p[j];
                }
                float sum = 0.0f;
                for (int j = 0; j < n; j++) { p[j] = expf(p[j] - m); sum += p[j]; }
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j < n; j++) acc += p[j] * V[(long)j * D + c];
                    oi[c] = acc / sum;
                }
            }
        }
    free(p);
}
