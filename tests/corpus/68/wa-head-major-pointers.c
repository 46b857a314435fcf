/* expect: WA head_major_layout */
/* Takes a head's base pointer as q + h*total*D and steps tokens by D, as if the pack were [H, total, D] (double, online softmax). */
#include <math.h>

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    for (int h = 0; h < H; h++) {
        const float *qh = q + (long)h * total * D, *kh = k + (long)h * total * D, *vh = v + (long)h * total * D;
        float *oh = out + (long)h * total * D;
        for (int b = 0; b < B; b++)
            for (int t = cu_seqlens[b]; t < cu_seqlens[b + 1]; t++) {
                double m = -INFINITY, l = 0.0, acc[64] = { 0 };
                for (int j = cu_seqlens[b]; j <= t; j++) {
                    double s = 0.0;
                    for (int c = 0; c < D; c++) s += (double)qh[t * D + c] * kh[j * D + c];
                    s /= sqrt((double)D);
                    double m2 = s > m ? s : m, r = exp(m - m2), e = exp(s - m2);
                    l = l * r + e;
                    for (int c = 0; c < D; c++) acc[c] = acc[c] * r + e * vh[j * D + c];
                    m = m2;
                }
                for (int c = 0; c < D; c++) oh[t * D + c] = (float)(acc[c] / l);
            }
    }
}
