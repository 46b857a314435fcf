/* expect: MLE */
/* wasm cause: "an allocation of 2147483647 bytes failed" */
/* malloc(SIZE_MAX / 2): no system has that much; a failed malloc is MLE.
 * The pointer escapes, so the compiler cannot drop the call. */
#include <stdint.h>
#include <stdlib.h>

void *volatile kept;

void softmax(float *out, const float *x, int rows, int n)
{
    kept = malloc(SIZE_MAX / 2);
    for (int i = 0; i < rows * n; i++) out[i] = x[i];
}
