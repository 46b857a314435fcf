/* Exercise 63: ALiBi and logit soft-capping.
 * Fill in alibi_softcap_attention() below: causal attention with the
 * KV-cache offset whose scores are scaled, soft-capped when cap > 0 and
 * given ALiBi's per-head linear bias when alibi is set. The statement has
 * the formula, the order of the steps, the shapes and an example. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void alibi_softcap_attention(float *out, const float *q, const float *k, const float *v,
                             int B, int H, int T, int S, int D, int cap, int alibi)
{
    /* TODO: out is [B, H, T, D]. Write every element of it. */
    for (int i = 0; i < B * H * T * D; i++)
        out[i] = 0.0f;
}
