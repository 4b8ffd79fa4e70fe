"""The results store: Parquet (or CSV) tables that carry their provenance; atomic writes; resume.

A Parquet results file holds the tidy summary table (one row per configuration and metric, every
row with game, game version, rules, strategies, seed, n, simkit version and time) and, in the
file's key-value metadata under ``simkit``, the request and the per-chunk aggregates.  ``--resume``
reads those aggregates back and runs only the chunks that are missing, so an interrupted run ends
with exactly the numbers of an uninterrupted one.  Every write goes to a temporary file in the same
folder and is renamed over the target, so a crash never leaves a half-written file.
"""
from __future__ import annotations

import contextlib
import fcntl
import json
import os
import tempfile

import numpy as np
import pandas as pd

from simkit.errors import SimkitError

FORMAT = 1
#: Columns of a tidy results table that are not grid columns (everything else in a table is a
#: rules option or a strategy parameter that its configurations vary)
STANDARD_COLUMNS = ("game", "rules", "strategies", "metric", "unit", "mean", "se", "ci_low",
                    "ci_high", "n", "seed", "game_version", "simkit_version", "created", "method")
META_KEY = b"simkit"


def _atomic(path: str, write) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".simkit-", suffix=".tmp", dir=folder)
    os.close(fd)
    try:
        write(tmp)
        _fsync(tmp)
        # mkstemp makes 0600: keep the mode of the file replaced, else what open() would give
        mode = os.stat(path).st_mode & 0o777 if os.path.exists(path) else 0o666 & ~_umask()
        os.chmod(tmp, mode)
        os.replace(tmp, path)
        _fsync(folder)  # the rename itself
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def _fsync(path: str) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some file systems cannot fsync a folder
        pass
    finally:
        os.close(fd)


def check_writable(path: str) -> str:
    """Check, before any work, that ``path`` can be written: not a folder, not under a file, in a
    place where files can be created (tried with a temporary file); exit-2 errors otherwise."""
    path = os.fspath(path)
    if not path:
        raise SimkitError("cannot write '': give a file name")
    if os.path.isdir(path):
        raise SimkitError(f"cannot write {path!r}: it is a folder")
    folder = os.path.dirname(os.path.abspath(path))
    probe = folder
    while not os.path.exists(probe):  # missing folders are made on writing
        probe = os.path.dirname(probe)
    if not os.path.isdir(probe):
        raise SimkitError(f"cannot write {path!r}: {probe!r} is a file, not a folder")
    _check_length(path, probe)
    try:
        fd, tmp = tempfile.mkstemp(prefix=".simkit-probe-", dir=probe)
    except OSError as e:
        raise SimkitError(f"cannot write {path!r}: cannot create files in {probe!r} "
                          f"({e.strerror or e})") from None
    os.close(fd)
    os.remove(tmp)
    return path


def _check_length(path: str, folder: str) -> None:
    """Refuse a path the file system would refuse only when the results are written: a name
    (the file's, or a folder still to be made) or a whole path over its limits."""
    def limit(key, default):
        try:
            return os.pathconf(folder, key)
        except (OSError, ValueError):
            return default
    name_max, path_max = limit("PC_NAME_MAX", 255), limit("PC_PATH_MAX", 4096)
    full = os.fsencode(os.path.abspath(path))
    if len(full) >= path_max:
        raise SimkitError(f"cannot write {path!r}: the path is {len(full):,} bytes long, the "
                          f"limit here is {path_max - 1:,}")
    for part in full.split(b"/"):
        if len(part) > name_max:
            raise SimkitError(f"cannot write {path!r}: the name {os.fsdecode(part)[:40]!r}... is "
                              f"{len(part)} bytes long, at most {name_max} here")


def partial_name(path: str) -> str:
    """Where a run's checkpoints go while ``path`` still holds earlier results: ``X.partial.parquet``
    beside ``X.parquet``."""
    root, ext = os.path.splitext(path)
    return f"{root}.partial{ext}"


@contextlib.contextmanager
def locked(path: str):
    """Hold an exclusive lock on the results file ``path`` for the block (a lock file beside it,
    ``.NAME.lock``): a second run writing the same file is refused at once (exit 2) instead of
    overwriting the first one's checkpoints.  No lock where the folder does not exist yet."""
    folder, name = os.path.split(os.path.abspath(path))
    if not os.path.isdir(folder):
        yield
        return
    lock = os.path.join(folder, f".{name}.lock")
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:
        yield  # a folder that takes no lock file: run unlocked, as before
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise SimkitError(f"another simkit run is writing {path!r} (it holds {lock!r}): wait for "
                          f"it, or write another file") from None
    try:
        yield
    finally:
        try:
            os.remove(lock)
        except OSError:
            pass
        os.close(fd)


def check_output(path: str) -> str:
    """:func:`kind_of` and :func:`check_writable`: a results file that can be written."""
    kind_of(path)
    return check_writable(path)


def _umask() -> int:
    old = os.umask(0)
    os.umask(old)
    return old


def kind_of(path: str) -> str:
    ext = os.path.splitext(path)[1].lower()
    if ext in (".parquet", ".pq"):
        return "parquet"
    if ext == ".csv":
        return "csv"
    raise SimkitError(f"cannot write {path!r}: the output file must end in .parquet or .csv")


def write_table(path: str, df: pd.DataFrame, meta: dict | None = None) -> None:
    """Write ``df`` atomically; Parquet files also keep ``meta`` (JSON) for resume and reports."""
    if kind_of(path) == "csv":
        _atomic(path, lambda tmp: df.to_csv(tmp, index=False))
        return
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(df, preserve_index=False)
    md = dict(table.schema.metadata or {})
    md[META_KEY] = json.dumps({"format": FORMAT, **(meta or {})}).encode()
    table = table.replace_schema_metadata(md)
    _atomic(path, lambda tmp: pq.write_table(table, tmp))


def read_table(path: str) -> tuple[pd.DataFrame, dict]:
    """Read a results file written by simkit: ``(table, meta)``; exit-2 errors when it is not one."""
    if not os.path.exists(path):
        raise SimkitError(f"results file {path!r} not found")
    kind = kind_of(path)
    try:
        if kind == "csv":
            df = pd.read_csv(path)
            meta = {}
        else:
            import pyarrow.parquet as pq
            t = pq.read_table(path)
            raw = (t.schema.metadata or {}).get(META_KEY)
            if raw is None:
                raise SimkitError(f"{path!r} is not a simkit results file (no simkit metadata)")
            meta = json.loads(raw)
            if not isinstance(meta, dict):
                raise SimkitError(f"{path!r} has corrupt simkit metadata (not a JSON object)")
            df = t.to_pandas()
    except SimkitError:
        raise
    except Exception as e:  # noqa: BLE001 - corrupt or foreign file
        raise SimkitError(f"cannot read results file {path!r}: {type(e).__name__}: "
                          f"{str(e).splitlines()[0] if str(e) else 'unreadable'}") from None
    if kind == "parquet" and meta.get("format") != FORMAT:
        raise SimkitError(f"{path!r} has results format {meta.get('format')}, this simkit reads {FORMAT}")
    for col in ("game", "metric", "mean"):
        if col not in df.columns:
            raise SimkitError(f"{path!r} is not a simkit results table (no {col!r} column)")
    return df, meta


def encode_chunks(aggs) -> list[dict]:
    """Per-configuration chunk aggregates as JSON-able lists (floats round-trip exactly)."""
    return [{str(c): [cnt, acc[0].tolist(), acc[1].tolist()] for c, (cnt, acc) in a.chunks.items()}
            for a in aggs]


def decode_chunks(data, aggs, plan: list[tuple[int, int]]) -> None:
    """Load stored chunk aggregates into ``aggs``, checking each against the request's ``plan``
    (chunk index and size); anything else in the file is a corrupt-file error."""
    sizes = dict(plan)
    try:
        if not isinstance(data, list) or len(data) != len(aggs):
            raise ValueError("wrong number of configurations")
        for a, d in zip(aggs, data):
            for c, (cnt, s, ss) in d.items():
                c, cnt = int(c), int(cnt)
                if sizes.get(c) != cnt:
                    raise ValueError(f"chunk {c} with {cnt} deals is not in this request's plan")
                acc = np.array([s, ss], np.float64)
                if acc.shape != (2, a.n_metrics) or not np.isfinite(acc).all():
                    raise ValueError("aggregates do not match this game's metrics")
                a.add(c, cnt, acc)
    except (TypeError, ValueError, AttributeError, KeyError) as e:
        raise SimkitError(f"the results file's chunk aggregates are corrupt ({e}); "
                          f"run without --resume to start again") from None
