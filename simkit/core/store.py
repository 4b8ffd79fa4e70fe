"""The results store: Parquet (or CSV) tables that carry their provenance; atomic writes; resume.

A Parquet results file holds the tidy summary table (one row per configuration and metric, every
row with game, game version, rules, strategies, seed, n, simkit version and time) and, in the
file's key-value metadata under ``simkit``, the request.  The per-chunk aggregates are data, in a
second Parquet file beside it, ``X.chunks.parquet`` (one row per configuration and chunk: deals,
sums and sums of squares of the metrics), so that any run the caps allow (2,000,000 chunks) reads
back; files of format 1 kept them as JSON in the footer and still read.  ``--resume`` reads the
aggregates back and runs only the chunks that are missing, so an interrupted run ends with exactly
the numbers of an uninterrupted one.  Every write goes to a temporary file in the same folder and
is renamed over the target, so a crash never leaves a half-written file; the chunk file is written
first and carries the request, so it is checked on its own.
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

FORMAT = 2  # 2: chunk aggregates in X.chunks.parquet; 1: as JSON in the footer (still read)
READS = (1, 2)
#: Columns of a tidy results table that are not grid columns (everything else in a table is a
#: rules option or a strategy parameter that its configurations vary)
STANDARD_COLUMNS = ("game", "rules", "strategies", "metric", "unit", "mean", "se", "ci_low",
                    "ci_high", "n", "seed", "game_version", "simkit_version", "created", "method",
                    "complete")
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
    md[META_KEY] = json.dumps({"format": FORMAT, **(meta or {}),
                               "table_sha256": table_digest(df)}).encode()
    table = table.replace_schema_metadata(md)
    _atomic(path, lambda tmp: pq.write_table(table, tmp, write_page_checksum=True))


def read_table(path: str) -> tuple[pd.DataFrame, dict]:
    """Read a results file written by simkit: ``(table, meta)``; exit-2 errors when it is not one."""
    if not os.path.exists(path):
        raise SimkitError(f"results file {path!r} not found")
    kind = kind_of(path)
    try:
        if kind == "csv":
            df = pd.read_csv(path)
            # a run's CSV file says in a column whether it is complete (no metadata in CSV)
            meta = {"complete": bool(df["complete"].all())} \
                if "complete" in df.columns and df["complete"].dtype == bool else {}
        else:
            import pyarrow.parquet as pq
            t = pq.read_table(path, page_checksum_verification=True)
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
    if kind == "parquet" and meta.get("format") not in READS:
        raise SimkitError(f"{path!r} has results format {meta.get('format')}, this simkit reads "
                          f"{' and '.join(map(str, READS))}")
    if kind == "parquet" and "table_sha256" in meta and meta["table_sha256"] != table_digest(df):
        raise SimkitError(f"{path!r} is damaged: its table does not match the checksum written "
                          f"with it")
    if kind == "parquet" and meta.get("chunks_of"):
        raise SimkitError(f"{path!r} holds the chunk aggregates of {meta['chunks_of']!r} (for "
                          f"--resume), not a results table: read {meta['chunks_of']!r}")
    for col in ("game", "metric", "mean"):
        if col not in df.columns:
            raise SimkitError(f"{path!r} is not a simkit results table (no {col!r} column)")
    return df, meta


def table_digest(df: pd.DataFrame) -> str:
    """sha256 of a results table's column names and values (numbers by their bytes, anything
    else by its text), written into a Parquet file's metadata and checked on every read: a
    flipped bit that the page checksums miss (in the footer, say) cannot change a number
    unnoticed."""
    import hashlib
    h = hashlib.sha256()
    for name in df.columns:
        col = df[name]
        h.update(f"\x1e{name}\x1f{len(col)}\x1f".encode())
        if col.dtype.kind in "biuf":
            h.update(np.ascontiguousarray(col.to_numpy()).astype(col.dtype.str.replace("|", "="),
                                                                copy=False).tobytes())
        else:
            h.update("\x1f".join(map(str, col.tolist())).encode("utf-8", "surrogatepass"))
    return h.hexdigest()


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


# --- chunk aggregates as data (format 2) -----------------------------------------------------

def chunks_name(path: str) -> str:
    """The chunk aggregates of the results file ``X.parquet``: ``X.chunks.parquet`` beside it."""
    root, ext = os.path.splitext(path)
    return f"{root}.chunks{ext}"


def write_results(path: str, df: pd.DataFrame, meta: dict, aggs, request: dict) -> None:
    """A run's results file: for Parquet, its chunk aggregates first (``X.chunks.parquet``, with the
    request), then the table, each written atomically; a CSV file keeps no chunks."""
    if kind_of(path) == "csv":
        write_table(path, df)
        return
    units = write_chunks(path, aggs, request)
    write_table(path, df, dict(meta, chunks_file=os.path.basename(chunks_name(path)), units=units))


def write_chunks(path: str, aggs, request: dict) -> int:
    """Write the chunk aggregates of the results file ``path`` (atomically, into
    ``X.chunks.parquet``, with ``request``); the number of (configuration, chunk) rows."""
    import pyarrow.parquet as pq
    table = chunk_table(aggs)
    md = {META_KEY: json.dumps({"format": FORMAT, "chunks_of": os.path.basename(path),
                                "request": request, "units": table.num_rows}).encode()}
    table = table.replace_schema_metadata(md)
    _atomic(chunks_name(path), lambda tmp: pq.write_table(table, tmp, write_page_checksum=True))
    return table.num_rows


def move_results(src: str, dst: str) -> None:
    """Move a finished run's files (the table and its chunk aggregates) onto ``dst``."""
    if kind_of(src) == "parquet" and os.path.exists(chunks_name(src)):
        os.replace(chunks_name(src), chunks_name(dst))
    os.replace(src, dst)


def chunk_table(aggs):
    """One row per configuration and chunk: ``config``, ``chunk``, ``n`` (deals), ``sum`` and
    ``sumsq`` (a list of one float per metric; configurations of a sweep may have different
    metrics)."""
    import pyarrow as pa
    cfg, idx, cnt, blocks = [], [], [], []
    for i, a in enumerate(aggs):
        keys = sorted(a.chunks)
        if not keys:
            continue
        cfg.append(np.full(len(keys), i, np.int32))
        idx.append(np.asarray(keys, np.int64))
        cnt.append(np.fromiter((a.chunks[c][0] for c in keys), np.int64, len(keys)))
        blocks.append(np.stack([a.chunks[c][1] for c in keys]).reshape(len(keys), 2, a.n_metrics))
    if not cfg:
        blocks_s = blocks_q = np.zeros(0)
        widths = np.zeros(0, np.int64)
    else:
        blocks_s = np.concatenate([b[:, 0, :].ravel() for b in blocks])
        blocks_q = np.concatenate([b[:, 1, :].ravel() for b in blocks])
        widths = np.concatenate([np.full(len(b), b.shape[2], np.int64) for b in blocks])
    offsets = pa.array(np.concatenate([[0], np.cumsum(widths)]).astype(np.int64))
    cat = (lambda xs, t: np.concatenate(xs) if xs else np.zeros(0, t))
    return pa.table({"config": cat(cfg, np.int32), "chunk": cat(idx, np.int64),
                     "n": cat(cnt, np.int64),
                     "sum": pa.LargeListArray.from_arrays(offsets, pa.array(blocks_s)),
                     "sumsq": pa.LargeListArray.from_arrays(offsets, pa.array(blocks_q))})


def _read_chunk_file(path: str):
    """``(table, meta)`` of the chunk aggregates of the results file ``path``."""
    import pyarrow.parquet as pq
    side = chunks_name(path)
    if not os.path.isfile(side):
        raise SimkitError(f"{path!r} keeps its chunk aggregates in {side!r}, which is missing (move "
                          f"or copy the two files together); run without --resume to start again")
    try:
        t = pq.read_table(side, page_checksum_verification=True)
        meta = json.loads((t.schema.metadata or {}).get(META_KEY, b"null"))
    except Exception as e:  # noqa: BLE001 - corrupt file
        raise SimkitError(f"cannot read the chunk aggregates {side!r}: {type(e).__name__}: "
                          f"{str(e).splitlines()[0] if str(e) else 'unreadable'}") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT or \
            [f.name for f in t.schema] != ["config", "chunk", "n", "sum", "sumsq"]:
        raise SimkitError(f"{side!r} is not the chunk aggregates of a simkit results file")
    return t, meta


def load_chunks(path: str, meta: dict, aggs, plan: list[tuple[int, int]], request: dict) -> None:
    """Load the chunk aggregates of the results file ``path`` (``meta`` its metadata) into
    ``aggs``: from ``X.chunks.parquet`` (format 2), whose request must be ``request``, or from the
    footer (format 1); each chunk checked against the request's ``plan``."""
    if meta.get("format") == 1:
        decode_chunks(meta.get("chunks"), aggs, plan)
        return
    t, side = _read_chunk_file(path)
    if side.get("request") != request:
        raise SimkitError(f"{chunks_name(path)!r} holds the chunk aggregates of another request "
                          f"than {path!r}; run without --resume to start again")
    try:
        cfg = t.column("config").to_numpy().astype(np.int64)
        idx = t.column("chunk").to_numpy()
        cnt = t.column("n").to_numpy()
        s, q = (t.column(k).combine_chunks() for k in ("sum", "sumsq"))
        off = s.offsets.to_numpy()
        if not np.array_equal(off, q.offsets.to_numpy()):
            raise ValueError("sums and sums of squares differ in length")
        sv, qv = s.values.to_numpy(), q.values.to_numpy()
        if len(cfg) and (cfg.min() < 0 or cfg.max() >= len(aggs)):
            raise ValueError("wrong number of configurations")
        plan_idx, plan_cnt = (np.array(sorted(plan), np.int64).reshape(-1, 2).T if plan
                              else (np.zeros(0, np.int64),) * 2)
        at = np.clip(np.searchsorted(plan_idx, idx), 0, max(len(plan_idx) - 1, 0))
        bad = ~((len(plan_idx) > 0) & (plan_idx[at] == idx) & (plan_cnt[at] == cnt))
        if bad.any():
            r = int(np.argmax(bad))
            raise ValueError(f"chunk {idx[r]} with {cnt[r]} deals is not in this request's plan")
        widths = np.array([a.n_metrics for a in aggs], np.int64)
        if not np.array_equal(np.diff(off), widths[cfg]):
            raise ValueError("aggregates do not match this game's metrics")
        if not (np.isfinite(sv).all() and np.isfinite(qv).all()):
            raise ValueError("aggregates are not finite")
        order = np.argsort(cfg, kind="stable")
        bounds = np.searchsorted(cfg[order], np.arange(len(aggs) + 1))
        for i, a in enumerate(aggs):
            rows = order[bounds[i]:bounds[i + 1]]
            if not len(rows):
                continue
            take = off[rows][:, None] + np.arange(a.n_metrics)
            acc = np.stack([sv[take], qv[take]], axis=1)  # [chunk, 2, metric]
            a.chunks.update(zip(idx[rows].tolist(), zip(cnt[rows].tolist(), acc)))
    except (TypeError, ValueError, AttributeError, KeyError, IndexError) as e:
        raise SimkitError(f"the results file's chunk aggregates are corrupt ({e}); "
                          f"run without --resume to start again") from None


def read_chunks(path: str) -> list[dict]:
    """The chunk aggregates of a results file in the JSON form of format 1, one
    ``{"chunk": [deals, sums, sums of squares]}`` per configuration (for looking at small
    files; :func:`load_chunks` is what resume uses)."""
    _, meta = read_table(path)
    if meta.get("format") == 1:
        return meta.get("chunks")
    t, _ = _read_chunk_file(path)
    n = max([len(meta["request"]["rules_strings"])] + [c + 1 for c in t.column("config").to_pylist()])
    out = [{} for _ in range(n)]
    for r in t.to_pylist():
        out[r["config"]][str(r["chunk"])] = [r["n"], r["sum"], r["sumsq"]]
    return out
