/* expect: WA padding_on_queries */
#include <math.h>
void cross_attention(float *out, const float *q, const float *k, const float *v,
                     const unsigned char *enc_mask, int B, int H, int T, int S, int D)
{
    double sc[65];
    for (int b = 0; b < B; b++)
    for (int h = 0; h < H; h++)
    for (int i = 0; i < T; i++) {
        const float *qi = q + ((b * H + h) * T + i) * D;
        const float *K = k + (b * H + h) * S * D, *V = v + (b * H + h) * S * D;
        double mx = -1e300, z = 0; int cnt = 0;
        for (int j = 0; j < S; j++) {
            int real = 1;
            double s = 0; for (int c = 0; c < D; c++) s += (double)qi[c] * K[j * D + c];
            sc[j] = real ? s / sqrt((double)D) : -1e30;
            if (real) { cnt++; if (sc[j] > mx) mx = sc[j]; }
        }
        for (int j = 0; j < S; j++) { sc[j] = sc[j] <= -1e29 ? 0.0 : exp(sc[j] - mx); z += sc[j]; }
        for (int c = 0; c < D; c++) {
            double a = 0; for (int j = 0; j < S; j++) a += sc[j] * V[j * D + c];
            out[((b * H + h) * T + i) * D + c] = cnt ? (float)(a / z) : 0.0f;
        }
        if (enc_mask && i < S && !enc_mask[b * S + i]) for (int c = 0; c < D; c++) out[((b * H + h) * T + i) * D + c] = 0;
    }
}
