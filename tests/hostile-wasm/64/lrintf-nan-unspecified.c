/* expect: WA; wasm: AC */
/* Quantises with lrintf(x * (127 / max)) and no guard for an all-zero vector, which the statement warns of: there 0 * inf is NaN, and lrintf(NaN) is unspecified in C. Natively (x86) it is LONG_MIN, clamped to -127 where 0 is expected (WA); the wasm C library gives 0, which is right (AC). */
#include <math.h>
#include <stdlib.h>
#include <stddef.h>
typedef signed char i8;
static float quant(i8 *dst, const float *x, int D)
{
    float mx = 0;
    for (int c = 0; c < D; c++) mx = fmaxf(mx, fabsf(x[c]));
    float s = mx / 127.0f;
    
    float inv = 127.0f / mx;
    for (int c = 0; c < D; c++) {
        long r = lrintf(x[c] * inv);
        dst[c] = (i8)(r > 127 ? 127 : r < -127 ? -127 : r);
    }
    return s;
}
void int8_decode_step(float *out, signed char *k_q, signed char *v_q,
                      float *k_scale, float *v_scale, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D)
{
    float *w = malloc(sizeof(float) * S_max);
    for (int b = 0; b < B; b++) {
        int n = len[b];
        for (int h = 0; h < H; h++) {
            size_t row = ((size_t)b * S_max + n) * H + h;
            k_scale[row] = quant(k_q + row * D, k + (b * H + h) * D, D);
            v_scale[row] = quant(v_q + row * D, v + (b * H + h) * D, D);
        }
        for (int h = 0; h < H; h++) {
            float mx = -INFINITY, z = 0;
            for (int j = 0; j <= n; j++) {
                size_t row = ((size_t)b * S_max + j) * H + h;
                float d = 0;
                for (int c = 0; c < D; c++) d += q[(b * H + h) * D + c] * (k_q[row * D + c] * k_scale[row]);
                w[j] = d / sqrtf((float)D);
                if (w[j] > mx) mx = w[j];
            }
            for (int j = 0; j <= n; j++) z += w[j] = expf(w[j] - mx);
            for (int c = 0; c < D; c++) {
                float a = 0;
                for (int j = 0; j <= n; j++) {
                    size_t row = ((size_t)b * S_max + j) * H + h;
                    a += w[j] * (v_q[row * D + c] * v_scale[row]);
                }
                out[(b * H + h) * D + c] = a / z;
            }
        }
        len[b] = n + 1;
    }
    free(w);
}
