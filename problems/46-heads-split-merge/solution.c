/* Exercise 46, a reference solution: the chapter's view + transpose, as
 * index arithmetic. x[b][t][h*D + c] <-> heads[b][h][t][c]. */

void split_merge(float *heads, float *merged, const float *x, const float *y,
                 int B, int T, int H, int D)
{
    int d = H * D;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++)
                for (int c = 0; c < D; c++) {
                    int split = ((b * H + h) * T + t) * D + c;   /* [B, H, T, D] */
                    int whole = (b * T + t) * d + h * D + c;     /* [B, T, d] */
                    heads[split] = x[whole];
                    merged[whole] = y[split];
                }
}
