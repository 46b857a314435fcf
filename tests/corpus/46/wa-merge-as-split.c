/* expect: WA merge_as_split */
/* The split is right; the merge was copied from it and indexes the same way. */

static void split(float *out, const float *in, int B, int T, int H, int D)
{
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++)
                for (int c = 0; c < D; c++)
                    out[((b * H + h) * T + t) * D + c] = in[((b * T + t) * H + h) * D + c];
}

void split_merge(float *heads, float *merged, const float *x, const float *y,
                 int B, int T, int H, int D)
{
    split(heads, x, B, T, H, D);
    split(merged, y, B, T, H, D);
}
