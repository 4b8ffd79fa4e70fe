"""A Fan-Tan game move by move (``simkit replay fan_tan``), from the move log of
:mod:`simkit.games.fan_tan.engine`: the deal, the antes (line 125), each turn's card or pass
(lines 126-127; the turns' events read by :func:`simkit.engines.moves.split_event`) and the end
(line 128), the layout followed as the kernel follows it."""
from __future__ import annotations

from simkit.core.cards import SUIT_SYMBOLS
from simkit.engines.moves import Records, split_event
from simkit.games.fan_tan.engine import EV_PASS, MAX_LOG, low_rank


def _sorted(cards) -> list[int]:
    return sorted(cards, key=lambda c: (c >> 4, low_rank(c)))


def _playable(c: int, lo: list[int], hi: list[int]) -> bool:
    r, s = low_rank(c), c >> 4
    if lo[s] == 0:
        return r == 7
    return r == lo[s] - 1 or r == hi[s] + 1


def _chips(n) -> str:
    return f"{n:g} chip{'' if n == 1 else 's'}"


def moves(rules, log: list[int], metrics: dict) -> list[dict]:
    K = rules.players
    rec = Records()
    add = rec.rec

    first, step = log[0], log[1]
    hands = [set() for _ in range(K)]
    for j in range(52):
        hands[(first + step * (j % K)) % K].add(log[2 + j])
    for p in range(K):
        add(p, "is dealt", _sorted(hands[p]))
    most = max(len(h) for h in hands)
    for p in range(K):
        a = rules.ante_even if 52 % K == 0 else (1 if len(hands[p]) == most else 2)
        add(p, "antes", note=f"{_chips(a)} to the pool")
    lo, hi = [0] * 4, [0] * 4
    turns = log[54:]
    for x in turns:
        kind, p, _, c = split_event(x)
        if kind == EV_PASS:
            able = any(_playable(h, lo, hi) for h in hands[p])
            add(p, "passes", note="pays a chip to the pool"
                + (" (holding a card he could play)" if able else ""))
            continue
        hands[p].discard(c)
        r, s = low_rank(c), c >> 4
        if r == 7:
            lo[s] = hi[s] = 7
            note = f"opens the {SUIT_SYMBOLS[s]} row"
        elif r < 7:
            lo[s] = r
            note = ""
        else:
            hi[s] = r
            note = ""
        if not hands[p]:
            note = "goes out: his last card"
        add(p, "plays", [c], note)
    if len(turns) >= MAX_LOG and all(hands):
        add(None, f"the move log ends after {MAX_LOG} turns")
    w = int(metrics["winner_seat"]) - 1
    for q in range(K):
        if q != w and hands[q]:
            add(q, "pays for the cards left", _sorted(hands[q]), _chips(len(hands[q])))
    add(w, "takes the pool", note=f"{_chips(metrics['pool'])}; net "
        + ", ".join(f"p{k + 1} {metrics[f'p{k + 1}_chips']:+g}" for k in range(K)))
    return rec
