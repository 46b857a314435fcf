/* expect: WA value_rotated */
/* Turns the value too (values are never rotated), otherwise right. */
#include <math.h>
#include <string.h>

#define AT(c, b, j, h) ((c) + (((size_t)(b) * S_max + (j)) * H + (h)) * D)

/* Turns x [D] to position pos in double; pairs (i, i + D/2). */
static void turn(double *x, int D, long pos, double theta)
{
    for (int i = 0; i < D / 2; i++) {
        double a = (double)pos * pow(theta, -2.0 * i / D), u = x[i], w = x[i + D / 2];
        x[i] = u * cos(a) - w * sin(a);
        x[i + D / 2] = w * cos(a) + u * sin(a);
    }
}

void rope_decode_step(float *out, float *k_cache, float *v_cache, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D, int theta)
{
    double qd[D], kd[D], acc[D];
    for (int b = 0; b < B; b++) {
        int n = len[b];
        for (int h = 0; h < H; h++) {
            const float *qs = q + ((size_t)b * H + h) * D, *ks = k + ((size_t)b * H + h) * D;
            for (int c = 0; c < D; c++) { qd[c] = qs[c]; kd[c] = ks[c]; }
            turn(qd, D, n, theta);
            turn(kd, D, n, theta);
            double vd[D];
            for (int c = 0; c < D; c++) vd[c] = v[((size_t)b * H + h) * D + c];
            turn(vd, D, n, theta);
            float *kn = AT(k_cache, b, n, h), *vn = AT(v_cache, b, n, h);
            for (int c = 0; c < D; c++) {
                kn[c] = (float)kd[c];
                vn[c] = (float)vd[c];
            }
            /* online softmax over rows 0 .. n */
            double m = -INFINITY, l = 0.0;
            for (int c = 0; c < D; c++) acc[c] = 0.0;
            for (int j = 0; j <= n; j++) {
                const float *kj = AT(k_cache, b, j, h), *vj = AT(v_cache, b, j, h);
                double s = 0.0;
                for (int c = 0; c < D; c++) s += qd[c] * kj[c];
                s /= sqrt((double)D);
                double m2 = s > m ? s : m, corr = exp(m - m2), e = exp(s - m2);
                l = l * corr + e;
                for (int c = 0; c < D; c++) acc[c] = acc[c] * corr + e * vj[c];
                m = m2;
            }
            for (int c = 0; c < D; c++) out[((size_t)b * H + h) * D + c] = (float)(acc[c] / l);
        }
        len[b] = n + 1;
    }
}
