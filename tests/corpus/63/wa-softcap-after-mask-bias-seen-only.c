/* expect: WA softcap_after_mask */
#include <math.h>
#include <stdlib.h>
/* slope table built from the gentlest up */
void alibi_softcap_attention(float *out, const float *q, const float *k, const float *v,
                             int B, int H, int T, int S, int D, int cap, int alibi)
{
    float *slopes = malloc(sizeof(float) * H), *p = malloc(sizeof(float) * S);
    float r = powf(2.0f, -8.0f / H), x = 1.0f;
    for (int h = 0; h < H; h++) { x *= r; slopes[h] = x; }
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < T; i++) {
                int pos = i + S - T;
                float mx = -INFINITY, z = 0;
                for (int j = 0; j < S; j++) {
                    float s = 0;
                    for (int c = 0; c < D; c++) s += q[((b * H + h) * T + i) * D + c] * k[((b * H + h) * S + j) * D + c];
                    s /= sqrtf(D);
                    if (j > pos) s = -INFINITY;
                    if (cap) s = cap * tanhf(s / cap);
                    if (alibi && j <= pos) s += slopes[h] * (j - pos);
                    p[j] = s; mx = fmaxf(mx, s);
                }
                for (int j = 0; j < S; j++) { p[j] = expf(p[j] - mx); z += p[j]; }
                for (int c = 0; c < D; c++) {
                    float a = 0;
                    for (int j = 0; j < S; j++) a += p[j] * v[((b * H + h) * S + j) * D + c];
                    out[((b * H + h) * T + i) * D + c] = a / z;
                }
            }
    free(slopes); free(p);
}
