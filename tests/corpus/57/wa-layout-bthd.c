/* expect: WA layout_bthd */
/* Written for the [batch, seq, heads, head_dim] tensors of a model file: token t's heads side by side. */
#include <math.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++) {
            int pos = offset[b] + t;
            for (int h = 0; h < H; h++) {
                float *v = &x[((b * T + t) * H + h) * D];
                for (int i = 0; i < D / 2; i++) {
                    float f = powf((float)theta, -(float)(2 * i) / (float)D);
                    float c = cosf(pos * f), s = sinf(pos * f);
                    float x0 = v[i], x1 = v[i + D / 2];
                    v[i] = x0 * c - x1 * s;
                    v[i + D / 2] = x1 * c + x0 * s;
                }
            }
        }
}
