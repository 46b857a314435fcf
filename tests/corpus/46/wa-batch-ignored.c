/* expect: WA batch_ignored */
/* The input index forgets the batch: every batch copies batch 0. */

void split_merge(float *heads, float *merged, const float *x, const float *y,
                 int B, int T, int H, int D)
{
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++)
                for (int c = 0; c < D; c++) {
                    heads[((b * H + h) * T + t) * D + c] = x[(t * H + h) * D + c];
                    merged[((b * T + t) * H + h) * D + c] = y[(h * T + t) * D + c];
                }
}
