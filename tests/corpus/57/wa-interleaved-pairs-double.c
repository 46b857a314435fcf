/* expect: WA interleaved_pairing */
/* Walks the vector two elements at a time (the complex-number view of llama's original code), angles in double. */
#include <math.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    float *v = x;
    for (int b = 0; b < B; b++)
        for (int n = 0; n < H * T; n++, v += D) {
            int t = n % T;
            for (int j = 0; j < D; j += 2) {
                double a = (offset[b] + t) * pow(theta, -(double)j / D);
                double re = v[j], im = v[j + 1];
                v[j] = (float)(re * cos(a) - im * sin(a));
                v[j + 1] = (float)(re * sin(a) + im * cos(a));
            }
        }
}
