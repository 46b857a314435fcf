/* expect: WA kv_head_divided_by_hkv */
/* Online softmax in double, one pass over the keys; the kv head taken as h / n_kv, as if Hkv were the group size. */
#include <math.h>
#include <stddef.h>

void gqa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int Hkv, int T, int S, int D, int causal)
{
    double acc[64];
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            int kvh = h / Hkv;
            const float *kb = k + ((size_t)b * Hkv + kvh) * S * D, *vb = v + ((size_t)b * Hkv + kvh) * S * D;
            for (int i = 0; i < T; i++) {
                const float *qi = q + (((size_t)b * H + h) * T + i) * D;
                double m = -INFINITY, l = 0.0;
                for (int c = 0; c < D; c++) acc[c] = 0.0;
                int last = causal ? i + S - T : S - 1;
                for (int j = 0; j <= last; j++) {
                    double s = 0.0;
                    for (int c = 0; c < D; c++) s += (double)qi[c] * kb[(size_t)j * D + c];
                    s /= sqrt((double)D);
                    double m2 = s > m ? s : m, a = exp(m - m2), e = exp(s - m2);
                    l = l * a + e;
                    for (int c = 0; c < D; c++) acc[c] = acc[c] * a + e * vb[(size_t)j * D + c];
                    m = m2;
                }
                for (int c = 0; c < D; c++) out[(((size_t)b * H + h) * T + i) * D + c] = (float)(acc[c] / l);
            }
        }
}
