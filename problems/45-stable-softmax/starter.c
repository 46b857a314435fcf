/* Exercise 45: stable softmax.
 * Fill in softmax() below; the statement has the formula, the shapes and an
 * example.
 * Judge it with Run on the page, or with ./judge 45 in a terminal. */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    /* out is [rows, n]. Write every element of it. */
    for (int i = 0; i < rows * n; i++)
        out[i] = 0.0f;
}
