"""A slow plain-Python reference of «31» with a bank (rule text 002 lines 84-98), written from
the rules text and not from the kernel: it replays a deal's move log (the house's events, read
as ``(round, to, card)`` triples), checks that every card could be dealt (the pack's copies, a
reshuffle only when the pack is spent, line 96), that the deal order is three cards each one at
a time (line 90), that every buy or stand is what the seat's strategy decides from what it
knows, that nobody draws after a banker's dealt 31 (line 92) or when no punter is left for the
banker, and that the talia goes on exactly while cards are left (line 95); then it settles every
round by lines 92-94 and returns the deal's metrics by the game's names."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction

from simkit.engines.moves import split_event

RESHUFFLE = -2
E_RESHUFFLE = 3    # a reshuffle's event kind (events: kind << 20 | seat << 16 | round << 8 | card)


def value(code: int) -> int:
    r = code & 15
    return 1 if r == 14 else (10 if r >= 10 else r)


def best(cards) -> int:
    hard = sum(value(c) for c in cards)
    aces = sum(1 for c in cards if value(c) == 1)
    b = hard
    for _ in range(min(aces, 2)):
        if b + 10 <= 31:
            b += 10
    return b


def is_soft(cards) -> bool:
    return best(cards) != sum(value(c) for c in cards)


def pack(decks: int) -> Counter:
    return Counter({s * 16 + r: decks for s in range(4) for r in range(2, 15)})


def p_bust(cards, spent: Counter, full: Counter) -> float:
    """The chance the next card takes the hard total over 31, from the unseen cards."""
    hard = sum(value(c) for c in cards)
    unseen = Counter()
    for c, n in full.items():
        unseen[value(c)] += n
    for c, n in spent.items():
        unseen[value(c)] -= n
    for c in cards:
        unseen[value(c)] -= 1
    total = sum(unseen.values())
    return sum(n for v, n in unseen.items() if hard + v > 31) / total if total else 1.0


def decides(strategy, cards, spent, full):
    """What a strategy does with ``cards``: True (buy), False (stand), None (random: either)."""
    kind, v = strategy.kind, strategy.values
    if kind == "random":
        return None
    b = best(cards)
    if is_soft(cards):
        return b < v["soft"]
    if kind == "count":
        return b < 31 and p_bust(cards, spent, full) < v["q"]
    return b < v["t"]


def replay(rules, strategies, log, pack_cards=None) -> dict:
    """Replay one logged deal (dealt from the rules' pack, or from ``pack_cards``, e.g. a
    stacked deck); returns its metrics.  Raises AssertionError on any illegal step."""
    K = rules.punters
    full = pack(rules.decks) if pack_cards is None else Counter(int(c) for c in pack_cards)
    avail = Counter(full)
    spent = Counter()                       # cards of the talia's finished rounds
    trip = []                               # (round, seat, card), (round, RESHUFFLE, 0)
    for e in log:                           # the house's events (simkit.engines.moves)
        if e != -1:
            kind, who, rnd, c = split_event(e)
            trip.append((rnd, RESHUFFLE if kind == E_RESHUFFLE else who, c))
    m = Counter()
    seat = lambda k, name: f"p{k + 1}_{name}"  # noqa: E731
    pos = 0
    rnd = 0
    reshuffled_any = False
    while True:
        events = [t for t in trip[pos:] if t[0] == rnd]
        assert trip[pos:pos + len(events)] == events, "rounds out of order in the log"
        pos += len(events)
        hands = [[] for _ in range(K + 1)]
        table = []
        queue = list(events)
        reshuffled = False

        def next_card(to):
            """The next logged card must go to ``to``; returns it (or None: none left)."""
            nonlocal reshuffled, avail, spent
            if sum(avail.values()) == 0:
                can = rules.short_pack == "reshuffle" and sum(spent.values()) > 0
                if not can:
                    assert not queue or queue[0][1] != to, "a card dealt from an empty pack"
                    return None
                assert queue and queue[0][1] == RESHUFFLE, "pack spent but no reshuffle logged"
                queue.pop(0)
                avail, spent = Counter(spent), Counter()
                reshuffled = True
            assert queue, f"the log ends where seat {to} takes a card"
            _, who, c = queue.pop(0)
            assert who == to, f"card {c} went to seat {who}, expected seat {to}"
            assert avail[c] > 0, f"card {c} dealt more often than the pack holds it"
            avail[c] -= 1
            hands[to].append(c)
            table.append(c)
            return c

        for _ in range(3):                  # line 90
            for x in range(K + 1):
                next_card(x)
        delta = [0.0] * K
        bank31 = len(hands[K]) == 3 and best(hands[K]) == 31
        dealt31 = [len(hands[k]) == 3 and best(hands[k]) == 31 for k in range(K)]
        if bank31:                          # line 92
            m["banker_dealt31"] += 1
            m["banker_total"] += 31
            for k in range(K):
                if dealt31[k]:
                    m[seat(k, "dealt31")] += 1
                    if rules.both31 == "push":
                        m[seat(k, "push")] += 1
                    else:
                        delta[k] = rules.stake31
                        m[seat(k, "win")] += 1
                else:
                    delta[k] = -rules.stake31
                    m[seat(k, "loss")] += 1
        else:
            still = []
            for k in range(K):
                if dealt31[k]:
                    delta[k] = rules.stake31
                    m[seat(k, "dealt31")] += 1
                    m[seat(k, "win")] += 1
                    continue
                while sum(value(c) for c in hands[k]) <= 31:     # line 93
                    d = decides(strategies[k], hands[k], spent, full)
                    if d is None:           # random: the log says whether he bought
                        d = bool(queue) and queue[0][1] in (k, RESHUFFLE) and (
                            queue[0][1] == k or (len(queue) > 1 and queue[1][1] == k))
                    if not d:
                        break
                    if next_card(k) is None:
                        break
                if sum(value(c) for c in hands[k]) > 31:
                    delta[k] = -rules.bust_pays
                    m[seat(k, "bust")] += 1
                    m[seat(k, "loss")] += 1
                else:
                    still.append(k)
            if not still:
                m["banker_idle"] += 1
                m["banker_total"] += best(hands[K])
            else:                           # line 94
                while best(hands[K]) < ((rules.banker_soft or rules.banker_stand)
                                        if is_soft(hands[K]) else rules.banker_stand):
                    if next_card(K) is None:
                        break
                bt = best(hands[K])
                bust = sum(value(c) for c in hands[K]) > 31
                m["banker_bust"] += bust
                m["banker_total"] += 32 if bust else bt
                for k in still:
                    pt = best(hands[k])
                    if bust or pt > bt:
                        delta[k] = rules.banker_bust_pays if bust else rules.showdown_pays
                        m[seat(k, "win")] += 1
                    elif pt < bt:
                        delta[k] = -rules.showdown_pays
                        m[seat(k, "loss")] += 1
                    else:
                        m[seat(k, "push")] += 1
        assert not queue, f"cards dealt after the round was over: {queue[:3]}"
        for k in range(K):
            m[seat(k, "result")] += delta[k]
        m["bank_result"] -= sum(delta)
        m["reshuffles"] += reshuffled
        reshuffled_any |= reshuffled
        if rules.unit == "talia":
            spent.update(table)
        rnd += 1
        left = sum(avail.values())
        if rules.unit != "talia" or reshuffled or left < rules.min_cards:
            break
    assert pos == len(trip), "the log goes on after the deal should have ended"
    m["rounds"] = rnd
    return dict(m)


def banker_orders(counts, stand: int, soft: int | None = None) -> dict:
    """The banker alone (line 94), by following every order of the cards: dealt three from the
    value classes ``counts`` (ace, 2..9, ten-valued), drawing while his best total is below
    ``stand`` (below ``soft`` on a soft hand, an ace counted 11): his final total as exact
    fractions (``banker_31_dealt``, ``banker_<t>``, ``banker_bust``)."""
    c = [int(x) for x in counts]
    soft = stand if soft is None else soft
    out: dict = {}

    def rec(hard, aces, n, p, left):
        b = hard
        for _ in range(min(aces, 2)):
            if b + 10 <= 31:
                b += 10
        key = ("banker_bust" if hard > 31 else "banker_31_dealt" if n == 3 and b == 31 else
               f"banker_{b}" if n >= 3 and b >= (soft if b != hard else stand) else None)
        if key:
            out[key] = out.get(key, 0) + p
            return
        for v in range(10):
            if c[v]:
                c[v] -= 1
                rec(hard + v + 1, aces + (v == 0), n + 1, p * Fraction(c[v] + 1, left), left - 1)
                c[v] += 1

    rec(0, 0, 0, Fraction(1), sum(c))
    return out
