"""The house's one rule for numba's reference counts, and its switch.

numba counts references to every array a compiled function receives, atomically, on the way in and
out of each call that is not inlined away; in a kernel's per-move helpers that was measured at up
to half a deal's time (Piquet: 44% when its tables came in a record; Thirty-one: 87k against 161k
deals a second when the per-turn helpers took the records).  The rule, in this order:

1. Tables that never change while a game is played are module-level constants (numba freezes them
   into the code and reads them without counting): Handjass's card tables, Piquet's.
2. Records carry scalars wherever they can; the arrays a kernel needs every deal are taken off
   their records once per chunk (into locals, or passed as plain arguments), not read off a record
   in every per-move helper.
3. A hot function that allocates nothing may compile with :data:`NO_REFCOUNT` (numba's private
   ``_nrt=False``: no counting at all).  numba refuses to compile such a function if it
   allocates, so the switch cannot hide a leak; use it only where a bench measured the gain
   (Crazy Eights' deal, Thirty-one's turns, Handjass's deal).

``NO_REFCOUNT`` is ``{}`` on a numba without the switch (the code then counts as usual, slower).

Rule 2 makes long parameter lists: a kernel's phase is given the arrays and scalars it reads, not
the records that hold them.  A jitted function with more than ten parameters says why in a
comment block directly above its decorator whose first line is ``# N parameters: why`` (``N``
its count, so a changed signature must revisit the note; ``tests/test_layers.py`` checks both).
Where a few arguments are naturally one scalar record, pass the record instead (a record of
scalars costs no reference counts: Thirty-one with a bank's ``Stakes``).
"""
from __future__ import annotations

try:  # numba's private switch for reference counting; a numba without it counts as usual
    from numba.core.cpu import CPUTargetOptions
    NO_REFCOUNT = {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}
except ImportError:  # pragma: no cover - a numba that moved its options
    NO_REFCOUNT = {}
# ``_nrt`` is inherited: a function compiled first from a NO_REFCOUNT caller compiles without
# counting too (and fails if it allocates; a warm cache hides this).  A callee that allocates and
# is called from a NO_REFCOUNT function sets REFCOUNT: an option set is not inherited.
REFCOUNT = {"_nrt": True} if NO_REFCOUNT else {}
