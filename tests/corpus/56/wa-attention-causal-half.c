/* expect: WA one_attention_matmul */
/* Counts only the causal half of each attention matmul, as if the mask saved FLOPs. */
void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        long long t = T[i], w = d[i];
        proj[i] = 4 * (2 * t * w * w);
        long long per_matmul = 2 * t * t * w / 2;   /* the half below the diagonal */
        attn[i] = 2 * per_matmul;
        cross[i] = 4 * w + 1;                        /* 2 T^2 d > 8 T d^2 once T > 4 d */
    }
}
