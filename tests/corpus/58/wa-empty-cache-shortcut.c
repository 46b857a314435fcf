/* expect: WA empty_cache_not_appended */
/* The rotation as a helper on a copy; a fresh sequence (len 0) needs no rotation at position 0 and no softmax, so it returns its v and skips the rest, the append included. */
#include <math.h>
#include <string.h>

static void rotate(float *dst, const float *src, int D, int pos, int theta)
{
    int half = D / 2;
    for (int i = 0; i < half; i++) {
        double ang = pos * pow(theta, -2.0 * i / D);
        float c = (float)cos(ang), s = (float)sin(ang);
        dst[i] = src[i] * c - src[i + half] * s;
        dst[i + half] = src[i + half] * c + src[i] * s;
    }
}

void rope_decode_step(float *out, float *k_cache, float *v_cache, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D, int theta)
{
    const int row = H * D;
    const float scale = 1.0f / sqrtf((float)D);
    float qr[D], w[S_max];
    for (int b = 0; b < B; b++) {
        const int pos = len[b];
        if (pos == 0) {
            for (int e = 0; e < row; e++) out[b * row + e] = v[b * row + e];
            continue;
        }
        float *kc = k_cache + (long)b * S_max * row, *vc = v_cache + (long)b * S_max * row;
        for (int h = 0; h < H; h++) rotate(kc + pos * row + h * D, k + b * row + h * D, D, pos, theta);
        memcpy(vc + pos * row, v + b * row, sizeof(float) * row);
        for (int h = 0; h < H; h++) {
            rotate(qr, q + b * row + h * D, D, pos, theta);
            float m = -INFINITY, z = 0.0f;
            for (int j = 0; j <= pos; j++) {
                float d = 0.0f;
                for (int c = 0; c < D; c++) d += qr[c] * kc[j * row + h * D + c];
                w[j] = d * scale;
                m = w[j] > m ? w[j] : m;
            }
            for (int j = 0; j <= pos; j++) z += w[j] = expf(w[j] - m);
            for (int c = 0; c < D; c++) {
                float o = 0.0f;
                for (int j = 0; j <= pos; j++) o += w[j] * vc[j * row + h * D + c];
                out[b * row + h * D + c] = o / z;
            }
        }
        len[b] = pos + 1;
    }
}
