/* expect: WA attends_one_row_past */
/* The reference, with the keys counted as n + 1 and then looped over with <=: rows 0 .. len + 1, one stale row too many. */
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
    int row = H * D;   /* one cached position: all heads of one token */
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * S_max), *qh = malloc(sizeof(float) * D);
    for (int b = 0; b < B; b++) {
        float *kc = k_cache + (size_t)b * S_max * row, *vc = v_cache + (size_t)b * S_max * row;
        int n = len[b], keys = n + 1;
        memcpy(kc + n * row, k + b * row, sizeof(float) * row);
        memcpy(vc + n * row, v + b * row, sizeof(float) * row);
        for (int h = 0; h < H; h++) {
            rope_turn(kc + n * row + h * D, D, n, theta);   /* the cache keeps keys turned */
            memcpy(qh, q + b * row + h * D, sizeof(float) * D);
            rope_turn(qh, D, n, theta);
            float max = -INFINITY, sum = 0.0f;
            for (int j = 0; j <= keys; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qh[c] * kc[j * row + h * D + c];
                p[j] = s * scale;
                if (p[j] > max) max = p[j];
            }
            for (int j = 0; j <= keys; j++) {
                p[j] = expf(p[j] - max);
                sum += p[j];
            }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= keys; j++) acc += p[j] * vc[j * row + h * D + c];
                out[b * row + h * D + c] = acc / sum;
            }
        }
        len[b] = n + 1;
    }
    free(p);
    free(qh);
}
