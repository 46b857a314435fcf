/* expect: WA */
/* Writes zeros everywhere, as the starter does. */
void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    (void)q, (void)k, (void)v, (void)global_idx, (void)W, (void)G;
    for (int i = 0; i < B * H * T * D; i++) out[i] = 0.0f;
}
