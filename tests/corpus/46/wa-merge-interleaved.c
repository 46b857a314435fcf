/* expect: WA merge_stride */
/* The split is right; the merge writes head h's dim c to feature c*H + h, interleaving the heads. */
void split_merge(float *heads, float *merged, const float *x, const float *y, int B, int T, int H, int D)
{
    int d = H*D;
    for (int b = 0; b < B; b++) for (int h = 0; h < H; h++) for (int t = 0; t < T; t++) for (int c = 0; c < D; c++) {
        heads[((b*H + h)*T + t)*D + c] = x[(b*T + t)*d + h*D + c];
        merged[(b*T + t)*d + c*H + h] = y[((b*H + h)*T + t)*D + c];   /* interleaved on the way back */
    }
}
