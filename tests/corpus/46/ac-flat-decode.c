/* expect: AC */
/* One flat loop over the [B, H, T, D] index, decoded into b, h, t, c with
 * division and remainder. */

void split_merge(float *heads, float *merged, const float *x, const float *y,
                 int B, int T, int H, int D)
{
    long total = (long)B * H * T * D;
    for (long i = 0; i < total; i++) {
        long c = i % D;
        long t = (i / D) % T;
        long h = (i / ((long)D * T)) % H;
        long b = i / ((long)D * T * H);
        long j = (b * T + t) * (long)(H * D) + h * D + c;
        heads[i] = x[j];
        merged[j] = y[i];
    }
}
