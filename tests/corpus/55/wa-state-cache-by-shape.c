/* expect: WA depends_on_earlier_calls */
/* Keeps the last out and lse (when small) and returns them again for a call with the same shape. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define KT 16   /* keys per tile */

void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    (void)scratch;
    (void)n_scratch;
    static float *saved;
    static int saved_shape[6] = { -1 };
    int shape[6] = { B, H, T, S, D, causal };
    long n_out = (long)B * H * T * D, n_lse = (long)B * H * T;
    if (saved && memcmp(shape, saved_shape, sizeof shape) == 0) {   /* already done */
        memcpy(out, saved, sizeof(float) * n_out);
        memcpy(lse, saved + n_out, sizeof(float) * n_lse);
        return;
    }
    const float scale = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (long)bh * T * D;
        const float *K = k + (long)bh * S * D, *V = v + (long)bh * S * D;
        for (int i = 0; i < T; i++) {
            int n_keys = causal ? i + S - T + 1 : S;   /* bottom-right aligned */
            float acc[17] = { 0 };   /* D <= 17 */
            float m = -INFINITY, l = 0.0f, s[KT];
            for (int j0 = 0; j0 < n_keys; j0 += KT) {
                int nc = n_keys - j0 < KT ? n_keys - j0 : KT;
                float tile_max = -INFINITY;
                for (int t = 0; t < nc; t++) {
                    const float *kr = K + (long)(j0 + t) * D;
                    float d = 0.0f;
                    for (int c = 0; c < D; c++) d += Q[(long)i * D + c] * kr[c];
                    s[t] = d * scale;
                    if (s[t] > tile_max) tile_max = s[t];
                }
                float m_new = m > tile_max ? m : tile_max;
                float alpha = expf(m - m_new);
                l *= alpha;
                for (int c = 0; c < D; c++) acc[c] *= alpha;
                for (int t = 0; t < nc; t++) {
                    float p = expf(s[t] - m_new);
                    l += p;
                    for (int c = 0; c < D; c++) acc[c] += p * V[(long)(j0 + t) * D + c];
                }
                m = m_new;
            }
            float *o = out + ((long)bh * T + i) * D;
            for (int c = 0; c < D; c++) o[c] = acc[c] / l;
            lse[(long)bh * T + i] = m + logf(l);
        }
    }
    if (n_out + n_lse <= 65536) {   /* small enough to keep */
        free(saved);
        saved = malloc(sizeof(float) * (n_out + n_lse));
        if (saved) {
            memcpy(saved, out, sizeof(float) * n_out);
            memcpy(saved + n_out, lse, sizeof(float) * n_lse);
            memcpy(saved_shape, shape, sizeof shape);
        }
    }
}
