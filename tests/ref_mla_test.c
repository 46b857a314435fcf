/* ref_mla_test.c: tests of multi-head latent attention at decode (exercise
 * 61, core/att_ref_mla.c): the absorbed form equals the un-absorbed one
 * (k_nope and v made per head from the latents, then ordinary attention
 * over the concatenated [k_nope, k_pe]), on sizes where every dimension
 * differs, ragged lengths and scores past expf()'s range; rows past a
 * length are never read; the statement's worked example. Built and run by
 * tests/ref.test.mjs.
 *
 *   ref_mla_test            run every test, print "N passed, N failed"
 *   ref_mla_test --list     the test names, one a line
 *   ref_mla_test NAME       run one test
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "att.h"
#include "check.h"

static float *uniform(size_t n, uint64_t stream, float scale)
{
    float *x = xmalloc(n * sizeof *x);
    att_fill_uniform(x, n, 61, stream, scale);
    return x;
}

typedef struct { int B, H, S, d_c, d_nope, d_r, d_v; float qscale; } sizes;

/* Un-absorbed, as the prefill path computes it: per batch k = [c_j W_UK_h,
 * k_pe_j] and v = c_j W_UV_h for every head (v padded with zeros to the
 * query width, so that plain attention, att_attn_ref, can take it), then
 * attention of q = [q_nope_h, q_pe_h] with scale 1/sqrt(d_nope + d_r). */
static void unabsorbed(float *out, const float *q_nope, const float *q_pe, const float *c,
                       const float *k_pe, const int *len, const float *w_uk, const float *w_uv,
                       const sizes *z)
{
    int H = z->H, Dq = z->d_nope + z->d_r;
    float *q = xmalloc((size_t)H * Dq * sizeof(float)), *o = xmalloc((size_t)H * Dq * sizeof(float));
    float *k = xmalloc((size_t)z->S * H * Dq * sizeof(float)), *v = xmalloc((size_t)z->S * H * Dq * sizeof(float));
    float *scratch = xmalloc((size_t)z->S * sizeof(float));
    for (int b = 0; b < z->B; b++) {
        for (int h = 0; h < H; h++) {
            memcpy(q + (size_t)h * Dq, q_nope + ((size_t)b * H + h) * z->d_nope, (size_t)z->d_nope * sizeof(float));
            memcpy(q + (size_t)h * Dq + z->d_nope, q_pe + ((size_t)b * H + h) * z->d_r, (size_t)z->d_r * sizeof(float));
            for (int j = 0; j < len[b]; j++) {
                const float *cj = c + ((size_t)b * z->S + j) * z->d_c;
                float *kj = k + ((size_t)j * H + h) * Dq, *vj = v + ((size_t)j * H + h) * Dq;
                for (int p = 0; p < Dq; p++) {
                    double kn = 0.0, vv = 0.0;
                    for (int l = 0; l < z->d_c; l++) {
                        if (p < z->d_nope) kn += (double)cj[l] * w_uk[((size_t)h * z->d_c + l) * z->d_nope + p];
                        if (p < z->d_v) vv += (double)cj[l] * w_uv[((size_t)h * z->d_c + l) * z->d_v + p];
                    }
                    kj[p] = p < z->d_nope ? (float)kn : k_pe[((size_t)b * z->S + j) * z->d_r + p - z->d_nope];
                    vj[p] = (float)vv;
                }
            }
        }
        att_attn_desc a = { .T = 1, .S = len[b], .H = H, .Hkv = H, .D = Dq,
                            .scale = (float)(1.0 / sqrt((double)Dq)), .ldo = (size_t)H * Dq, .hso = (size_t)Dq,
                            .ldq = (size_t)H * Dq, .hsq = (size_t)Dq, .ldkv = (size_t)H * Dq, .hskv = (size_t)Dq };
        CHECK(att_attn_ref(o, q, k, v, NULL, &a, scratch) == ATT_OK, "attention");
        for (int h = 0; h < H; h++) {
            for (int p = z->d_v; p < Dq; p++) CHECK(o[(size_t)h * Dq + p] == 0.0f, "padding %g", o[(size_t)h * Dq + p]);
            memcpy(out + ((size_t)b * H + h) * z->d_v, o + (size_t)h * Dq, (size_t)z->d_v * sizeof(float));
        }
    }
    free(q); free(o); free(k); free(v); free(scratch);
}

/* Absorbed equals un-absorbed; with q scaled by 40 the scores pass 88,
 * where expf() overflows, and the max keeps both finite and equal. */
static void test_mla_absorbed_equals_unabsorbed(void)
{
    static const sizes sz[] = {
        { 1, 1, 1, 1, 1, 1, 1, 1 }, { 2, 1, 5, 7, 5, 3, 4, 1 }, { 3, 4, 9, 16, 8, 4, 8, 1 },
        { 1, 3, 17, 13, 6, 2, 7, 1 }, { 2, 2, 33, 32, 16, 8, 16, 1 }, { 2, 2, 12, 9, 4, 3, 5, 40 },
    };
    for (size_t s = 0; s < sizeof sz / sizeof sz[0]; s++) {
        const sizes *z = &sz[s];
        size_t bh = (size_t)z->B * z->H;
        float *q_nope = uniform(bh * z->d_nope, 1 + 10 * s, z->qscale), *q_pe = uniform(bh * z->d_r, 2 + 10 * s, 2 * z->qscale);
        float *c = uniform((size_t)z->B * z->S * z->d_c, 3 + 10 * s, 1.0f);
        float *k_pe = uniform((size_t)z->B * z->S * z->d_r, 4 + 10 * s, 2.0f);
        float *w_uk = uniform((size_t)z->H * z->d_c * z->d_nope, 5 + 10 * s, 1.0f);
        float *w_uv = uniform((size_t)z->H * z->d_c * z->d_v, 6 + 10 * s, 1.0f);
        int *len = xmalloc((size_t)z->B * sizeof(int));
        for (int b = 0; b < z->B; b++) len[b] = b == 0 ? z->S : 1 + (int)(att_rng_u64(61, 7 + s, (uint64_t)b) % (uint64_t)z->S);
        float *got = xmalloc(bh * z->d_v * sizeof(float)), *want = xmalloc(bh * z->d_v * sizeof(float));
        double *scratch = xmalloc(att_mla_ref_scratch(z->S, z->d_c) * sizeof(double));
        CHECK(att_mla_decode_ref(got, q_nope, q_pe, c, k_pe, len, w_uk, w_uv, z->B, z->H, z->S, z->d_c,
                                 z->d_nope, z->d_r, z->d_v, scratch) == ATT_OK, "ok");
        unabsorbed(want, q_nope, q_pe, c, k_pe, len, w_uk, w_uv, z);
        int bad = 0;
        for (size_t i = 0; i < bh * z->d_v; i++)
            bad += !(fabsf(got[i] - want[i]) <= 2e-5f * (1.0f + fabsf(want[i])));
        CHECK(bad == 0, "B=%d H=%d S=%d d_c=%d d_nope=%d d_r=%d d_v=%d: %d elements differ from un-absorbed",
              z->B, z->H, z->S, z->d_c, z->d_nope, z->d_r, z->d_v, bad);
        /* Rows past each length are never read: move them, nothing changes. */
        for (int b = 0; b < z->B; b++)
            for (int j = len[b]; j < z->S; j++) {
                for (int l = 0; l < z->d_c; l++) c[((size_t)b * z->S + j) * z->d_c + l] = 1e30f;
                for (int r = 0; r < z->d_r; r++) k_pe[((size_t)b * z->S + j) * z->d_r + r] = NAN;
            }
        float *again = xmalloc(bh * z->d_v * sizeof(float));
        att_mla_decode_ref(again, q_nope, q_pe, c, k_pe, len, w_uk, w_uv, z->B, z->H, z->S, z->d_c,
                           z->d_nope, z->d_r, z->d_v, scratch);
        CHECK(memcmp(again, got, bh * z->d_v * sizeof(float)) == 0, "rows past the length were read");
        free(q_nope); free(q_pe); free(c); free(k_pe); free(w_uk); free(w_uv); free(len);
        free(got); free(want); free(scratch); free(again);
    }
}

/* The statement's worked example, by hand, and the refusals. */
static void test_mla_example(void)
{
    /* B = H = 1, S = 3 (row 2 stale), d_c = 3, d_nope = 2, d_r = 2, d_v = 2:
     * scale 1/sqrt(4) = 1/2. */
    const float c[9] = { 1, 0, 1,  0, 2, 0,  9, 9, 9 }, k_pe[6] = { 1, 0,  -1, 1,  9, 9 };
    const float q_nope[2] = { 1, -1 }, q_pe[2] = { 2, 1 };
    const float w_uk[6] = { 1, 0,  0, 1,  1, 1 }, w_uv[6] = { 1, 0,  0, 1,  2, -1 };
    int len[1] = { 2 };
    float out[2];
    double scratch[9];
    CHECK(att_mla_decode_ref(out, q_nope, q_pe, c, k_pe, len, w_uk, w_uv, 1, 1, 3, 3, 2, 2, 2, scratch) == ATT_OK, "ok");
    /* q_lat = W_UK q_nope = (1, -1, 0); scores ((1 + 2), (-2 - 1)) / 2;
     * o_lat = p0 (1, 0, 1) + p1 (0, 2, 0); out = o_lat W_UV. */
    double p0 = 1 / (1 + exp(-3.0)), p1 = 1 - p0;
    double want[2] = { p0 * 1 + p0 * 2, p1 * 2 - p0 * 1 };
    CHECK(fabs(out[0] - want[0]) < 1e-6 && fabs(out[1] - want[1]) < 1e-6, "out (%g, %g), want (%g, %g)",
          out[0], out[1], want[0], want[1]);
    CHECK(fabs(out[0] - 2.857722) < 1e-5 && fabs(out[1] + 0.857722) < 1e-5, "the statement's numbers: (%.6f, %.6f)",
          out[0], out[1]);
    out[0] = 7.0f;
    int bad_len[1] = { 4 };
    CHECK(att_mla_decode_ref(out, q_nope, q_pe, c, k_pe, bad_len, w_uk, w_uv, 1, 1, 3, 3, 2, 2, 2, scratch) == ATT_EBADSHAPE,
          "len > S refused");
    bad_len[0] = 0;
    CHECK(att_mla_decode_ref(out, q_nope, q_pe, c, k_pe, bad_len, w_uk, w_uv, 1, 1, 3, 3, 2, 2, 2, scratch) == ATT_EBADSHAPE,
          "len = 0 refused");
    CHECK(out[0] == 7.0f, "a refused call touched out");
}

static const check_test tests[] = {
    { "mla_absorbed_equals_unabsorbed", test_mla_absorbed_equals_unabsorbed },
    { "mla_example", test_mla_example },
};

int main(int argc, char **argv)
{
    return check_main(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv, NULL);
}
