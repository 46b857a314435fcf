/* expect: AC; wasm: CE */
/* Probe: tries fork() up to 64 times (fork must fail in the sandbox; a child would _exit at once), then computes the right answer. Zeroes out if any fork succeeded. */
#include <math.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static int probe(void)
{
    int forked = 0;
    for (int i = 0; i < 64; i++) {
        pid_t pid = fork();
        if (pid == 0) _exit(0);              /* child: leave at once */
        if (pid < 0) break;                  /* expected: refused */
        forked = 1;
        waitpid(pid, NULL, 0);
    }
    return forked;
}

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    int breached = probe();
    int D = d / n_heads;
    float scale = 1.0f / sqrtf((float)D);
    float *q = malloc(sizeof(float) * T * d);
    float *k = malloc(sizeof(float) * T * d);
    float *v = malloc(sizeof(float) * T * d);
    float *att = malloc(sizeof(float) * T * d);   /* concatenated heads */
    float *s = malloc(sizeof(float) * T);

    for (int b = 0; b < B; b++) {
        const float *xb = x + (size_t)b * T * d;
        for (int t = 0; t < T; t++)
            for (int j = 0; j < d; j++) {
                float aq = 0, ak = 0, av = 0;
                for (int i = 0; i < d; i++) {
                    float xi = xb[t * d + i];
                    aq += xi * wq[i * d + j];
                    ak += xi * wk[i * d + j];
                    av += xi * wv[i * d + j];
                }
                q[t * d + j] = aq;
                k[t * d + j] = ak;
                v[t * d + j] = av;
            }

        for (int h = 0; h < n_heads; h++) {
            int o = h * D;
            for (int i = 0; i < T; i++) {
                float mx = -INFINITY;
                for (int j = 0; j < T; j++) {
                    int seen = (!causal || j <= i) && (!mask || mask[b * T + j]);
                    if (!seen) { s[j] = -INFINITY; continue; }
                    float dot = 0;
                    for (int e = 0; e < D; e++)
                        dot += q[i * d + o + e] * k[j * d + o + e];
                    s[j] = dot * scale;
                    if (s[j] > mx) mx = s[j];
                }
                float *a = att + i * d + o;
                for (int e = 0; e < D; e++) a[e] = 0;
                if (mx == -INFINITY) continue;          /* sees no key: zeros */
                float sum = 0;
                for (int j = 0; j < T; j++) {
                    s[j] = expf(s[j] - mx);             /* exp(-inf) = 0 for unseen keys */
                    sum += s[j];
                }
                for (int j = 0; j < T; j++) {
                    float p = s[j] / sum;
                    for (int e = 0; e < D; e++) a[e] += p * v[j * d + o + e];
                }
            }
        }

        float *ob = out + (size_t)b * T * d;
        for (int t = 0; t < T; t++)
            for (int c = 0; c < d; c++) {
                float acc = 0;
                for (int m = 0; m < d; m++) acc += att[t * d + m] * wo[m * d + c];
                ob[t * d + c] = acc;
            }
    }
    free(q); free(k); free(v); free(att); free(s);
    if (breached)                             /* the sandbox let it through */
        for (size_t n = 0; n < (size_t)B * T * d; n++) out[n] = 0;
}
