/* expect: WA scale_by_d */
/* Decode step in float; the scores are divided by D where they should be divided by sqrt(D). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void turn(float *x, int D, int pos, int theta)
{
    int half = D / 2;
    for (int i = 0; i < half; i++) {
        float a = (float)pos * powf((float)theta, -2.0f * i / D);
        float c = cosf(a), s = sinf(a), x0 = x[i], x1 = x[i + half];
        x[i] = x0 * c - x1 * s;
        x[i + half] = x1 * c + x0 * s;
    }
}

void rope_decode_step(float *out, float *k_cache, float *v_cache, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D, int theta)
{
    float *sc = malloc(sizeof(float) * S_max), *qr = malloc(sizeof(float) * D);
    for (int b = 0; b < B; b++) {
        int n = len[b];
        int pos = n;
        for (int h = 0; h < H; h++) {
            float *krow = k_cache + ((b * S_max + n) * H + h) * D;
            float *vrow = v_cache + ((b * S_max + n) * H + h) * D;
            memcpy(krow, k + (b * H + h) * D, sizeof(float) * D);
            memcpy(vrow, v + (b * H + h) * D, sizeof(float) * D);
            turn(krow, D, pos, theta);
            memcpy(qr, q + (b * H + h) * D, sizeof(float) * D);
            turn(qr, D, pos, theta);
            float m = -INFINITY, sum = 0.0f;
            for (int j = 0; j <= n; j++) {
                
                const float *kj = k_cache + ((b * S_max + j) * H + h) * D;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qr[c] * kj[c];
                sc[j] = s / (float)D;
                if (sc[j] > m) m = sc[j];
            }
            for (int j = 0; j <= n; j++) { sc[j] = expf(sc[j] - m); sum += sc[j]; }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= n; j++) acc += sc[j] * v_cache[((b * S_max + j) * H + h) * D + c];
                out[(b * H + h) * D + c] = acc / sum;
            }
        }
        len[b] = n + 1;
    }
    free(sc); free(qr);
}
