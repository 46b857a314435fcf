/* Exercise 45: stable softmax.
 * Fill in softmax() below; the statement has the formula, the shapes and an
 * example. Run ./judge 45 to judge this file. */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    /* out is [rows, n]. Write every element of it. */
    for (int i = 0; i < rows * n; i++)
        out[i] = 0.0f;
}
