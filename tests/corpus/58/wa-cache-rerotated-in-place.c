/* expect: WA cached_keys_rerotated */
/* Appends the raw key and then applies RoPE in place to every cache row 0..len[b] at its position, so the old keys get turned a second time on every step. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void rope_decode_step(float *out, float *k_cache, float *v_cache, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D, int theta)
{
    int half = D / 2;
    float *qr = malloc(sizeof(float) * D), *sc = malloc(sizeof(float) * S_max);
    for (int b = 0; b < B; b++) {
        int n = len[b];
        for (int h = 0; h < H; h++) {
            size_t in = ((size_t)b * H + h) * D;
            memcpy(&k_cache[(((size_t)b * S_max + n) * H + h) * D], &k[in], sizeof(float) * D);
            memcpy(&v_cache[(((size_t)b * S_max + n) * H + h) * D], &v[in], sizeof(float) * D);
            /* RoPE on the keys of the whole sequence, and on the query */
            for (int j = 0; j <= n; j++) {
                float *kk = &k_cache[(((size_t)b * S_max + j) * H + h) * D];
                for (int i = 0; i < half; i++) {
                    float a = j * powf((float)theta, -2.0f * i / D);
                    float c = cosf(a), s = sinf(a), x0 = kk[i], x1 = kk[i + half];
                    kk[i] = x0 * c - x1 * s;
                    kk[i + half] = x1 * c + x0 * s;
                }
            }
            for (int i = 0; i < half; i++) {
                float a = n * powf((float)theta, -2.0f * i / D);
                float c = cosf(a), s = sinf(a);
                qr[i] = q[in + i] * c - q[in + i + half] * s;
                qr[i + half] = q[in + i + half] * c + q[in + i] * s;
            }
            float mx = -INFINITY, sum = 0.0f;
            for (int j = 0; j <= n; j++) {
                const float *kk = &k_cache[(((size_t)b * S_max + j) * H + h) * D];
                float d = 0.0f;
                for (int c = 0; c < D; c++) d += qr[c] * kk[c];
                sc[j] = d / sqrtf((float)D);
                if (sc[j] > mx) mx = sc[j];
            }
            for (int j = 0; j <= n; j++) { sc[j] = expf(sc[j] - mx); sum += sc[j]; }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= n; j++)
                    acc += sc[j] * v_cache[(((size_t)b * S_max + j) * H + h) * D + c];
                out[in + c] = acc / sum;
            }
        }
        len[b] = n + 1;
    }
    free(qr); free(sc);
}
