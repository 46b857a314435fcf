/* expect: AC; wasm: WA */
/* Ranks keys with qsort and a comparator that says nothing of ties, which the statement sends to the lower index. Natively glibc's qsort (a merge sort) keeps equal keys in index order, so ties come out right; the wasm C library's (musl, a smoothsort) does not, and a tie drops the wrong key. The C standard leaves the order of equal elements unspecified. */
#include <math.h>
#include <stdlib.h>
typedef struct { float s; int j; } cand;
static int cmp(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (x->s != y->s) return x->s > y->s ? -1 : 1;
    return 0;   /* ties: whatever qsort does */
}
void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    cand *c = malloc(sizeof(cand) * T);
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((size_t)bh * T + i) * D;
            for (int j = 0; j <= i; j++) {
                float d = 0;
                for (int x = 0; x < D; x++) d += qi[x] * k[((size_t)bh * T + j) * D + x];
                c[j].s = d; c[j].j = j;
            }
            qsort(c, i + 1, sizeof(cand), cmp);
            int n = topk < i + 1 ? topk : i + 1;
            float sc = 1.0f / sqrtf(D), mx = c[0].s * sc, z = 0;
            float *o = out + ((size_t)bh * T + i) * D;
            for (int x = 0; x < D; x++) o[x] = 0;
            for (int r = 0; r < n; r++) {
                float w = expf(c[r].s * sc - mx);
                z += w;
                for (int x = 0; x < D; x++) o[x] += w * v[((size_t)bh * T + c[r].j) * D + x];
            }
            for (int x = 0; x < D; x++) o[x] /= z;
        }
    free(c);
}
