/* expect: WA one_length_for_batch */
/* len[0] for all in attention (writes right) */
#include <math.h>
#include <stdlib.h>
#include <string.h>
/* quantise all heads of all sequences first, then dequantise the whole used cache into a float buffer, then attend */
void int8_decode_step(float *out, signed char *k_q, signed char *v_q,
                      float *k_scale, float *v_scale, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D)
{
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            size_t pos = ((size_t)b * S_max + len[b]) * H + h;
            const float *kx = k + ((size_t)b * H + h) * D, *vx = v + ((size_t)b * H + h) * D;
            float km = 0, vm = 0;
            for (int c = 0; c < D; c++) { if (fabsf(kx[c]) > km) km = fabsf(kx[c]); if (fabsf(vx[c]) > vm) vm = fabsf(vx[c]); }
            k_scale[pos] = km / 127.0f; v_scale[pos] = vm / 127.0f;
            for (int c = 0; c < D; c++) {
                int a = km > 0 ? (int)roundf(kx[c] / k_scale[pos]) : 0;
                int bb = vm > 0 ? (int)roundf(vx[c] / v_scale[pos]) : 0;
                a = a > 127 ? 127 : a < -127 ? -127 : a;
                bb = bb > 127 ? 127 : bb < -127 ? -127 : bb;
                k_q[pos * D + c] = (signed char)a; v_q[pos * D + c] = (signed char)bb;
            }
        }
    float *K = malloc(sizeof(float) * S_max * D), *V = malloc(sizeof(float) * S_max * D), *w = malloc(sizeof(float) * S_max);
    for (int b = 0; b < B; b++) {
        int n = len[0] + 1;
        for (int h = 0; h < H; h++) {
            for (int j = 0; j < n; j++) {
                size_t pos = ((size_t)b * S_max + j) * H + h;
                for (int c = 0; c < D; c++) { K[j * D + c] = k_q[pos * D + c] * k_scale[pos]; V[j * D + c] = v_q[pos * D + c] * v_scale[pos]; }
            }
            const float *qq = q + ((size_t)b * H + h) * D;
            float mx = -INFINITY;
            for (int j = 0; j < n; j++) { float d = 0; for (int c = 0; c < D; c++) d += qq[c] * K[j * D + c]; w[j] = d * (1.0f / sqrtf(D)); mx = fmaxf(mx, w[j]); }
            float sum = 0; for (int j = 0; j < n; j++) { w[j] = expf(w[j] - mx); sum += w[j]; }
            for (int c = 0; c < D; c++) { float a = 0; for (int j = 0; j < n; j++) a += w[j] * V[j * D + c]; out[((size_t)b * H + h) * D + c] = a / sum; }
        }
    }
    for (int b = 0; b < B; b++) len[b]++;
    free(K); free(V); free(w);
}
