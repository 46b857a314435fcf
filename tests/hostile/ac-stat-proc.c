/* expect: AC */
/* Probe: looks for the judge through /proc: stat of its own fds, then of every /proc/<ppid>/fd/N, comparing inodes with its stdout pipe (how a neighbour's judge was found once), by stat, lstat, fstatat and statx. Any success zeroes the answer. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include "honest_mha.h"

static int seen(const char *path)
{
    struct stat st;
    struct statx sx;
    return stat(path, &st) == 0 || lstat(path, &st) == 0 ||
           fstatat(AT_FDCWD, path, &st, 0) == 0 ||
           statx(AT_FDCWD, path, 0, STATX_INO, &sx) == 0;
}

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    int hits = seen("/proc/self/fd/1") + seen("/proc") + seen("/etc/passwd");
    char path[64];
    for (int fd = 0; fd < 16; fd++) {
        snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)getppid(), fd);
        hits += seen(path);
    }
    honest_mha(out, x, wq, wk, wv, wo, mask, B, T, d, n_heads, causal);
    if (hits) memset(out, 0, sizeof(float) * (size_t)B * T * d);
}
