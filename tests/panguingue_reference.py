"""A plain-Python statement of Panguingue's rules (003:89-104, READINGS-rummy.md section 5),
written from the text and not from the engine: it replays a logged deal (the log format of
``simkit.games.panguingue.engine``'s docstring, house card codes) and checks every move, then
recomputes the chips.

Checks: the dealt cards and every stock card come out of the pack; each seat decides once, from
p1, whether to go on top (the last seat only if someone else stays); turns go to the next active
seat; a turn's draw is a forced take (demanded by another active seat, the discard fitting the
mover's melds, then added at once), a take of the top discard melded at once (in a new meld or,
with ``discard_take=layoff_only``, only added) or a stock card; new melds are exactly three cards
of a legal set or rope (line 95-96); additions go to one's own melds and fit them; conditions pay
the values of line 98 (and the published row), each addition to a condition pays again; the card
drawn never stays in the hand (the hand after the turn holds no card it did not hold before it);
one discard ends the turn unless the seat has melded eleven cards and wins (line 100).
Split and borrow (line 99): a borrow takes one card of an own meld of four or more cards into a
new three-card meld, a split moves three or more cards of an own meld into a new meld; every part
left or made must be a legal meld (a set of three or more of a rank: aces and kings any suits,
others one suit or three suits or more, with ``mixed_add=new_suit`` no suit twice; a rope of three
or more in suit sequence).  A part continues the condition of the meld it came from when its cards
still make that condition (the part kept is looked at first); any other part whose cards make a
condition (line 98; a rope from the ace or to the king) is made by the split or borrow and pays.
Settlement (line 101): the conditions again, the winner's chips from each active player, the
forfeits; with no winner ``stock_end`` decides.
"""
from __future__ import annotations

from collections import Counter

ORDER = [14, 2, 3, 4, 5, 6, 7, 11, 12, 13]     # A low, the seven followed by the jack (line 90)
VALLE = {3, 5, 7}
SPADES = 3


def pos(code):
    return ORDER.index(code & 15)


def suit(code):
    return code >> 4


def pack(rules):
    cards = Counter({s * 16 + r: rules.packs for s in range(4) for r in ORDER})
    if rules.spades_removed:
        for r in ORDER:
            cards[SPADES * 16 + r] -= 1
    return cards


class Meld:
    """A meld on the table: its cards and, once made, its condition value (0: none)."""

    def __init__(self, cards, rules):
        self.cards = list(cards)
        self.rules = rules
        self.value = 0

    def kind(self):
        ranks = {c & 15 for c in self.cards}
        suits = [suit(c) for c in self.cards]
        if len(ranks) == 1:
            r = next(iter(ranks))
            if r in (14, 13):
                return "free"
            if len(set(suits)) == 1:
                return "one"
            return "mixed"
        return "rope"

    def fits(self, c):
        k = self.kind()
        r0 = self.cards[0] & 15
        if k == "free":
            return c & 15 == r0
        if k == "one":
            return c == self.cards[0]
        if k == "mixed":
            if c & 15 != r0:
                return False
            return self.rules.mixed_add == "any" or suit(c) not in {suit(x) for x in self.cards}
        ps = [pos(x) for x in self.cards]
        return suit(c) == suit(self.cards[0]) and pos(c) in (min(ps) - 1, max(ps) + 1)


def legal_three(cards):
    """Line 95-96: three cards of a rank (aces and kings any suits; others all one suit or
    all different suits) or three in suit sequence."""
    a, b, c = cards
    if a & 15 == b & 15 == c & 15:
        if a & 15 in (14, 13):
            return True
        ss = {suit(a), suit(b), suit(c)}
        return len(ss) in (1, 3)
    if suit(a) == suit(b) == suit(c):
        ps = sorted(pos(x) for x in cards)
        return ps[1] == ps[0] + 1 and ps[2] == ps[0] + 2
    return False


def legal_meld(cards, rules):
    """A part of a split or borrow (line 99): a legal meld of three cards or more."""
    if len(cards) < 3:
        return False
    ranks = {c & 15 for c in cards}
    suits = [suit(c) for c in cards]
    if len(ranks) == 1:
        if next(iter(ranks)) in (14, 13) or len(set(suits)) == 1:
            return True
        if len(set(suits)) < 3:
            return False
        return rules.mixed_add == "any" or len(set(suits)) == len(cards)
    ps = sorted(pos(c) for c in cards)
    return len(set(suits)) == 1 and ps == list(range(ps[0], ps[0] + len(ps)))


def made_value(cards, rules):
    """The condition a meld's cards make (line 98): a rope from the ace or to the king, a set as
    :func:`condition`."""
    if Meld(cards, rules).kind() == "rope":
        ps = [pos(c) for c in cards]
        if min(ps) == 0 or max(ps) == 9:
            return 2 if suit(cards[0]) == SPADES else 1
        return 0
    return condition(cards, rules)


def condition(cards, rules):
    """Line 98 (and the published fourth row): a new meld's chips per active player."""
    k = Meld(cards, rules).kind()
    r, s = cards[0] & 15, suit(cards[0])
    if k == "one" and r in VALLE:
        return 4 if s == SPADES else 2
    if k == "one" and rules.conditions == "published":
        return 2 if s == SPADES else 1
    if k == "mixed" and r in VALLE:
        return 1
    if k == "rope":
        ps = sorted(pos(x) for x in cards)
        if ps == [0, 1, 2] or ps == [7, 8, 9]:
            return 2 if s == SPADES else 1
    return 0


class Deal:
    def __init__(self, rules):
        self.rules = rules
        self.K = rules.players
        self.left = pack(rules)
        self.hands = [Counter() for _ in range(self.K)]
        self.melds = [[] for _ in range(self.K)]
        self.active = [True] * self.K
        self.chips = [0] * self.K
        self.cond = [0] * self.K
        self.collected = [0] * self.K     # chips per payer collected for conditions
        self.base = [0] * self.K          # the conditions' values, once each
        self.pot = 0
        self.top = None

    def take_from_pack(self, c):
        assert self.left[c] > 0, f"card {c} is not left in the pack"
        self.left[c] -= 1

    def pay(self, p, v):
        for q in range(self.K):
            if q != p and self.active[q]:
                self.chips[q] -= v
                self.chips[p] += v
                self.cond[p] += v
        self.collected[p] += v

    def melded(self, p):
        return sum(len(m.cards) for m in self.melds[p])


def _split(e):
    return e >> 20, (e >> 16) & 15, (e >> 8) & 255, e & 255


def replay(rules, log):
    """Replay one logged deal; returns the metrics it implies (by name).  Raises
    AssertionError at the first illegal move."""
    K = rules.players
    n = K * 10
    D = Deal(rules)
    nev = log[1]
    D.eldest = (log[0] + 1) % K
    for j in range(n):
        c = int(log[2 + j])
        D.take_from_pack(c)
        D.hands[(D.eldest + j // 5) % K][c] += 1
    D.top = int(log[2 + n])
    D.take_from_pack(D.top)
    events = [int(e) for e in log[3 + n:3 + n + nev]]
    i = _decide(D, events)
    return _play(D, events, i)


def replay_session(rules, row):
    """Replay every logged deal of a session's row (``unit=session``; the layout of the
    engine's docstring: the deals played, the deals logged, then each deal's block back to back,
    trimmed to its events) with the chips carried from deal to deal.  The first deal's eldest is
    p1, each next one's the last winner (``next_eldest=winner``) or, after a deal with no winner
    or with ``rotate``, the next seat.  Returns ``(totals, played, logged)``: the session's
    metrics (by name) summed over the logged deals."""
    K = rules.players
    row = [int(x) for x in row]
    played, logged = row[0], row[1]
    assert played == rules.deals and 0 <= logged <= played, (played, logged)
    tot = {f"p{q + 1}_{m}": 0.0 for q in range(K) for m in ("chips", "wins", "tops", "conditions")}
    tot.update(turns=0.0, stock_outs=0.0)
    b, eldest = 2, 0
    for _ in range(logged):
        block = row[b:b + 3 + 10 * K + row[b + 1]]
        assert (block[0] + 1) % K == eldest, f"deal with p{(block[0] + 1) % K + 1} eldest, " \
                                             f"p{eldest + 1} expected"
        got = replay(rules, block)
        b += len(block)
        winner = -1
        for q in range(K):
            s = f"p{q + 1}_"
            tot[s + "chips"] += got[s + "chips"]
            tot[s + "wins"] += got[s + "win"]
            tot[s + "tops"] += got[s + "top"]
            tot[s + "conditions"] += got[s + "conditions"]
            winner = q if got[s + "win"] else winner
        tot["turns"] += got["turns"]
        tot["stock_outs"] += got["stock_out"]
        eldest = winner if winner >= 0 and rules.next_eldest == "winner" else (eldest + 1) % K
    assert all(x == -1 for x in row[b:]), "entries after the logged deals"
    return tot, played, logged


def _decide(D, events):
    """Line 93: one decision a seat, from the eldest."""
    for d in range(D.K):
        p = (D.eldest + d) % D.K
        kind, s, aux, _ = _split(events[d])
        assert kind == 1 and s == p, f"decision {p}: {events[d]:x}"
        if aux:
            assert not (d == D.K - 1 and sum(D.active) == 1), "nobody would play"
            D.active[p] = False
            D.chips[p] -= D.rules.forfeit
            D.pot += D.rules.forfeit
    return D.K


def _next(D, p):
    q = (p + 1) % D.K
    while not D.active[q]:
        q = (q + 1) % D.K
    return q


def _play(D, events, i):
    rules, K = D.rules, D.K
    p = _next(D, (D.eldest + K - 1) % K)
    winner, turns, ended = -1, 0, False
    if sum(D.active) == 1:
        kind, s, _, _ = _split(events[i])
        assert kind == 10 and s == p, "the one seat left wins at once"
        winner, i = p, i + 1
    while winner < 0 and i < len(events):
        kind, s, _, _ = _split(events[i])
        if kind == 11:
            ended = True
            if turns < rules.max_turns:
                turns += 1              # the turn that found the stock empty
                assert sum(D.left.values()) == 0, "the deal ended with cards in the stock"
            i += 1
            break
        assert s == p or kind == 2, f"turn of p{p + 1}, event {events[i]:x}"
        turns += 1
        i, won = _turn(D, p, events, i)
        if won:
            winner = p
            break
        p = _next(D, p)
    assert i == len(events), "events after the deal's end"
    assert winner >= 0 or ended, "the log stops before the deal's end"
    _settle(D, winner)
    out = {"turns": turns, "stock_out": 1.0 if winner < 0 else 0.0}
    for q in range(K):
        out[f"p{q + 1}_chips"] = D.chips[q]
        out[f"p{q + 1}_win"] = 1.0 if q == winner else 0.0
        out[f"p{q + 1}_top"] = 0.0 if D.active[q] else 1.0
        out[f"p{q + 1}_conditions"] = D.cond[q]
        out[f"p{q + 1}_melded"] = D.melded(q)
    return out


def _settle(D, w):
    rules = D.rules
    if w < 0:
        for q in range(D.K):
            if rules.stock_end == "void":
                D.chips[q] = 0
            elif not D.active[q]:
                D.chips[q] += rules.forfeit
        return
    again = D.base[w] if rules.again == "base" else D.collected[w]
    for q in range(D.K):
        if q != w and D.active[q]:
            D.chips[q] -= again + rules.winner_per_player
            D.chips[w] += again + rules.winner_per_player
    D.chips[w] += D.pot
    assert D.melded(w) == 11 or sum(D.active) == 1, "a winner without eleven cards melded"


def _paid(D, p, events, i, v):
    """A condition of ``v`` a player is paid at ``events[i]`` (none when ``v`` is 0)."""
    if v:
        k2, s2, a2, _ = _split(events[i])
        assert (k2, s2, a2) == (8, p, v), f"condition {v} not paid: {events[i]:x}"
        D.pay(p, v)
        i += 1
    return i


def _revalue(D, p, m, v0, events, i):
    """A part of a split or borrow: continues ``v0`` or pays the condition its cards make.
    Returns (next index, continued)."""
    v = made_value(m.cards, D.rules)
    if v0 and v == v0:
        m.value = v0
        return i, True
    m.value = v
    D.base[p] += v
    return _paid(D, p, events, i, v), False


def _borrow(D, p, events, i):
    """A borrow at ``events[i]``: the card leaves an own meld that stays legal; returns (next
    index, the card lent)."""
    _, s, aux, c = _split(events[i])
    assert s == p and aux < len(D.melds[p]), f"borrows from no meld: {events[i]:x}"
    m = D.melds[p][aux]
    assert c in m.cards and len(m.cards) >= 4, f"borrows {c} from {m.cards}"
    m.cards.remove(c)
    assert legal_meld(m.cards, D.rules), f"the borrow leaves {m.cards}"
    i, _ = _revalue(D, p, m, m.value, events, i + 1)
    assert _split(events[i])[0] == 5, "a borrowed card goes into a new meld at once"
    return i, c


def _split_meld(D, p, events, i):
    """A split at ``events[i]``: some cards of an own meld become a new meld, both legal."""
    _, s, aux, n = _split(events[i])
    assert s == p and aux < len(D.melds[p]), f"splits no meld: {events[i]:x}"
    m = D.melds[p][aux]
    moved = [_split(e)[3] for e in events[i + 1:i + 1 + n]]
    assert all(_split(e)[0] == 6 for e in events[i + 1:i + 1 + n])
    rest = Counter(m.cards)
    rest.subtract(moved)
    assert min(rest.values()) >= 0, f"splits {moved} off {m.cards}"
    rest = list((+rest).elements())
    assert legal_meld(rest, D.rules) and legal_meld(moved, D.rules), (m.cards, moved)
    v0 = m.value
    m.cards = rest
    new = Meld(moved, D.rules)
    D.melds[p].append(new)
    i, kept = _revalue(D, p, m, v0, events, i + 1 + n)
    i, _ = _revalue(D, p, new, 0 if kept else v0, events, i)
    return i


def _lay(D, p, events, i, avail, first=None, lent=None):
    """A meld or addition at ``events[i]`` from ``avail`` (the hand plus the card drawn);
    ``first``: the card that must be in it (a taken discard); ``lent``: a card borrowed from a
    meld that must be in it.  Returns the next index."""
    rules = D.rules
    kind, s, aux, c = _split(events[i])
    assert s == p
    if kind == 5:
        assert c == 3 and aux == len(D.melds[p]), "a new meld holds exactly three cards"
        cards = [_split(e)[3] for e in events[i + 1:i + 4]]
        assert all(_split(e)[0] == 6 for e in events[i + 1:i + 4])
        assert legal_three(cards), f"not a meld: {cards}"
        assert first is None or first in cards
        own = list(cards)
        if lent is not None:
            assert lent in own, "the borrowed card is not in the new meld"
            own.remove(lent)
        for x in own:
            assert avail[x] > 0, f"melds {x} not held"
            avail[x] -= 1
        m = Meld(cards, rules)
        m.value = condition(cards, rules)
        D.melds[p].append(m)
        v = m.value
        D.base[p] += v
        i += 4
    else:
        assert lent is None, "a borrowed card is added to a meld"
        assert kind == 7 and aux < len(D.melds[p]), f"expected a meld or addition: {events[i]:x}"
        assert first is None or first == c
        m = D.melds[p][aux]
        assert m.fits(c), f"{c} does not fit meld {m.cards}"
        assert avail[c] > 0, f"adds {c} not held"
        avail[c] -= 1
        v = m.value
        if v == 0 and rules.rope_extended_pays and m.kind() == "rope":
            ps = [pos(x) for x in m.cards] + [pos(c)]
            if min(ps) == 0 or max(ps) == 9:
                v = m.value = 2 if suit(c) == SPADES else 1
                D.base[p] += v
        m.cards.append(c)
        i += 1
    return _paid(D, p, events, i, v)


def _lay_any(D, p, events, i, avail, first=None):
    """A meld, an addition, a borrow and its meld, or a split at ``events[i]``."""
    kind = _split(events[i])[0]
    if kind == 13:
        assert first is None, "a split is not a way to meld a card taken"
        return _split_meld(D, p, events, i)
    lent = None
    if kind == 12:
        i, lent = _borrow(D, p, events, i)
    return _lay(D, p, events, i, avail, first, lent)


def _turn(D, p, events, i):
    """One turn from ``events[i]``; returns (next index, won)."""
    rules = D.rules
    before = Counter(D.hands[p])
    avail = Counter(D.hands[p])
    kind, s, aux, c = _split(events[i])
    if kind == 2:
        assert s != p and D.active[s] and aux == p and c == D.top
        assert any(m.fits(c) for m in D.melds[p]), "a forced take of a card that fits nothing"
        i += 1
        kind, s, aux, c = _split(events[i])
        assert kind == 3 and s == p and c == D.top
        assert _split(events[i + 1])[0] == 7, "a forced take is added to a meld at once"
        avail[c] += 1
        i = _lay(D, p, events, i + 1, avail, c)
        D.top = None
    elif kind == 3:
        assert c == D.top, "takes a card that is not the top discard"
        avail[c] += 1
        nk = _split(events[i + 1])[0]
        assert nk in (5, 7, 12), "the taken discard is not melded at once"
        if rules.discard_take == "layoff_only":
            assert nk == 7, "layoff_only: the discard may only be added"
        i = _lay_any(D, p, events, i + 1, avail, c)
        D.top = None
    else:
        assert kind == 4, f"a turn starts with a draw: {events[i]:x}"
        D.take_from_pack(c)
        avail[c] += 1
        i += 1
    while _split(events[i])[0] in (5, 7, 12, 13):
        i = _lay_any(D, p, events, i, avail)
    kind, s, _, c = _split(events[i])
    assert s == p
    if kind == 10:
        assert sum(avail.values()) == 0 and D.melded(p) == 11, "wins without eleven melded"
        D.hands[p] = avail
        return i + 1, True
    assert kind == 9, f"a turn ends with a discard: {events[i]:x}"
    assert avail[c] > 0, f"discards {c} not held"
    avail[c] -= 1
    avail = +avail
    for x, k in avail.items():
        assert k <= before[x], "the card drawn stayed in the hand (line 94)"
    D.hands[p] = avail
    D.top = c
    return i + 1, False
