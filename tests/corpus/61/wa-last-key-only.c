/* expect: WA */
/* Returns the newest token's value c_{len-1} W_UV for every head, as if the newest key took all the weight. */
void mla_decode(float *out, const float *q_nope, const float *q_pe, const float *c,
                const float *k_pe, const int *len, const float *w_uk, const float *w_uv,
                int B, int H, int S, int d_c, int d_nope, int d_r, int d_v)
{
    (void)q_nope, (void)q_pe, (void)k_pe, (void)w_uk, (void)d_nope, (void)d_r;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int v = 0; v < d_v; v++) {
                float acc = 0.0f;
                for (int l = 0; l < d_c; l++)
                    acc += c[(b * S + len[b] - 1) * d_c + l] * w_uv[(h * d_c + l) * d_v + v];
                out[(b * H + h) * d_v + v] = acc;
            }
}
