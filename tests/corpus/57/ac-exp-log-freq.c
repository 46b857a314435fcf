/* expect: AC */
/* Frequencies as expf(-logf(theta) * 2i / D), a rotate() helper per head vector. */
#include <math.h>

static void rotate(float *v, int D, int pos, float log_theta)
{
    int half = D / 2;
    for (int i = 0; i < half; i++) {
        float angle = (float)pos * expf(-log_theta * (float)(2 * i) / (float)D);
        float c = cosf(angle), s = sinf(angle);
        float a = v[i], b = v[i + half];
        v[i] = a * c - b * s;
        v[i + half] = a * s + b * c;
    }
}

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    float lt = logf((float)theta);
    for (int n = 0; n < B * H * T; n++) {
        int b = n / (H * T), t = n % T;
        rotate(x + (long)n * D, D, offset[b] + t, lt);
    }
}
