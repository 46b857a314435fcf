/* expect: WA depends_on_earlier_calls */
/* Computes the group size H / Hkv once, into a static, on the first call, and keeps it for every later call. */
#include <math.h>

static float row[65];   /* S <= 65 */

void gqa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int Hkv, int T, int S, int D, int causal)
{
    static int per_kv = 0;
    if (per_kv == 0) per_kv = H / Hkv;   /* only needs doing once */
    float inv = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *qb = q + (b * H + h) * T * D;
            const float *kb = k + (b * Hkv + h / per_kv) * S * D;
            const float *vb = v + (b * Hkv + h / per_kv) * S * D;
            float *ob = out + (b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                float hi = -1e30f;
                for (int j = 0; j < S; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qb[i * D + c] * kb[j * D + c];
                    s *= inv;
                    if (causal && j > i + S - T) s = -1e30f;   /* a future key */
                    row[j] = s;
                    if (s > hi) hi = s;
                }
                float sum = 0.0f;
                for (int j = 0; j < S; j++) {
                    row[j] = expf(row[j] - hi);
                    sum += row[j];
                }
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j < S; j++) acc += row[j] * vb[j * D + c];
                    ob[i * D + c] = sum > 0.0f ? acc / sum : 0.0f;
                }
            }
        }
}
