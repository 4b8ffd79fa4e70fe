"""Shared pieces of the games' move-by-move replay decoders (each game's ``replay.moves``, the
``GameSpec.replay`` of ``simkit replay``): the record list and the deal blocks of a multi-deal
log row."""
from __future__ import annotations


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
