/* expect: WA causal_offset_negated */
/* Every score computed, capped, biased by slope * (j - i), then masked to -INFINITY where j > i - (S - T): the offset's sign flipped. Rows with no key are zeroed. */
#include <math.h>

void alibi_softcap_attention(float *out, const float *q, const float *k, const float *v,
                             int B, int H, int T, int S, int D, int cap, int alibi)
{
    float sc[4096];
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            float m = alibi ? exp2f(-8.0f * (h + 1) / H) : 0.0f;
            long qo = (long)(b * H + h) * T * D, ko = (long)(b * H + h) * S * D;
            for (int i = 0; i < T; i++) {
                float mx = -INFINITY;
                for (int j = 0; j < S; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += q[qo + i * D + c] * k[ko + j * D + c];
                    s /= sqrtf((float)D);
                    if (cap > 0) s = cap * tanhf(s / cap);
                    s -= m * (float)(i - j);
                    if (j > i - (S - T)) s = -INFINITY;
                    sc[j] = s;
                    mx = fmaxf(mx, s);
                }
                float *o = out + qo + (long)i * D;
                for (int c = 0; c < D; c++) o[c] = 0.0f;
                if (mx == -INFINITY) continue;
                float z = 0.0f;
                for (int j = 0; j < S; j++) z += sc[j] = expf(sc[j] - mx);
                for (int j = 0; j < S; j++)
                    for (int c = 0; c < D; c++) o[c] += sc[j] / z * v[ko + j * D + c];
            }
        }
}
