/* expect: WA */
/* Writes zeros: the starter's placeholder left in. */
void mla_decode(float *out, const float *q_nope, const float *q_pe, const float *c,
                const float *k_pe, const int *len, const float *w_uk, const float *w_uv,
                int B, int H, int S, int d_c, int d_nope, int d_r, int d_v)
{
    (void)q_nope, (void)q_pe, (void)c, (void)k_pe, (void)len, (void)w_uk, (void)w_uv, (void)S;
    (void)d_c, (void)d_nope, (void)d_r;
    for (int i = 0; i < B * H * d_v; i++) out[i] = 0.0f;
}
