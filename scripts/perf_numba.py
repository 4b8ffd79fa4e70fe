"""A compiled, per-function profile of a game's hot loop: numba's machine code named for ``perf``.

    python scripts/perf_numba.py oklahoma -n 1e5 --perf /tmp/p.data
    perf report -i /tmp/p.data --no-children --sort sym --stdio | head -60

``perf`` sees numba's code as anonymous memory.  This script records every object file numba
loads or compiles (before the first compile it wraps the object-cache hooks numba's JIT engine
calls), finds where each was placed (the engine's address of each of its symbols, less the
symbol's offset in the object: the most common difference is the section's base), and writes
``/tmp/perf-PID.map``, which ``perf report`` reads for anonymous code.  Then it runs the game's
hands (the strategies given, default the game's ``baseline`` on every seat) for the timed part.

Functions LLVM inlined are counted in their caller; a callee kept out of line is named.
"""
from __future__ import annotations

import argparse
import collections
import os
import pathlib
import signal
import subprocess
import tempfile
import time

import numba.core.codegen as CG

_OBJECTS: list[tuple[object, bytes]] = []


def _wrap_hooks() -> None:
    """Record every object numba's JIT engine compiles or loads from the cache (the engine reads
    these hooks when numba's code generator starts: call this before any compile)."""
    cls = CG.CPUCodeLibrary
    compiled, getbuffer = cls._object_compiled_hook.__func__, cls._object_getbuffer_hook.__func__

    def on_compiled(klass, ll_module, buf):
        compiled(klass, ll_module, buf)
        _OBJECTS.append((getattr(ll_module, "_CPUCodeLibrary__library", None), bytes(buf)))

    def on_getbuffer(klass, ll_module):
        buf = getbuffer(klass, ll_module)
        if buf:
            _OBJECTS.append((getattr(ll_module, "_CPUCodeLibrary__library", None), bytes(buf)))
        return buf

    cls._object_compiled_hook = classmethod(on_compiled)
    cls._object_getbuffer_hook = classmethod(on_getbuffer)


def _symbols(buf: bytes) -> list[tuple[str, int, int]]:
    """(name, offset, size) of every function defined in an ELF object."""
    with tempfile.NamedTemporaryFile(suffix=".o") as f:
        f.write(buf)
        f.flush()
        out = subprocess.run(["readelf", "-sW", f.name], capture_output=True, text=True).stdout
    syms = []
    for ln in out.splitlines():
        p = ln.split()
        if len(p) >= 8 and p[3] == "FUNC" and p[6] != "UND":
            syms.append((p[7], int(p[1], 16), int(p[2])))
    return syms


def _demangle(name: str) -> str:
    """``a.b.c`` from numba's ``_ZN1a1b1cB<len><abi tag>...E...`` (the arguments dropped)."""
    if not name.startswith("_ZN"):
        return name
    parts, i = [], 3
    while i < len(name) and name[i] != "E":
        tag = name[i] == "B"                    # an ABI tag: B<len><tag>
        j = i = i + tag
        while j < len(name) and name[j].isdigit():
            j += 1
        if j == i:
            break
        k = int(name[i:j])
        if not tag:
            parts.append(name[j:j + k])
        i = j + k
    return ".".join(parts) or name


def write_map(engine, objects: str | None = None) -> int:
    """Write /tmp/perf-PID.map for every recorded object; the number of functions named.  With
    ``objects`` (a folder), each object is written there as ``K.o`` and ``bases.txt`` lists each
    one's load address, for :func:`line_report`."""
    rows, bases = [], []
    for n_obj, (_, buf) in enumerate(_OBJECTS):
        syms = _symbols(buf)
        diffs = collections.Counter()
        for name, off, _ in syms:
            a = engine.get_function_address(name)
            if a:
                diffs[a - off] += 1
        if not diffs:
            continue
        base = diffs.most_common(1)[0][0]
        if objects:
            pathlib.Path(objects, f"{n_obj}.o").write_bytes(buf)
            bases.append(f"{n_obj} {base:x} {max(off + size for _, off, size in syms):x}")
        rows += [(base + off, size, name) for name, off, size in syms if size]
    if objects:
        pathlib.Path(objects, "bases.txt").write_text("\n".join(bases) + "\n")
    names = [_demangle(r[2]) for r in rows]
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        for (a, size, _), nm in sorted(zip(rows, names)):
            f.write(f"{a:x} {size:x} {nm}\n")
    return len(rows)


def line_report(data: str, objects: str, top: int = 40) -> None:
    """Samples by source line: ``perf script``'s instruction pointers placed in the dumped objects
    and named by ``addr2line`` (numba must have compiled with ``NUMBA_DEBUGINFO=1``)."""
    rows = [ln.split() for ln in pathlib.Path(objects, "bases.txt").read_text().splitlines()]
    bases = sorted((int(b, 16), int(e, 16), k) for k, b, e in rows)
    out = subprocess.run(["perf", "script", "-i", data, "-F", "ip"], capture_output=True,
                         text=True).stdout.split()
    hits: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    total = 0
    for tok in out:
        ip = int(tok, 16)
        total += 1
        for b, e, k in bases:
            if b <= ip < b + e:
                hits[k][ip - b] += 1
                break
    lines = collections.Counter()
    for k, cnt in hits.items():
        offs = list(cnt)
        res = subprocess.run(["addr2line", "-e", str(pathlib.Path(objects, f"{k}.o"))]
                             + [f"{o:x}" for o in offs], capture_output=True,
                             text=True).stdout.splitlines()
        for o, where in zip(offs, res):
            where = where.split(" (")[0]
            lines[where.replace(os.getcwd() + "/", "")] += cnt[o]
    print(f"{total:,} samples; by source line (numba's inlined callees at their own lines):")
    for where, c in lines.most_common(top):
        print(f"{100 * c / total:6.2f}%  {where}")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("-n", default="2e4", help="hands (deals) in the timed part")
    ap.add_argument("--perf", default=None, help="perf record's output file (default: no perf)")
    ap.add_argument("-F", "--freq", type=int, default=2000, help="perf's samples a second")
    ap.add_argument("--objects", default=None,
                    help="a folder to dump numba's objects in, for --lines")
    ap.add_argument("--lines", action="store_true",
                    help="after recording, report samples by source line (needs --perf, --objects "
                         "and NUMBA_DEBUGINFO=1)")
    ap.add_argument("-s", "--strategy", action="append", default=None,
                    help="pK=NAME, repeatable (default: baseline on every seat)")
    args = ap.parse_args(argv)
    _wrap_hooks()                     # before the first compile or cache load (simkit below)
    from simkit.analysis.interleave import game_runner
    from simkit.games import parse_game
    _, r = parse_game(args.game)
    seats = args.strategy or [f"p{k + 1}=baseline" for k in range(int(getattr(r, "players", 2)))]
    run = game_runner(args.game, seats, warm=100)
    from numba.core.registry import cpu_target
    if args.objects:
        pathlib.Path(args.objects).mkdir(parents=True, exist_ok=True)
    k = write_map(cpu_target.target_context.codegen()._engine, args.objects)
    n = int(float(args.n))
    rec = None
    if args.perf:
        rec = subprocess.Popen(["perf", "record", "-q", "-F", str(args.freq), "-p", str(os.getpid()),
                                "-o", args.perf])
        time.sleep(1.0)
    t = time.process_time()
    run(n)
    dt = time.process_time() - t
    if rec is not None:
        rec.send_signal(signal.SIGINT)
        rec.wait()
    print(f"{k} functions mapped; {n:,} in {dt:.2f} s CPU ({n / dt:,.0f}/s)")
    if args.lines and args.perf and args.objects:
        line_report(args.perf, args.objects)


if __name__ == "__main__":
    main()
