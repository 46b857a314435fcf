/* expect: WA freq_exponent_integer */
/* The frequency exponent computed in int arithmetic: every pair turns by the position itself. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* rotate src into dst at position pos (pairs i, i + D/2) */
static void rot(float *dst, const float *src, int D, int pos, int theta)
{
    int half = D / 2;
    for (int i = 0; i < half; i++) {
        float ang = (float)pos * powf((float)theta, -2 * i / D);
        float c = cosf(ang), s = sinf(ang);
        float a = src[i], b = src[i + half];
        dst[i] = a * c - b * s;
        dst[i + half] = b * c + a * s;
    }
}

void rope_decode_step(float *out, float *k_cache, float *v_cache, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D, int theta)
{
    int HD = H * D;
    float scale = 1.0f / sqrtf((float)D);
    float *qr = malloc(sizeof(float) * D);
    float *w = malloc(sizeof(float) * S_max);
    for (int b = 0; b < B; b++) {
        int n = len[b];
        int pos = n;
        float *Kb = k_cache + (size_t)b * S_max * HD, *Vb = v_cache + (size_t)b * S_max * HD;
        for (int h = 0; h < H; h++) {
            rot(Kb + n * HD + h * D, k + b * HD + h * D, D, pos, theta);
            memcpy(Vb + n * HD + h * D, v + b * HD + h * D, sizeof(float) * D);
        }
        for (int h = 0; h < H; h++) {
            rot(qr, q + b * HD + h * D, D, pos, theta);
            float m = -INFINITY, z = 0.0f;
            for (int j = 0; j <= n; j++) {
                const float *kj = Kb + j * HD + h * D;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qr[c] * kj[c];
                w[j] = s * scale;
                if (w[j] > m) m = w[j];
            }
            for (int j = 0; j <= n; j++) { w[j] = expf(w[j] - m); z += w[j]; }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= n; j++) acc += w[j] * Vb[j * HD + h * D + c];
                out[b * HD + h * D + c] = acc / z;
            }
        }
        len[b] = n + 1;
    }
    free(qr); free(w);
}
