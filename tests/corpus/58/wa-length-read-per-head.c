/* expect: WA length_advanced_twice */
/* Each head takes its slot with pos = len[b]++, inside the head loop: head h
 * turns q and k to len + h, stores at row len + h and attends over rows
 * 0 .. len + h; len ends H further on. Past S_max the row lands in the next
 * sequence's rows. */
#include <math.h>
#include <stdlib.h>

#define AT(b, s, h) ((((size_t)(b) * S_max + (s)) * H + (h)) * D)

static void rotate(float *dst, const float *src, int D, int pos, int theta)
{
    for (int i = 0; i < D / 2; i++) {
        double ang = pos * pow((double)theta, -2.0 * i / D);
        float c = (float)cos(ang), s = (float)sin(ang);
        float x0 = src[i], x1 = src[i + D / 2];
        dst[i] = x0 * c - x1 * s;
        dst[i + D / 2] = x1 * c + x0 * s;
    }
}

void rope_decode_step(float *out, float *k_cache, float *v_cache, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D, int theta)
{
    float *qr = malloc(sizeof(float) * D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const size_t in = ((size_t)b * H + h) * D;
            int pos = len[b]++;
            rotate(k_cache + AT(b, pos, h), k + in, D, pos, theta);
            for (int c = 0; c < D; c++) v_cache[AT(b, pos, h) + c] = v[in + c];
            rotate(qr, q + in, D, pos, theta);
            /* one pass: running max m, sum l, output rescaled as m grows */
            float m = -INFINITY, l = 0.0f;
            float *o = out + in;
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            for (int j = 0; j <= pos; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qr[c] * k_cache[AT(b, j, h) + c];
                s /= sqrtf((float)D);
                float mn = s > m ? s : m, r = expf(m - mn), p = expf(s - mn);
                l = l * r + p;
                for (int c = 0; c < D; c++) o[c] = o[c] * r + p * v_cache[AT(b, j, h) + c];
                m = mn;
            }
            for (int c = 0; c < D; c++) o[c] /= l;
        }
    free(qr);
}
