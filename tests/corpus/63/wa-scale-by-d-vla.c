/* expect: WA scale_by_d */
/* The scores are divided by D, not sqrt(D); the scores live in a VLA. */
#include <math.h>

void alibi_softcap_attention(float *out, const float *q, const float *k, const float *v,
                             int B, int H, int T, int S, int D, int cap, int alibi)
{
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < T; i++) {
                float sc[S];
                int pos = i + S - T;
                float mx = -INFINITY;
                for (int j = 0; j <= pos; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++)
                        s += q[((b * H + h) * T + i) * D + c] * k[((b * H + h) * S + j) * D + c];
                    s = s / D;
                    if (cap > 0) s = cap * tanhf(s / cap);
                    if (alibi) s += powf(2.0f, -8.0f * (h + 1) / H) * (j - pos);
                    sc[j] = s;
                    if (s > mx) mx = s;
                }
                float sum = 0.0f;
                for (int j = 0; j <= pos; j++) { sc[j] = expf(sc[j] - mx); sum += sc[j]; }
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j <= pos; j++) acc += sc[j] * v[((b * H + h) * S + j) * D + c];
                    out[((b * H + h) * T + i) * D + c] = acc / sum;
                }
            }
}
