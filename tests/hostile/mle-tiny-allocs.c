/* expect: MLE */
/* Allocation loop of tiny nodes: a 48-byte linked-list node per score, kept in a global list, millions of them, until the heap cannot grow. */
#include <stdlib.h>

struct node { struct node *next; float score[10]; };
struct node *list;     /* global, so the compiler cannot drop the allocations */

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    for (long i = 0;; i++) {
        struct node *n = malloc(sizeof *n);
        n->next = list;
        n->score[0] = x[i % (T * d)];
        list = n;
    }
    for (int i = 0; i < B * T * d; i++) out[i] = list->score[0];
}
