/* expect: WA cache_layout_head_major */
/* The textbook step, with the caches indexed head-major: head h of row j
 * at ((b*H + h)*S_max + j)*D. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void rope_turn(float *x, int D, int pos, int theta)
{
    int half = D / 2;
    for (int i = 0; i < half; i++) {
        float angle = (float)pos * powf((float)theta, -2.0f * i / D);
        float c = cosf(angle), s = sinf(angle), a = x[i], b = x[i + half];
        x[i] = a * c - b * s;
        x[i + half] = b * c + a * s;
    }
}

void rope_decode_step(float *out, float *k_cache, float *v_cache, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D, int theta)
{
    int row = H * D;
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * S_max), *qh = malloc(sizeof(float) * D);
    for (int b = 0; b < B; b++) {
        float *kc = k_cache + (size_t)b * S_max * row, *vc = v_cache + (size_t)b * S_max * row;
        int n = len[b];
        for (int h = 0; h < H; h++) {
            memcpy(kc + ((size_t)h * S_max + n) * D, k + b * row + h * D, sizeof(float) * D);
            memcpy(vc + ((size_t)h * S_max + n) * D, v + b * row + h * D, sizeof(float) * D);
            rope_turn(kc + ((size_t)h * S_max + n) * D, D, n, theta);
            memcpy(qh, q + b * row + h * D, sizeof(float) * D);
            rope_turn(qh, D, n, theta);
            float max = -INFINITY, sum = 0.0f;
            for (int j = 0; j <= n; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qh[c] * kc[((size_t)h * S_max + j) * D + c];
                p[j] = s * scale;
                if (p[j] > max) max = p[j];
            }
            for (int j = 0; j <= n; j++) {
                p[j] = expf(p[j] - max);
                sum += p[j];
            }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= n; j++) acc += p[j] * vc[((size_t)h * S_max + j) * D + c];
                out[b * row + h * D + c] = acc / sum;
            }
        }
        len[b] = n + 1;
    }
    free(p);
    free(qh);
}
