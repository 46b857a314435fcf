/* expect: MLE */
/* wasm cause: "an allocation of 65536 bytes failed" */
/* Allocates 64 KiB blocks until malloc says no, keeping each in a list (its
 * first word only is touched): the first NULL is the memory limit, MLE on
 * both backends. */
#include <stdlib.h>

static void **head;

void softmax(float *out, const float *x, int rows, int n)
{
    void **block;
    while ((block = malloc(64 << 10))) {
        *block = head;
        head = block;
    }
    for (int i = 0; i < rows * n; i++) out[i] = x[i];
}
