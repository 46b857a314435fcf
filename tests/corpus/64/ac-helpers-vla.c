/* expect: AC */
/* Helpers for the cache index and the dot product; rounds by hand (+-0.5 then a cast), VLAs for the scores, and the new row read back from the cache it was just written to. */
#include <math.h>
#include <stddef.h>

static size_t slot(int b, int j, int h, int S_max, int H) { return ((size_t)b * S_max + j) * H + h; }

static void put(signed char *q8, float *scale, const float *x, int D)
{
    float top = 0.0f;
    for (int c = 0; c < D; c++) if (fabsf(x[c]) > top) top = fabsf(x[c]);
    if (top == 0.0f) {
        *scale = 0.0f;
        for (int c = 0; c < D; c++) q8[c] = 0;
        return;
    }
    *scale = top / 127.0f;
    for (int c = 0; c < D; c++) {
        float t = x[c] / *scale;
        int r = (int)(t + (t >= 0.0f ? 0.5f : -0.5f));
        q8[c] = (signed char)(r > 127 ? 127 : r < -127 ? -127 : r);
    }
}

static float dot_dq(const float *a, const signed char *q8, float s, int D)
{
    float acc = 0.0f;
    for (int c = 0; c < D; c++) acc += a[c] * ((float)q8[c] * s);
    return acc;
}

void int8_decode_step(float *out, signed char *k_q, signed char *v_q,
                      float *k_scale, float *v_scale, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D)
{
    for (int b = 0; b < B; b++) {
        int n = len[b];
        for (int h = 0; h < H; h++) {
            size_t at = slot(b, n, h, S_max, H);
            put(k_q + at * D, k_scale + at, k + ((size_t)b * H + h) * D, D);
            put(v_q + at * D, v_scale + at, v + ((size_t)b * H + h) * D, D);
        }
        for (int h = 0; h < H; h++) {
            float sc[n + 1], mx = -INFINITY, z = 0.0f;
            float *o = out + ((size_t)b * H + h) * D;
            for (int j = 0; j <= n; j++) {
                size_t r = slot(b, j, h, S_max, H);
                sc[j] = dot_dq(q + ((size_t)b * H + h) * D, k_q + r * D, k_scale[r], D) / sqrtf((float)D);
                mx = fmaxf(mx, sc[j]);
            }
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            for (int j = 0; j <= n; j++) {
                size_t r = slot(b, j, h, S_max, H);
                float e = expf(sc[j] - mx);
                z += e;
                for (int c = 0; c < D; c++) o[c] += e * (float)v_q[r * D + c] * v_scale[r];
            }
            for (int c = 0; c < D; c++) o[c] /= z;
        }
        len[b] = n + 1;
    }
}
