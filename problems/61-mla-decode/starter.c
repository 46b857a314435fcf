/* Exercise 61: multi-head latent attention at decode, absorbed.
 * Fill in mla_decode() below; the statement has the formula, the shapes,
 * the absorbed form and an example. */
#include <math.h>
#include <stdlib.h>

void mla_decode(float *out, const float *q_nope, const float *q_pe, const float *c,
                const float *k_pe, const int *len, const float *w_uk, const float *w_uv,
                int B, int H, int S, int d_c, int d_nope, int d_r, int d_v)
{
    /* TODO: for each batch b and head h, absorb W_UK into the query
     * (q_lat = W_UK_h q_nope, d_c floats), score keys 0 .. len[b]-1 as
     * (q_lat . c_j + q_pe . k_pe_j) / sqrt(d_nope + d_r), softmax, sum the
     * latents c_j by the weights and multiply that by W_UV_h. */
    for (int i = 0; i < B * H * d_v; i++) out[i] = 0.0f;
}
