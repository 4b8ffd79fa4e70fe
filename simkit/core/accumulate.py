"""The one step every game kernel ends a deal with: add its metric vector to the run's sums.

``acc[2, M]`` holds the sums and sums of squares the runner merges across chunks (means, SEs,
ratios and paired differences all come from them); ``rows[n, M]`` receives the vector itself
when per-deal rows were asked for (an empty ``rows`` otherwise).
"""
from __future__ import annotations

from numba import njit


@njit(cache=True, nogil=True, inline="always")
def add_deal(acc, rows, i, v):
    """Add deal ``i``'s metric vector ``v`` to ``acc`` (sums, sums of squares) and, when ``rows``
    is not empty, store it as row ``i``."""
    M = v.shape[0]
    s1 = acc[0]
    s2 = acc[1]
    for q in range(M):  # no branch and no aliasing in this loop, so LLVM vectorises it
        x = v[q]
        s1[q] += x
        s2[q] += x * x
    if rows.shape[0] > 0:
        for q in range(M):
            rows[i, q] = v[q]
