/* expect: WA pair_overwritten_in_place */
/* Rotates in place: the upper half x[i + D/2] is computed from x[i] after x[i] has already been turned. */
#include <math.h>
#include <string.h>

static void turn(float *x, int D, int pos, int theta)
{
    int half = D / 2;
    for (int i = 0; i < half; i++) {
        double ang = pos * pow((double)theta, -2.0 * i / D);
        float cs = (float)cos(ang), sn = (float)sin(ang);
        x[i] = x[i] * cs - x[i + half] * sn;
        x[i + half] = x[i + half] * cs + x[i] * sn;
    }
}

void rope_decode_step(float *out, float *k_cache, float *v_cache, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D, int theta)
{
    const double scale = 1.0 / sqrt((double)D);
    float qr[D];
    double acc[D];
    for (int b = 0; b < B; b++) {
        const int pos = len[b];
        for (int h = 0; h < H; h++) {
            size_t tok = (size_t)(b * H + h) * D;
            float *kslot = k_cache + (((size_t)b * S_max + pos) * H + h) * D;
            float *vslot = v_cache + (((size_t)b * S_max + pos) * H + h) * D;
            memcpy(kslot, k + tok, sizeof(float) * D);
            memcpy(vslot, v + tok, sizeof(float) * D);
            turn(kslot, D, pos, theta);
            memcpy(qr, q + tok, sizeof(float) * D);
            turn(qr, D, pos, theta);

            double m = -INFINITY, l = 0.0;
            for (int c = 0; c < D; c++) acc[c] = 0.0;
            for (int j = 0; j <= pos; j++) {
                const float *kj = k_cache + (((size_t)b * S_max + j) * H + h) * D;
                const float *vj = v_cache + (((size_t)b * S_max + j) * H + h) * D;
                double s = 0.0;
                for (int c = 0; c < D; c++) s += (double)qr[c] * kj[c];
                s *= scale;
                if (s > m) {
                    double r = exp(m - s);
                    l *= r;
                    for (int c = 0; c < D; c++) acc[c] *= r;
                    m = s;
                }
                double e = exp(s - m);
                l += e;
                for (int c = 0; c < D; c++) acc[c] += e * vj[c];
            }
            for (int c = 0; c < D; c++) out[tok + c] = (float)(acc[c] / l);
        }
        len[b] = pos + 1;
    }
}
