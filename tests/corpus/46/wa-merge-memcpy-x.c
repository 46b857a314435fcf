/* expect: WA merge_reads_x */
/* Since merge(split(x)) == x, copies x into merged instead of merging y. */
#include <string.h>

void split_merge(float *heads, float *merged, const float *x, const float *y,
                 int B, int T, int H, int D)
{
    int d = H * D;
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++)
            for (int h = 0; h < H; h++)
                for (int c = 0; c < D; c++)
                    heads[((b * H + h) * T + t) * D + c] = x[(b * T + t) * d + h * D + c];

    /* merge 是 split 的逆，merge(split(x)) 就是 x */
    memcpy(merged, x, sizeof(float) * B * T * d);
    (void)y;
}
