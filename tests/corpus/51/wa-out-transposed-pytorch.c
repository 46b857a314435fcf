/* expect: WA out_layout_bthd */
/* Translated from PyTorch's out.transpose(1, 2): out written as [B, T, H, D]. */
#include <math.h>
#include <stdlib.h>

/* 输入的下标 */
#define IDX(b,h,t,d)  ((((b) * H + (h)) * T + (t)) * D + (d))
#define KV(b,g,s,d)   ((((b) * Hkv + (g)) * S + (s)) * D + (d))
/* 输出：attn_out.transpose(1, 2) 之后的下标 */
#define OIDX(b,t,h,d) ((((b) * T + (t)) * H + (h)) * D + (d))

void gqa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int Hkv, int T, int S, int D, int causal)
{
    int n_rep = H / Hkv;
    float scale = 1.0f / sqrtf((float)D);
    float *w = malloc(sizeof(float) * S);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++) {
                int g = h / n_rep;
                int hi = causal ? t + S - T : S - 1;
                float mx = -INFINITY, z = 0.0f;
                for (int s = 0; s <= hi; s++) {
                    float a = 0.0f;
                    for (int d = 0; d < D; d++) a += q[IDX(b,h,t,d)] * k[KV(b,g,s,d)];
                    w[s] = a * scale;
                    mx = fmaxf(mx, w[s]);
                }
                for (int s = 0; s <= hi; s++) { w[s] = expf(w[s] - mx); z += w[s]; }
                for (int d = 0; d < D; d++) {
                    float a = 0.0f;
                    for (int s = 0; s <= hi; s++) a += w[s] * v[KV(b,g,s,d)];
                    out[OIDX(b,t,h,d)] = a / z;
                }
            }
    free(w);
}
