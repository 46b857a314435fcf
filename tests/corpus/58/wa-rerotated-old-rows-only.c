/* expect: WA cached_keys_rerotated */
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void turn(float *x, int D, int pos, int theta)
{
    int half = D / 2;
    for (int i = 0; i < half; i++) {
        float ang = (float)pos * powf((float)theta, -2.0f * i / D);
        float c = cosf(ang), s = sinf(ang);
        float a = x[i], b = x[i + half];
        x[i] = a * c - b * s;
        x[i + half] = b * c + a * s;
    }
}

void rope_decode_step(float *out, float *k_cache, float *v_cache, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D, int theta)
{
    float qr[64], kr[64];
    float *sc = malloc(sizeof(float) * S_max);
    for (int b = 0; b < B; b++) {
        int n = len[b];
        int pos = n;
        for (int h = 0; h < H; h++) {
            memcpy(qr, q + (b * H + h) * D, D * sizeof(float));
            memcpy(kr, k + (b * H + h) * D, D * sizeof(float));
            turn(qr, D, pos, theta);
            turn(kr, D, pos, theta);
            float *krow = k_cache + ((size_t)(b * S_max + n) * H + h) * D;
            float *vrow = v_cache + ((size_t)(b * S_max + n) * H + h) * D;
            memcpy(krow, kr, D * sizeof(float));
            memcpy(vrow, v + (b * H + h) * D, D * sizeof(float));
            float mx = -INFINITY;
            for (int j = 0; j <= n; j++) {
                float kj[64];
                memcpy(kj, k_cache + ((size_t)(b * S_max + j) * H + h) * D, D * sizeof(float));
                if (j < n) turn(kj, D, j, theta);   /* bring the cached key to its position */
                float s = 0;
                for (int c = 0; c < D; c++) s += qr[c] * kj[c];
                sc[j] = s / sqrtf((float)D);
                if (sc[j] > mx) mx = sc[j];
            }
            float sum = 0;
            for (int j = 0; j <= n; j++) { sc[j] = expf(sc[j] - mx); sum += sc[j]; }
            for (int c = 0; c < D; c++) {
                float acc = 0;
                for (int j = 0; j <= n; j++)
                    acc += sc[j] * v_cache[((size_t)(b * S_max + j) * H + h) * D + c];
                out[(b * H + h) * D + c] = acc / sum;
            }
        }
        len[b] = n + 1;
    }
    free(sc);
}
