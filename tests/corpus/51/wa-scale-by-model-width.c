/* expect: WA scale_sqrt_d */
/* the softmax temperature uses the full model dimension, 1/sqrt(H*D), instead of the head dimension D. */
#include <math.h>
#include <stdlib.h>

void gqa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int Hkv, int T, int S, int D, int causal)
{
    const size_t qstride_h = (size_t)T * D;
    const size_t kstride_h = (size_t)S * D;
    const float scale = 1.0f / sqrtf((float)(H * D));
    float *acc = (float *)calloc((size_t)D, sizeof(float));
    if (!acc) return;

    for (int bh = 0; bh < B * H; bh++) {
        int b = bh / H, h = bh % H;
        int kvh = h / (H / Hkv);
        const float *Q = q + (size_t)bh * qstride_h;
        float *O = out + (size_t)bh * qstride_h;
        const float *K = k + ((size_t)b * Hkv + kvh) * kstride_h;
        const float *V = v + ((size_t)b * Hkv + kvh) * kstride_h;

        for (int i = 0; i < T; i++) {
            const float *qi = Q + (size_t)i * D;
            int end = causal ? (S - T) + i + 1 : S;
            float m = -INFINITY, l = 0.0f;
            for (int c = 0; c < D; c++) acc[c] = 0.0f;
            for (int j = 0; j < end; j++) {
                const float *kj = K + (size_t)j * D, *vj = V + (size_t)j * D;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qi[c] * kj[c];
                s *= scale;
                float mnew = s > m ? s : m;
                float a = expf(m - mnew);
                float p = expf(s - mnew);
                l = l * a + p;
                for (int c = 0; c < D; c++) acc[c] = acc[c] * a + p * vj[c];
                m = mnew;
            }
            float *oi = O + (size_t)i * D;
            for (int c = 0; c < D; c++) oi[c] = acc[c] / l;
        }
    }
    free(acc);
}
