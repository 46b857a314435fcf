/* expect: WA merge_without_transpose */
/* merge reads y as if it were [B,T,H,D] -> i.e. merge = copy */
void split_merge(float *heads, float *merged, const float *x, const float *y, int B, int T, int H, int D)
{
    int d = H * D;
    for (int b = 0; b < B; b++) for (int h = 0; h < H; h++) for (int t = 0; t < T; t++) for (int c = 0; c < D; c++)
        heads[((b*H+h)*T+t)*D+c] = x[(b*T+t)*d + h*D + c];
    for (int i = 0; i < B*T*d; i++) merged[i] = y[i];
}
