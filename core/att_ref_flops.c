/* att_ref_flops.c: the attention chapter's exercise 1 as a reference: how
 * many FLOPs the projections and the attention matmuls of one layer cost.
 * Integer arithmetic in 64 bits only, so the answers are exact (att.h). */
#include "att.h"

void att_attn_flops_ref(long long *proj, long long *attn, long long *cross,
                        int d, int T)
{
    long long D = d, L = T;
    /* Four [T, d] x [d, d] products (q, k, v, o), 2 FLOPs per multiply-add. */
    *proj = 4 * (2 * L * D * D);
    /* Q K^T: [T, d] x [d, T]; P V: [T, T] x [T, d]. Summed over the heads the
     * head split cancels out: H * 2 T T (d / H) = 2 T T d each. */
    *attn = 2 * (2 * L * L * D);
    /* 4 T^2 d > 8 T d^2  <=>  T > 2 d: the first such T. */
    *cross = 2 * D + 1;
}
