/* Exercise 48: attention weights and the attention sink.
 * Fill in attn_weights() below; the statement has the formula, the shapes and
 * an example.
 * Judge it with Run on the page, or with ./judge 48 in a terminal. */
#include <math.h>

void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    /* probs is [B, H, T, S] and sink is [B, H, T]. Write every element. */
    for (int i = 0; i < B * H * T * S; i++)
        probs[i] = 0.0f;
    for (int i = 0; i < B * H * T; i++)
        sink[i] = 0.0f;
}
