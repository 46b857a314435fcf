/* expect: WA acc_not_reset */
/* output accumulator (static array) zeroed once above all loops instead of per query row; online softmax seeded from key 0, loops b -> kv group -> member head -> i, pointer arithmetic, -1e9f style initial max */
#include <math.h>

static float o_acc[128];

void gqa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int Hkv, int T, int S, int D, int causal)
{
    const int G = H / Hkv;
    const float sc = 1.0f / sqrtf((float)D);
    for (int c = 0; c < D; c++) o_acc[c] = 0.0f;
    for (int b = 0; b < B; b++)
        for (int g = 0; g < Hkv; g++)
            for (int r = 0; r < G; r++) {
                const int h = g * G + r;
                const float *Kp = k + ((long)b * Hkv + g) * S * D;
                const float *Vp = v + ((long)b * Hkv + g) * S * D;
                for (int i = 0; i < T; i++) {
                    const float *qi = q + ((long)(b * H + h) * T + i) * D;
                    float *oi = out + ((long)(b * H + h) * T + i) * D;
                    const int nk = causal ? i + S - T + 1 : S;
                    float m = -1e9f, l = 0.0f;
                    for (int j = 0; j < nk; j++) {
                        const float *kj = Kp + (long)j * D, *vj = Vp + (long)j * D;
                        float s = 0.0f;
                        for (int c = 0; c < D; c++) s += qi[c] * kj[c];
                        s *= sc;
                        if (j == 0) m = s;
                        float mn = s > m ? s : m;
                        float a = expf(m - mn), e = expf(s - mn);
                        l = l * a + e;
                        for (int c = 0; c < D; c++) o_acc[c] = o_acc[c] * a + e * vj[c];
                        m = mn;
                    }
                    for (int c = 0; c < D; c++) oi[c] = o_acc[c] / l;
                }
            }
}
