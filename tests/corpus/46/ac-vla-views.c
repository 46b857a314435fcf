/* expect: AC */
/* C99 pointers to variable-length arrays give the four-index views, and the
 * split and the merge are two separate helpers. */

static void split(int B, int T, int H, int D, float (*out)[H][T][D],
                  const float (*in)[T][H][D])
{
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++)
            for (int h = 0; h < H; h++)
                for (int c = 0; c < D; c++) out[b][h][t][c] = in[b][t][h][c];
}

static void merge(int B, int T, int H, int D, float (*out)[T][H][D],
                  const float (*in)[H][T][D])
{
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++)
                for (int c = 0; c < D; c++) out[b][t][h][c] = in[b][h][t][c];
}

void split_merge(float *heads, float *merged, const float *x, const float *y,
                 int B, int T, int H, int D)
{
    split(B, T, H, D, (float (*)[H][T][D])heads, (const float (*)[T][H][D])x);
    merge(B, T, H, D, (float (*)[T][H][D])merged, (const float (*)[H][T][D])y);
}
