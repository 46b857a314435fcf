/* expect: WA head_stride */
/* Head h takes features h, h + H, h + 2H, ...: a view as [B, T, D, H]. */

void split_merge(float *heads, float *merged, const float *x, const float *y,
                 int B, int T, int H, int D)
{
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++)
                for (int c = 0; c < D; c++) {
                    int split = ((b * H + h) * T + t) * D + c;
                    int whole = (b * T + t) * H * D + c * H + h;
                    heads[split] = x[whole];
                    merged[whole] = y[split];
                }
}
