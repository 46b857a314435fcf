/* expect: WA */
/* Ignores the values: every entry gets 1/n, masked or not (an unrelated
 * misunderstanding that no classic mistake explains). */

void softmax(float *out, const float *x, int rows, int n)
{
    (void)x;
    for (int i = 0; i < rows * n; i++) out[i] = 1.0f / n;
}
