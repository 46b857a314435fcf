/* expect: WA no_scale */
/* Online softmax in double without the division by sqrt(D). */
#include <math.h>
#include <stddef.h>

static void quant(signed char *q8, float *scale, const float *x, int D)
{
    float amax = 0.0f;
    for (int i = 0; i < D; i++)
        if (fabsf(x[i]) > amax) amax = fabsf(x[i]);
    float d = amax / 127.0f, id = d ? 1.0f / d : 0.0f;
    *scale = d;
    for (int i = 0; i < D; i++) {
        long r = lrintf(x[i] * id);
        q8[i] = (signed char)(r > 127 ? 127 : r < -127 ? -127 : r);
    }
}

void int8_decode_step(float *out, signed char *k_q, signed char *v_q,
                      float *k_scale, float *v_scale, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D)
{
    for (int b = 0; b < B; b++) {
        int n = len[b];
        for (int h = 0; h < H; h++) {
            size_t slot = ((size_t)b * S_max + n) * H + h;
            quant(k_q + slot * D, k_scale + slot, k + ((size_t)b * H + h) * D, D);
            quant(v_q + slot * D, v_scale + slot, v + ((size_t)b * H + h) * D, D);
        }
        for (int h = 0; h < H; h++) {
            const float *qh = q + ((size_t)b * H + h) * D;
            double acc[17] = { 0 }, m = -INFINITY, l = 0.0;
            for (int j = 0; j <= n; j++) {
                size_t slot = ((size_t)b * S_max + j) * H + h;
                double s = 0.0;
                for (int c = 0; c < D; c++) s += (double)qh[c] * (k_q[slot * D + c] * k_scale[slot]);
                double mn = s > m ? s : m, corr = exp(m - mn), w = exp(s - mn);
                l = l * corr + w;
                for (int c = 0; c < D; c++)
                    acc[c] = acc[c] * corr + w * (v_q[slot * D + c] * v_scale[slot]);
                m = mn;
            }
            for (int c = 0; c < D; c++) out[((size_t)b * H + h) * D + c] = (float)(acc[c] / l);
        }
        len[b]++;
    }
}
