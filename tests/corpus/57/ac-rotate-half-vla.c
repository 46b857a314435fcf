/* expect: AC */
/* As HF writes it: x * cos + rotate_half(x) * sin over the whole vector, with cos/sin of the concatenated frequencies in VLAs. */
#include <math.h>
#include <string.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    int half = D / 2;
    float cs[D], sn[D], rh[D];
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++) {
            for (int j = 0; j < D; j++) {
                int i = j % half;   /* emb = cat(freqs, freqs) */
                float a = (float)(offset[b] + t) * powf((float)theta, -2.0f * (float)i / (float)D);
                cs[j] = cosf(a);
                sn[j] = sinf(a);
            }
            for (int h = 0; h < H; h++) {
                float *v = x + ((b * H + h) * T + t) * D;
                for (int j = 0; j < half; j++) {
                    rh[j] = -v[j + half];
                    rh[j + half] = v[j];
                }
                for (int j = 0; j < D; j++) v[j] = v[j] * cs[j] + rh[j] * sn[j];
            }
        }
}
