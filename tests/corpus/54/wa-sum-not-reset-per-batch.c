/* expect: WA sum_not_reset */
/* softmax sum not reset per query row -- `float norm = 0.0f;` zeroed once per batch element b, above the head loop; a max pass, then one pass doing exp + norm + P.V into a fixed stack array; padded keys skipped, empty-row guard on the max staying -INFINITY; head loop inside, query loop innermost */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void cross_attention(float *out, const float *q, const float *k, const float *v,
                     const unsigned char *enc_mask, int B, int H, int T, int S, int D)
{
    float scale = 1.0f / sqrtf((float)D);
    float o[64];
    for (int b = 0; b < B; b++) {
        const unsigned char *mb = enc_mask ? &enc_mask[b * S] : NULL;
        float norm = 0.0f;
        for (int h = 0; h < H; h++) {
            const float *kb = &k[(b * H + h) * S * D];
            const float *vb = &v[(b * H + h) * S * D];
            for (int i = 0; i < T; i++) {
                const float *qi = &q[((b * H + h) * T + i) * D];
                float best = -INFINITY;
                for (int j = 0; j < S; j++) {
                    if (mb && !mb[j]) continue;
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qi[c] * kb[j * D + c];
                    if (s * scale > best) best = s * scale;
                }
                float *oi = &out[((b * H + h) * T + i) * D];
                if (best == -INFINITY) {
                    memset(oi, 0, sizeof(float) * D);
                    continue;
                }
                memset(o, 0, sizeof o);
                for (int j = 0; j < S; j++) {
                    if (mb && !mb[j]) continue;
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qi[c] * kb[j * D + c];
                    float e = expf(s * scale - best);
                    norm += e;
                    for (int c = 0; c < D; c++) o[c] += e * vb[j * D + c];
                }
                for (int c = 0; c < D; c++) oi[c] = o[c] / norm;
            }
        }
    }
}
