/* expect: WA kv_head_modulo */
/* Heads outer with index helpers, the kv head taken as h % Hkv. */
#include <float.h>
#include <math.h>

static int qidx(int b, int h, int i, int c, int H, int T, int D)
{
    return ((b * H + h) * T + i) * D + c;
}

static int kvidx(int b, int g, int j, int c, int Hkv, int S, int D)
{
    return ((b * Hkv + g) * S + j) * D + c;
}

void gqa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int Hkv, int T, int S, int D, int causal)
{
    double w[S];
    for (int h = 0; h < H; h++) {
        int g = h % Hkv;
        for (int b = 0; b < B; b++) {
            for (int i = 0; i < T; i++) {
                int n = causal ? i + S - T + 1 : S;   /* keys 0 .. n-1 are seen */
                double mx = -DBL_MAX;
                for (int j = 0; j < n; j++) {
                    double s = 0.0;
                    for (int c = 0; c < D; c++)
                        s += (double)q[qidx(b, h, i, c, H, T, D)] * k[kvidx(b, g, j, c, Hkv, S, D)];
                    w[j] = s / sqrt((double)D);
                    if (w[j] > mx) mx = w[j];
                }
                double z = 0.0;
                for (int j = 0; j < n; j++) {
                    w[j] = exp(w[j] - mx);
                    z += w[j];
                }
                for (int c = 0; c < D; c++) {
                    double acc = 0.0;
                    for (int j = 0; j < n; j++) acc += w[j] * v[kvidx(b, g, j, c, Hkv, S, D)];
                    out[qidx(b, h, i, c, H, T, D)] = (float)(acc / z);
                }
            }
        }
    }
}
