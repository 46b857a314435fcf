/* att_rng.c: the deterministic, counter-based input generator (spec in att.h).
 * Integer arithmetic only, so natively and in wasm every value is the same bit
 * pattern; tests/core_test.c pins that with hashes. */
#include "att.h"

/* SplitMix64's finaliser: a bijection on 64-bit words with good avalanche. */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t att_rng_u64(uint64_t seed, uint64_t stream, uint64_t i)
{
    /* Mixing seed and stream first keeps (seed, stream) pairs apart; the odd
     * golden-ratio increment is SplitMix64's own counter step. */
    uint64_t key = mix64(seed ^ mix64(stream + 0x9e3779b97f4a7c15ull));
    return mix64(key + (i + 1) * 0x9e3779b97f4a7c15ull);
}

void att_fill_uniform(float *x, size_t n, uint64_t seed, uint64_t stream,
                      float scale)
{
    for (size_t i = 0; i < n; i++) {
        int32_t u24 = (int32_t)(att_rng_u64(seed, stream, i) >> 40);
        /* (u24 - 2^23) / 2^23 is exact: a 24-bit integer times a power of 2. */
        float u = (float)(u24 - 8388608) * (1.0f / 8388608.0f);
        x[i] = scale * u;
    }
}

uint64_t att_hash_bytes(const void *bytes, size_t n)
{
    const unsigned char *p = bytes;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}
