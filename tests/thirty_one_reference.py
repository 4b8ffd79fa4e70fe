"""A plain statement of Thirty-one's rules (``002_17c4cc3dde05b547.txt`` lines 17-82), written apart
from the engine, that replays the engine's move log (events ``kind << 20 | seat << 16 | aux << 8
| card``, see :mod:`simkit.games.thirty_one.engine`) and the deal's metric row.

It keeps hands as Python lists and the stock as a set, deals the logged cards to the seats from
the rules alone (the dealer's first three, his second hand or the after-deal table, the others in
turn order, the turned card), recomputes every hand value with its own suit-sum function, checks
each move's legality (whose turn, the knock and its last round, the player who exchanged all
three, a stock draw from the stock, the turned card, a discard from the hand, the reshuffle), the
end of the deal (31 at once, the last round over, the turn cap), and who lost a life, including
the draw variant's knock and 31 rules; then the metric row (losers, values, turns, reasons).

:func:`check` returns ``None`` or ``(entry position, what is wrong)``.
"""
from __future__ import annotations

KINDS = ["DEAL", "CARD", "CHOICE", "KNOCK", "PASS", "SWAP1", "SWAP3", "DRAW", "DISCARD",
         "RESHUFFLE", "END", "LOST"]
REASONS = ["knock", "31", "capped", "stock_out", "replay", "unresolved"]


def points(card: int) -> int:
    rank = card % 16
    if rank == 14:
        return 11
    if rank >= 11:
        return 10
    return rank


def value(hand, trips=True) -> int:
    """The best sum of one suit's cards; three of a kind 30 (lines 41-50, 74-82)."""
    if trips and len({c % 16 for c in hand}) == 1:
        return 30
    by_suit = {}
    for c in hand:
        by_suit[c // 16] = by_suit.get(c // 16, 0) + points(c)
    return max(by_suit.values())


def pack(deck: int):
    low = 6 if deck == 36 else 2
    return {s * 16 + r for s in range(4) for r in range(low, 15)}


class Bad(Exception):
    pass


def losers(vals: dict, draw: bool, reason: str, knocker, layer):
    """Seats losing a life, or None for an all-equal deal (replayed)."""
    if draw and reason == "31":
        # line 65: the one who laid 31 down wins at once; the others show, the lowest of them
        # loses, and so does any other who held 31 and could not lay it down; this comes before
        # line 53's replay of an all-equal deal (every hand 31 is no replay: the others lose)
        others = {k: v for k, v in vals.items() if k != layer}
        low = min(others.values())
        return {k for k, v in others.items() if v == low or v == 31}
    lo, hi = min(vals.values()), max(vals.values())
    if lo == hi:
        return None
    out = {k for k, v in vals.items() if v == lo}
    if draw and reason == "knock":
        best = [k for k, v in vals.items() if v == hi]
        if vals[knocker] < hi or len(best) >= 2:
            out.add(knocker)
    return out


def check(row, metrics: dict, rules, turns=None):
    """Replay one deal's log ``row`` against ``rules``; ``metrics``: its metric row by name.
    ``turns``: a list to which every turn is appended, before its move, as ``(seat, move kind,
    hand, table or None, the turned card or None, barred)`` (``barred``: he exchanged all three
    and may no longer exchange)."""
    entries = [int(e) for e in row if e != -1]
    try:
        _check(entries, metrics, rules, turns)
    except Bad as e:
        pos, what = e.args
        return pos, what
    return None


def _check(entries, metrics, rules, turns_out=None):
    K = rules.players
    draw = rules.variant == "draw"
    trips = rules.trips
    full = pack(rules.deck)
    order = list(range(1, K)) + [0]      # p1 deals; the seat on his left plays first
    pos = 0
    total_turns = 0
    replays = 0
    first_hand = None

    def take(kind):
        nonlocal pos
        if pos >= len(entries):
            raise Bad(pos, f"the log ends, expected {kind}")
        e = entries[pos]
        k = KINDS[(e >> 20) - 1] if 1 <= (e >> 20) <= len(KINDS) else "?"
        if kind is not None and k != kind:
            raise Bad(pos, f"expected {kind}, found {k}")
        pos += 1
        return k, (e >> 16) & 15, (e >> 8) & 255, e & 255     # kind, seat, aux, card

    def peek():
        e = entries[pos] if pos < len(entries) else None
        return None if e is None else KINDS[(e >> 20) - 1]

    while True:
        _, seat, aux, _ = take("DEAL")
        if seat != 0 or aux != replays:
            raise Bad(pos - 1, "wrong dealer or replay number")
        cards = []
        while peek() == "CARD":
            _, seat, _, c = take("CARD")
            if seat != 0:
                raise Bad(pos - 1, "a card dealt by another seat than the dealer")
            cards.append(c)
        if len(set(cards)) != len(cards) or not set(cards) <= full:
            raise Bad(pos, "dealt cards repeat or are not in the pack")
        hands = {}
        table = None
        refused = False
        if draw:
            if len(cards) != 3 * K + 1:
                raise Bad(pos, "wrong number of cards dealt")
            hands[0] = cards[:3]
            for q, k in enumerate(order[:-1]):
                hands[k] = cards[3 + 3 * q: 6 + 3 * q]
            pile = [cards[-1]]
            stock = full - set(cards)
            groups = [cards[3 * q: 3 * q + 3] for q in range(K)]
        else:
            refused = bool(take("CHOICE")[2])
            first = cards[:3]
            j = 3
            second = None
            if refused or rules.table_source == "second_hand":
                second = cards[3:6]
                j = 6
            others = []
            for k in order[:-1]:
                hands[k] = cards[j:j + 3]
                others.append(hands[k])
                j += 3
            if second is None:
                second = cards[j:j + 3]
                j += 3
            if j != len(cards):
                raise Bad(pos, "wrong number of cards dealt")
            hands[0], table = (second, first) if refused else (first, second)
            groups = [first, second] + others
        new = first_hand is None
        if new:
            first_hand = [value(cards[:3], trips), any(value(g, trips) == 31 for g in groups), 0]
        hands = {k: list(h) for k, h in hands.items()}
        table = list(table) if table is not None else None
        reason = None
        layer = None
        if not draw:
            for k in order:
                if value(hands[k], trips) == 31:
                    reason, layer = "31", k
                    break
        knocker = None
        remaining = 0
        gain = 0
        v0 = value(hands[order[0]], trips)
        swapped = set()
        turns = 0
        t = 0
        while reason is None:
            if turns >= rules.max_turns:
                reason = "capped"
                break
            k = order[t % K]
            t += 1
            if peek() == "END" and draw and rules.stock_out == "end" and not stock:
                reason = "stock_out"
                break
            kind, seat, aux, card = take(None)
            if turns_out is not None:
                turns_out.append((k, kind, list(hands[k]), None if draw else list(table),
                                  pile[-1] if draw and pile else None, k in swapped))
            if kind not in ("KNOCK", "PASS", "SWAP1", "SWAP3", "DRAW", "RESHUFFLE"):
                raise Bad(pos - 1, f"unexpected {kind} in the turns")
            if kind != "RESHUFFLE" and seat != k:
                raise Bad(pos - 1, f"seat {seat} plays, seat {k} was to play")
            knock = False
            if kind == "KNOCK":
                if knocker is not None:
                    raise Bad(pos - 1, "a second knock")
                if draw is False and k in swapped and rules.swap_all == "hold":
                    raise Bad(pos - 1, "a knock by a player holding after swapping all")
                knock = True
            elif kind == "PASS":
                if draw:
                    raise Bad(pos - 1, "no pass in the draw variant")
                if knocker is None and not (k in swapped and rules.swap_all == "hold"):
                    raise Bad(pos - 1, "a pass before any knock")
            elif kind in ("SWAP1", "SWAP3"):
                if draw:
                    raise Bad(pos - 1, "no exchange with a table in the draw variant")
                if k in swapped:
                    raise Bad(pos - 1, "an exchange by a player who exchanged all three")
                if kind == "SWAP1":
                    a, b = card, aux
                    if a not in hands[k] or b not in table:
                        raise Bad(pos - 1, "an exchange of cards not in the hand or the table")
                    hands[k][hands[k].index(a)] = b
                    table[table.index(b)] = a
                else:
                    hands[k], table = table, hands[k]
                    swapped.add(k)
            else:                                            # the draw variant's draw
                if not draw:
                    raise Bad(pos - 1, "a draw in the table variant")
                if kind == "RESHUFFLE":
                    if stock or rules.stock_out != "reshuffle" or aux != len(pile) - 1:
                        raise Bad(pos - 1, "a reshuffle not allowed here")
                    stock = set(pile[:-1])
                    pile = pile[-1:]
                    kind, seat, aux, card = take("DRAW")
                    if seat != k or aux != 0:
                        raise Bad(pos - 1, "a reshuffle not followed by the player's stock draw")
                c, src = card, aux
                if src == 0:
                    if c not in stock:
                        raise Bad(pos - 1, "a stock draw of a card not in the stock")
                    stock.discard(c)
                else:
                    if not pile or c != pile[-1]:
                        raise Bad(pos - 1, "took a card that is not the turned card")
                    pile.pop()
                hands[k].append(c)
                _, seat, _, d = take("DISCARD")
                if seat != k or d not in hands[k]:
                    raise Bad(pos - 1, "a discard not from the player's hand")
                hands[k].remove(d)
                pile.append(d)
            if not draw and k in swapped and kind in ("KNOCK", "PASS"):
                forced = "KNOCK" if knocker is None and rules.swap_all == "knock" else "PASS"
                if kind != forced:
                    raise Bad(pos - 1, f"a player who swapped all must {forced}")
            turns += 1
            if t == 1:
                gain = value(hands[k], trips) - v0
            if kind not in ("KNOCK", "PASS") and value(hands[k], trips) == 31:
                reason, layer = "31", k
                break
            if knock:
                knocker = k
                remaining = K - 1 if (not draw or rules.last_round) else 0
            elif knocker is not None:
                remaining -= 1
            if knocker is not None and remaining == 0:
                reason = "knock"
                break
        total_turns += turns
        if new:
            first_hand[2] = gain
        vals = {k: value(h, trips) for k, h in hands.items()}
        lost = losers(vals, draw, reason, knocker, layer)
        got_reason = REASONS[take("END")[2]]
        mask = take("LOST")[2] if got_reason != "replay" else 0
        if lost is None:
            if replays < rules.max_replays:
                if got_reason != "replay" or mask:
                    raise Bad(pos - 1, "an all-equal deal not replayed")
                replays += 1
                continue
            if got_reason != "unresolved" or mask:
                raise Bad(pos - 1, "the replays' bound not kept")
            lost = set()
        elif got_reason != reason:
            raise Bad(pos - 1, f"the deal ended by {got_reason}, the rules say {reason}")
        if mask != sum(1 << k for k in lost):
            raise Bad(pos - 1, f"losers {mask:b}, the rules say {sorted(lost)}")
        break
    if pos != len(entries):
        raise Bad(pos, "the log goes on after the deal")
    m = metrics
    want = {"turns": total_turns, "replays": replays, "first3": first_hand[0],
            "dealt_31": float(first_hand[1]), "refused": float(refused),
            "first_gain": first_hand[2],
            "knocked": float(got_reason == "knock"), "ended_31": float(got_reason == "31"),
            "capped": float(got_reason == "capped"), "losers": len(lost)}
    for k in range(K):
        want[f"p{k + 1}_lose"] = float(k in lost)
        want[f"p{k + 1}_value"] = vals[k]
        want[f"p{k + 1}_31"] = float(vals[k] == 31)
        want[f"p{k + 1}_knock"] = float(knocker == k)
    for name, w in want.items():
        if m[name] != w:
            raise Bad(pos, f"metric {name} is {m[name]}, the replay says {w}")
