/* expect: WA kv_layout_bthd */
/* Written from a Hugging Face habit: the cached keys and values are taken
 * to be [B, S, Hkv, D] (a token's kv heads side by side), the layout
 * before the transpose, while q is read as the [B, H, T, D] it is. */
#include <math.h>
#include <stdlib.h>

#define KV(t, b, j, g, c) (t)[(((size_t)(b) * S + (j)) * Hkv + (g)) * D + (c)]

void gqa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int Hkv, int T, int S, int D, int causal)
{
    const int rep = H / Hkv;
    const float inv_sqrt_d = 1.0f / sqrtf((float)D);
    float *w = malloc(sizeof *w * (size_t)S);
    if (!w) return;
    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            int g = h / rep;
            for (int t = 0; t < T; t++) {
                const float *qi = q + (((size_t)b * H + h) * T + t) * D;
                int n = causal ? t + S - T + 1 : S;
                float m = -INFINITY;
                for (int j = 0; j < n; j++) {
                    float dot = 0.0f;
                    for (int c = 0; c < D; c++) dot += qi[c] * KV(k, b, j, g, c);
                    w[j] = dot * inv_sqrt_d;
                    m = w[j] > m ? w[j] : m;
                }
                float z = 0.0f;
                for (int j = 0; j < n; j++) z += (w[j] = expf(w[j] - m));
                float *o = out + (((size_t)b * H + h) * T + t) * D;
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j < n; j++) acc += w[j] * KV(v, b, j, g, c);
                    o[c] = acc / z;
                }
            }
        }
    }
    free(w);
}
