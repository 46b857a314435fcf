/* wasm: MLE "static data needs" */
/* A static T x S score matrix (2048 x 2048 floats, 16 MiB) that is really used:
 * the module's memory would start over the problem's 4 MiB limit (plus stack
 * and buffers), so it is refused before it runs. */
static float scores[2048 * 2048];
void flash_attention(float *out, float *lse, const float *q, const float *k, const float *v, float *scratch,
                     int B, int H, int T, int S, int D, int causal, int n_scratch)
{
    (void)k; (void)v; (void)scratch; (void)causal; (void)n_scratch;
    for (long i = 0; i < (long)T * S && i < 2048L * 2048; i++) scores[i] += q[i % ((long)B * H * T * D)];
    for (long i = 0; i < (long)B * H * T * D; i++) out[i] = scores[i % (2048L * 2048)];
    for (long i = 0; i < (long)B * H * T; i++) lse[i] = 0.0f;
}
