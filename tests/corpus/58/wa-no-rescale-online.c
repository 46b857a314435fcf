/* expect: WA no_rescale */
/* Decode step with an online softmax over the cache; neither the sum nor the accumulator is rescaled when the max grows. */
#include <math.h>
#include <stddef.h>

void rope_decode_step(float *out, float *k_cache, float *v_cache, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D, int theta)
{
    int half = D / 2;
    for (int b = 0; b < B; b++) {
        int n = len[b];
        for (int h = 0; h < H; h++) {
            const float *qs = q + (b * H + h) * D, *ks = k + (b * H + h) * D, *vs = v + (b * H + h) * D;
            float *kc = k_cache + ((size_t)(b * S_max + n) * H + h) * D;
            float *vc = v_cache + ((size_t)(b * S_max + n) * H + h) * D;
            float qr[D];
            for (int i = 0; i < half; i++) {
                float a = n * powf(theta, -2.0f * i / D), c = cosf(a), s = sinf(a);
                qr[i] = qs[i] * c - qs[i + half] * s; qr[i + half] = qs[i + half] * c + qs[i] * s;
                kc[i] = ks[i] * c - ks[i + half] * s; kc[i + half] = ks[i + half] * c + ks[i] * s;
            }
            for (int c = 0; c < D; c++) vc[c] = vs[c];
            float m = -INFINITY, l = 0, acc[D];
            for (int c = 0; c < D; c++) acc[c] = 0;
            for (int j = 0; j <= n; j++) {
                const float *kj = k_cache + ((size_t)(b * S_max + j) * H + h) * D;
                const float *vj = v_cache + ((size_t)(b * S_max + j) * H + h) * D;
                float s = 0;
                for (int c = 0; c < D; c++) s += qr[c] * kj[c];
                s /= sqrtf(D);
                if (s > m) m = s;            /* forgot: l and acc *= expf(m_old - m) */
                float p = expf(s - m);
                l += p;
                for (int c = 0; c < D; c++) acc[c] += p * vj[c];
            }
            for (int c = 0; c < D; c++) out[(b * H + h) * D + c] = acc[c] / l;
        }
        len[b] = n + 1;
    }
}
