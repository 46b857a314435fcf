/* expect: WA view_without_transpose */
/* Loops over b, h, t, c but reads x with the index it writes heads with:
 * the reshape happens, the transpose(1, 2) does not. */

void split_merge(float *heads, float *merged, const float *x, const float *y,
                 int B, int T, int H, int D)
{
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++)
                for (int c = 0; c < D; c++) {
                    int idx = b * H * T * D + h * T * D + t * D + c;
                    heads[idx] = x[idx];
                    merged[idx] = y[idx];
                }
}
