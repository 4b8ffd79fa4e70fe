"""Pure-Python references of the random streams (xoshiro256**, splitmix64, Lemire), shared by
the tests that check the numba kernels' randomness."""
from __future__ import annotations

M64 = (1 << 64) - 1


def ref_xoshiro(state):
    """xoshiro256** outputs from a four-word state (a generator)."""
    s = [int(x) for x in state]

    def rotl(x, k):
        return ((x << k) | (x >> (64 - k))) & M64

    while True:
        result = (rotl((s[1] * 5) & M64, 7) * 9) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        yield result


def ref_splitmix(seed):
    """splitmix64 outputs from state ``seed`` (advanced before each output; a generator)."""
    x = seed & M64
    while True:
        x = (x + 0x9E3779B97F4A7C15) & M64
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        yield z ^ (z >> 31)


def ref_bounded(gen, n):
    """Lemire's multiply-shift on the top 32 bits, with rejection (the documented method)."""
    while True:
        m = (next(gen) >> 32) * n
        if (m & 0xFFFFFFFF) >= ((1 << 32) - n) % n:
            return m >> 32
