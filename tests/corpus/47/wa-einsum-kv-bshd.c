/* expect: WA kv_layout_bthd */
/* 手写 einsum("bhtd,bhsd->bhts")，k、v 却按还没 permute 的 [B, S, H, D] 取下标 */
#include <math.h>
#include <stdlib.h>

/* k 的下标：以为是 k[b][s][h][d]（transpose(1,2) 之前的形状） */
#define KV(b, j, h, c) ((((size_t)(b) * S + (j)) * H + (h)) * D + (c))

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    float scale = 1.0f / sqrtf((float)D);
    float *att = malloc(sizeof(float) * (size_t)T * S);   /* att = einsum('td,sd->ts') */
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *Q = q + ((size_t)b * H + h) * T * D;
            for (int i = 0; i < T; i++)
                for (int j = 0; j < S; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += Q[i * D + c] * k[KV(b, j, h, c)];
                    int ok = (!mask || mask[b * S + j]) && (!causal || j <= i + S - T);
                    att[i * S + j] = ok ? s * scale : -INFINITY;
                }
            /* softmax(dim=-1) 然后 einsum('ts,sd->td') */
            for (int i = 0; i < T; i++) {
                float *r = att + (size_t)i * S, m = -INFINITY, z = 0.0f;
                for (int j = 0; j < S; j++) m = fmaxf(m, r[j]);
                for (int j = 0; j < S; j++) { r[j] = (r[j] == -INFINITY) ? 0.0f : expf(r[j] - m); z += r[j]; }
                float *o = out + (((size_t)b * H + h) * T + i) * D;
                for (int c = 0; c < D; c++) {
                    float a = 0.0f;
                    for (int j = 0; j < S; j++) a += r[j] * v[KV(b, j, h, c)];
                    o[c] = z > 0.0f ? a / z : 0.0f;
                }
            }
        }
    free(att);
}
