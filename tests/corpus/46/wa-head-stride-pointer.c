/* expect: WA head_stride */
/* Row pointers per token, but the head's features are read with a step of H
 * (xrow[h + c * H]), as if the layout were [B, T, D, H]. */

void split_merge(float *heads, float *merged, const float *x, const float *y,
                 int B, int T, int H, int D)
{
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++) {
            const float *xrow = x + (b * T + t) * H * D;
            float *mrow = merged + (b * T + t) * H * D;
            for (int h = 0; h < H; h++) {
                float *hrow = heads + ((b * H + h) * T + t) * D;
                const float *yrow = y + ((b * H + h) * T + t) * D;
                for (int c = 0; c < D; c++) {
                    hrow[c] = xrow[h + c * H];
                    mrow[h + c * H] = yrow[c];
                }
            }
        }
}
