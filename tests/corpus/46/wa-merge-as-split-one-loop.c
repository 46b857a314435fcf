/* expect: WA merge_as_split */
/* One loop for both directions; the merge line was pasted from the split
 * line with the names changed, so it indexes merged like heads. */

void split_merge(float *heads, float *merged, const float *x, const float *y,
                 int B, int T, int H, int D)
{
    int d = H * D;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++)
                for (int c = 0; c < D; c++) {
                    heads[((b * H + h) * T + t) * D + c] = x[(b * T + t) * d + h * D + c];
                    merged[((b * H + h) * T + t) * D + c] = y[(b * T + t) * d + h * D + c];
                }
}
