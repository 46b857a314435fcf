/* expect: WA batch_ignored */
/* Base pointers for x and y are set once before the batch loop and never
 * advanced with b; the outputs do move, so every batch gets batch 0. */

void split_merge(float *heads, float *merged, const float *x, const float *y,
                 int B, int T, int H, int D)
{
    int d = H * D;
    const float *xb = x, *yb = y;
    for (int b = 0; b < B; b++) {
        float *hb = heads + b * H * T * D, *mb = merged + b * T * d;
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++)
                for (int c = 0; c < D; c++) {
                    hb[(h * T + t) * D + c] = xb[t * d + h * D + c];
                    mb[t * d + h * D + c] = yb[(h * T + t) * D + c];
                }
    }
}
