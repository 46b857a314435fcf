/* expect: AC */
/* Static buffers sized for the limits, an inverse-frequency table per call, the new key and query turned in static rows and the new row used straight from them; appended after attending. */
#include <math.h>
#include <string.h>

enum { MAX_D = 64, MAX_S = 2048 };
static float inv_freq[MAX_D / 2], qr[MAX_D], kr[MAX_D], score[MAX_S];

static void turn(float *dst, const float *src, int D, int pos)
{
    int half = D / 2;
    for (int i = 0; i < half; i++) {
        float c = cosf(pos * inv_freq[i]), s = sinf(pos * inv_freq[i]);
        dst[i] = src[i] * c - src[half + i] * s;
        dst[half + i] = src[half + i] * c + src[i] * s;
    }
}

void rope_decode_step(float *out, float *k_cache, float *v_cache, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D, int theta)
{
    for (int i = 0; i < D / 2; i++) inv_freq[i] = 1.0f / powf((float)theta, (2.0f * i) / D);
    for (int b = 0; b < B; b++) {
        int n = len[b];
        for (int h = 0; h < H; h++) {
            const float *row = q + (b * H + h) * D;
            turn(qr, row, D, n);
            turn(kr, k + (b * H + h) * D, D, n);
            const float *vn = v + (b * H + h) * D;
            float mx = -INFINITY, z = 0.0f;
            for (int j = 0; j <= n; j++) {
                const float *kj = j < n ? k_cache + (((size_t)b * S_max + j) * H + h) * D : kr;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qr[c] * kj[c];
                score[j] = s / sqrtf((float)D);
                mx = score[j] > mx ? score[j] : mx;
            }
            for (int j = 0; j <= n; j++) z += score[j] = expf(score[j] - mx);
            float *o = out + (b * H + h) * D;
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= n; j++)
                    acc += score[j] * (j < n ? v_cache[(((size_t)b * S_max + j) * H + h) * D + c] : vn[c]);
                o[c] = acc / z;
            }
            memcpy(k_cache + (((size_t)b * S_max + n) * H + h) * D, kr, sizeof(float) * D);
            memcpy(v_cache + (((size_t)b * S_max + n) * H + h) * D, vn, sizeof(float) * D);
        }
        len[b]++;
    }
}
