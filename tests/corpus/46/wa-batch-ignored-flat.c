/* expect: WA batch_ignored */
/* Flat loop with decoded coordinates; the decoded b is used for the output
 * but left out of the input index. */

void split_merge(float *heads, float *merged, const float *x, const float *y,
                 int B, int T, int H, int D)
{
    int per_batch = T * H * D;
    for (int i = 0; i < B * per_batch; i++) {
        int c = i % D, t = i / D % T, h = i / (D * T) % H, b = i / per_batch;
        int whole = t * H * D + h * D + c;          /* input index: batch missing */
        heads[i] = x[whole];
        merged[b * per_batch + whole] = y[i % per_batch];
    }
}
