/* expect: WA */
/* Counts the features of a head from 1 (h * D + c + 1), wrapping the last one
 * back to the head's first: every value lands one place off. */

void split_merge(float *heads, float *merged, const float *x, const float *y,
                 int B, int T, int H, int D)
{
    int d = H * D;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++)
                for (int c = 0; c < D; c++) {
                    int f = h * D + (c + 1) % D;
                    heads[((b * H + h) * T + t) * D + c] = x[(b * T + t) * d + f];
                    merged[(b * T + t) * d + f] = y[((b * H + h) * T + t) * D + c];
                }
}
