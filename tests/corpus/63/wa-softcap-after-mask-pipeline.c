/* expect: WA softcap_after_mask */
/* Staged row that masks the future to -inf first and caps afterwards: -inf becomes -cap. */
#include <math.h>

static float row[65];   /* S <= 65 */

/* A score row over every key, built step by step: scale, cap, bias, then
 * the causal mask, then the softmax. */
void alibi_softcap_attention(float *out, const float *q, const float *k, const float *v,
                             int B, int H, int T, int S, int D, int cap, int alibi)
{
    const float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *Q = q + (b * H + h) * T * D, *K = k + (b * H + h) * S * D;
            const float *V = v + (b * H + h) * S * D;
            float slope = exp2f(-8.0f * (h + 1) / H);
            for (int i = 0; i < T; i++) {
                int pos = i + S - T;
                for (int j = 0; j < S; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += Q[i * D + c] * K[j * D + c];
                    row[j] = s * scale;
                }
                for (int j = 0; j < S; j++)
                    if (j > pos) row[j] = -INFINITY;
                if (cap > 0)
                    for (int j = 0; j < S; j++) row[j] = cap * tanhf(row[j] / cap);
                if (alibi)
                    for (int j = 0; j < S; j++) row[j] += slope * (j - pos);
                float mx = -INFINITY, z = 0.0f;
                for (int j = 0; j < S; j++) mx = fmaxf(mx, row[j]);
                for (int j = 0; j < S; j++) z += row[j] = expf(row[j] - mx);
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j < S; j++) acc += row[j] / z * V[j * D + c];
                    out[((b * H + h) * T + i) * D + c] = acc;
                }
            }
        }
}
