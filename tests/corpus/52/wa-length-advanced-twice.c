/* expect: WA length_advanced_twice */
/* Advances len[b] after its heads and again in the final loop: the length grows by two. */
#include <float.h>
#include <math.h>
#include <string.h>

#define CACHE(b, pos, h) ((((b) * S_max + (pos)) * H + (h)) * D)

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    static float sc[65];   /* S_max <= 65 */
    float inv_sqrt_d = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            int n = len[b];
            memcpy(&k_cache[CACHE(b, n, h)], &k[(b * H + h) * D], D * sizeof(float));
            memcpy(&v_cache[CACHE(b, n, h)], &v[(b * H + h) * D], D * sizeof(float));
            float mx = -FLT_MAX;
            for (int j = 0; j <= n; j++) {
                float dot = 0.0f;
                for (int c = 0; c < D; c++) dot += q[(b * H + h) * D + c] * k_cache[CACHE(b, j, h) + c];
                sc[j] = dot * inv_sqrt_d;
                if (sc[j] > mx) mx = sc[j];
            }
            float sum = 0.0f;
            for (int j = 0; j <= n; j++) {
                sc[j] = expf(sc[j] - mx);
                sum += sc[j];
            }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= n; j++) acc += sc[j] * v_cache[CACHE(b, j, h) + c];
                out[(b * H + h) * D + c] = acc / sum;
            }
        }
        len[b]++;
    }
    for (int b = 0; b < B; b++) len[b] += 1;   /* every sequence grew by one token */
}
