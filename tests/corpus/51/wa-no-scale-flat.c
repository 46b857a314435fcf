/* expect: WA no_scale */
/* Flat batch x head loop that stores the dot product as the score, unscaled. */
#include <math.h>
#include <stdlib.h>

void gqa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int Hkv, int T, int S, int D, int causal)
{
    float *p = malloc((size_t)S * sizeof(float));
    if (p == NULL) return;
    const int group = H / Hkv;
    for (int bh = 0; bh < B * H; bh++) {
        int b = bh / H, h = bh % H;
        int kvh = h / group;
        const float *qp = q + (size_t)bh * T * D;
        const float *kp = k + ((size_t)b * Hkv + kvh) * S * D;
        const float *vp = v + ((size_t)b * Hkv + kvh) * S * D;
        for (int i = 0; i < T; i++, qp += D) {
            int nk = causal ? S - T + i + 1 : S;
            float mx = -INFINITY;
            for (int j = 0; j < nk; j++) {
                const float *kr = kp + (size_t)j * D;
                float d = 0.0f;
                for (int c = 0; c < D; c++) d += qp[c] * kr[c];
                p[j] = d;
                if (p[j] > mx) mx = p[j];
            }
            float tot = 0.0f;
            for (int j = 0; j < nk; j++) tot += (p[j] = expf(p[j] - mx));
            float *op = out + ((size_t)bh * T + i) * D;
            for (int c = 0; c < D; c++) op[c] = 0.0f;
            for (int j = 0; j < nk; j++) {
                float w = p[j] / tot;
                for (int c = 0; c < D; c++) op[c] += w * vp[(size_t)j * D + c];
            }
        }
    }
    free(p);
}
