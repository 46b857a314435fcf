/* expect: MLE */
/* Maps memory directly (mmap, past malloc's wrapper) until the address space is full, then recurses: the stack cannot grow although it is far from its own limit. Memory, not a stack overflow: MLE. */
#include <sys/mman.h>
#include <string.h>

static int depth(int n)
{
    volatile char frame[1024];
    frame[0] = (char)n;
    return n > 100000 ? frame[0] : depth(n + 1) + frame[0];
}

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    for (size_t block = (size_t)64 << 20; block >= 4096; block /= 2)
        while (mmap(NULL, block, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
               != MAP_FAILED)
            ;
    int s = depth(0);
    memset(out, 0, sizeof(float) * (size_t)B * T * d);
    out[0] = (float)s;
}
