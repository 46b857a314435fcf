/* expect: WA head_stride */
/* Flat loop over the split index; feature c of head h is taken as c * H + h
 * (interleaved heads) instead of h * D + c, in both directions. */

void split_merge(float *heads, float *merged, const float *x, const float *y,
                 int B, int T, int H, int D)
{
    int n = B * H * T * D;
    for (int i = 0; i < n; i++) {
        int c = i % D, t = i / D % T, h = i / (D * T) % H, b = i / (D * T * H);
        int j = (b * T + t) * H * D + c * H + h;
        heads[i] = x[j];
        merged[j] = y[i];
    }
}
