/* expect: AC */
/* Walks heads and y sequentially with pointers; x and merged are reached
 * through a row pointer per (b, t) and the head's column offset. */

void split_merge(float *heads, float *merged, const float *x, const float *y,
                 int B, int T, int H, int D)
{
    int d = H * D;
    float *hp = heads;
    const float *yp = y;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++) {
                const float *xrow = x + (b * T + t) * d + h * D;
                float *mrow = merged + (b * T + t) * d + h * D;
                for (int c = 0; c < D; c++) {
                    *hp++ = xrow[c];
                    mrow[c] = *yp++;
                }
            }
}
