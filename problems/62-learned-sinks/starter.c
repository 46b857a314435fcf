/* Exercise 62: learned attention sinks (gpt-oss).
 * Fill in learned_sink_attention() below: causal attention in which every
 * softmax also holds the head's sink logit sinks[h] (a key with no value),
 * with a sliding window of W keys when W > 0. The statement has the
 * formula, the shapes and an example. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void learned_sink_attention(float *out, const float *q, const float *k, const float *v,
                            const float *sinks, int B, int H, int T, int D, int W)
{
    /* TODO: out is [B, H, T, D]. Write every element of it. */
    for (int i = 0; i < B * H * T * D; i++)
        out[i] = 0.0f;
}
