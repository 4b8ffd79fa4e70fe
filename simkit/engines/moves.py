"""Shared pieces of the games' move logs and their move-by-move replay decoders (each game's
``replay.moves``, the ``GameSpec.replay`` of ``simkit replay``): the record list, the deal blocks of a
multi-deal log row, and the event encoding of the rummies.

The event encoding (Oklahoma, Panguingue, Canasta): one ``int64`` per move,
``kind << 20 | seat << 16 | aux << 8 | card`` (the card a house code 0..64, the joker 64 included;
seat 0..15; aux 0..255: a meld index, a count, a flag; kind: the game's own constants), written in a
kernel by :func:`put_event` and read back by :func:`split_event`.  The older games keep their own
log columns (issue 28 leaves them: their logs are read by their replays and references).
"""
from __future__ import annotations

from numba import njit


@njit(cache=True, nogil=True, inline="always")
def put_event(log, i, cur, at, kind, seat, aux, card):
    """Append an event to row ``i`` of ``log`` at the write position ``cur[at]`` (advanced; a full
    row drops the event, an empty ``log`` logs nothing).  The position lives in a small array of
    the game's work record, passed alone so that a call costs no reference count of the others."""
    if log.shape[0] > 0:
        q = cur[at]
        if q < log.shape[1]:
            log[i, q] = (kind << 20) | (seat << 16) | (aux << 8) | card
            cur[at] = q + 1


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
