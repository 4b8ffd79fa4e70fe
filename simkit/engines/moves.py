"""Shared pieces of the games' move logs and their move-by-move replay decoders (each game's
``replay.moves``, the ``GameSpec.replay`` of ``simkit replay``): the record list, the deal blocks of a
multi-deal log row, and the house's one move-log encoding.

The event encoding (issue 28; every game's move log): one ``int64`` per move,
``kind << 20 | seat << 16 | aux << 8 | card`` (the card a house code 0..64, the joker 64 included,
0 where the move names no card; seat 0..15, the seat that acts; aux 0..255: a meld index, a count,
a flag, a second card; kind: the game's own constants), made by :func:`event`, written in a kernel
by :func:`put_event` (the write position in a small array) or :func:`put_next` (the position a
local the kernel carries), and read back by :func:`split_event`.  A number wider than the event's
16 bits of ``aux << 8 | card`` (a score, a deal number) is a value event, :func:`put_value`, read by
:func:`values`.  A multi-deal unit's row is a head and one block of events per logged deal
(:func:`blocks`, :func:`each_deal`); a game whose replay or reference reads named columns
rebuilds them from its events (Klaberjass's and Stovkahra's ``deal_columns``).
"""
from __future__ import annotations

from numba import njit


@njit(cache=True, nogil=True, inline="always")
def event(kind, seat, aux, card):
    """The ``int64`` of a move: ``kind << 20 | seat << 16 | aux << 8 | card``."""
    return (kind << 20) | (seat << 16) | (aux << 8) | card


@njit(cache=True, nogil=True, inline="always")
def put_event(log, i, cur, at, kind, seat, aux, card):
    """Append an event to row ``i`` of ``log`` at the write position ``cur[at]`` (advanced; a full
    row drops the event, an empty ``log`` logs nothing).  The position lives in a small array of
    the game's work record, passed alone so that a call costs no reference count of the others."""
    if log.shape[0] > 0:
        q = cur[at]
        if q < log.shape[1]:
            log[i, q] = event(kind, seat, aux, card)
            cur[at] = q + 1


@njit(cache=True, nogil=True, inline="always")
def put_next(log, i, lp, kind, seat, aux, card):
    """Write an event at position ``lp`` of row ``i`` of ``log`` (a full row or an empty
    ``log`` writes nothing) and return ``lp + 1``: for kernels that carry the position as a
    local."""
    if log.shape[0] > 0 and lp < log.shape[1]:
        log[i, lp] = event(kind, seat, aux, card)
    return lp + 1


def split_event(e: int) -> tuple[int, int, int, int]:
    """``(kind, seat, aux, card)`` of an event written by :func:`put_event`."""
    e = int(e)
    return e >> 20, (e >> 16) & 15, (e >> 8) & 255, e & 255


class Records(list):
    """A replay's records (dicts ``deal, seat, action, cards, note``), written with :meth:`rec`
    under the current :attr:`deal` (1-based)."""

    def __init__(self, deal: int = 1):
        super().__init__()
        self.deal = deal

    def rec(self, seat, action: str, cards=(), note: str = "") -> None:
        self.append(dict(deal=self.deal, seat=None if seat is None else int(seat), action=action,
                         cards=[int(c) for c in cards], note=note))


def blocks(log, nhead: int, width: int, played: int, room: int) -> list[list[int]]:
    """The logged deals of a unit's row (a head of ``nhead`` entries, ``played`` deals played,
    ``room`` blocks of ``width`` in a full row), each block padded back with the -1s the row's
    trimmed tail lost (:func:`simkit.core.play.playthrough` drops trailing -1s)."""
    k = min(played, room)
    log = list(log) + [-1] * (nhead + k * width - len(log))
    return [log[nhead + j * width:nhead + (j + 1) * width] for j in range(k)]


def each_deal(out: Records, log, nhead: int, width: int, played: int, room: int):
    """The logged deals' blocks (:func:`blocks`), ``out.deal`` numbering each; then
    :func:`log_ends`."""
    bs = blocks(log, nhead, width, played, room)
    for j, b in enumerate(bs):
        out.deal = j + 1
        yield b
    log_ends(out, played, len(bs))


def log_ends(out: Records, played: int, logged: int) -> None:
    """A closing record when a unit played more deals than its row holds."""
    if played > logged:
        out.deal = max(logged, 1)
        out.rec(None, "the log ends", [], f"{played} deals were played; the log holds the first "
                                          f"{logged}")


def cards_of(mask: int) -> list[int]:
    """The codes of a ``uint64`` hand mask's cards (a log stores it as an ``int64``), in order."""
    return [c for c in range(64) if int(mask) >> c & 1]


@njit(cache=True, nogil=True, inline="always")
def put_value(log, i, lp, kind, seat, x, high):
    """A value event at position ``lp`` (:func:`put_next`): ``aux << 8 | card`` the low 16 bits
    of ``x >= 0``, after an event of kind ``high`` (the game's) holding the bits above them when
    there are any; returns the next position.  A reader adds ``high``'s ``aux << 8 | card``
    times 65536 to the value that follows it (Klaberjass's redeals, points and scores;
    Stovkahra's game and deal numbers)."""
    if x >= 65536:
        lp = put_next(log, i, lp, high, 0, (x >> 24) & 255, (x >> 16) & 255)
    return put_next(log, i, lp, kind, seat, (x >> 8) & 255, x & 255)


def values(events, high: int):
    """The events of a block up to its -1 padding as ``(kind, seat, aux, card, value)``, ``value``
    the event's ``aux << 8 | card`` plus 65536 times the ``high`` event before it (which is
    folded in, not given): the reader of :func:`put_value`."""
    top = 0
    for e in events:
        if e < 0:
            return
        kind, seat, aux, card = split_event(e)
        if kind == high:
            top = aux << 8 | card
            continue
        yield kind, seat, aux, card, top << 16 | aux << 8 | card
        top = 0
