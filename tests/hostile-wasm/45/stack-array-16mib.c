/* expect: RE */
/* wasm cause: "stack overflow" */
/* A 16 MiB array on the stack, twice the 8 MiB stack: a stack overflow, RE
 * (the statement's promise), on both backends. */
#include <string.h>

static float sum_big(const float *x, int n)
{
    volatile float big[4 << 20];
    for (int i = 0; i < 4 << 20; i += 1024) big[i] = x[i % n];
    float s = 0;
    for (int i = 0; i < 4 << 20; i += 1024) s += big[i];
    return s;
}

void softmax(float *out, const float *x, int rows, int n)
{
    float s = sum_big(x, rows * n);
    for (int i = 0; i < rows * n; i++) out[i] = s;
}
