"""An independent plain-Python statement of the Hearts rules (002:210-234), used to check the
kernel's move logs: it replays a logged hand and says whether every pass and play was legal, who
won each trick and what each player scores.  Written from the rules text and the readings listed
in ``simkit/games/hearts/rules.py``, sharing no code with the kernel.
"""
from __future__ import annotations

from collections import Counter

HEARTS, SPADES, DIAMONDS, CLUBS = 2, 3, 1, 0
QS = 3 * 16 + 12
TD = 1 * 16 + 10
SIZES = {2: 13, 4: 13, 5: 21, 6: 17, 7: 15, 8: 13, 9: 11, 10: 10, 11: 9}


def suit(c):
    return c // 16


def rank(c):
    return c % 16


def card_points(c, omnibus):
    if suit(c) == HEARTS:
        return 1
    if c == QS:
        return 13
    if omnibus and c == TD:
        return -10
    return 0


def moon_card(c, omnibus):
    return suit(c) == HEARTS or c == QS or (omnibus and c == TD)


# the move log's events (simkit/games/hearts/engine.py's docstring): kind << 20 | seat << 16 |
# aux << 8 | card, the joker card 64 (here 0, the zero of clubs, as in the rules' pack below)
DEAL, PASSING, PASS, PLAY, TRICK = 1, 2, 3, 4, 5


def events(row):
    """``(kind, seat, aux, card)`` of a logged row's events, to the first -1 (the padding)."""
    out = []
    for e in row:
        e = int(e)
        if e < 0:
            break
        c = e & 255
        out.append((e >> 20, (e >> 16) & 15, (e >> 8) & 255, 0 if c == 64 else c))
    return out


def replay(rules, row, deal_index=None, on_play=None):
    """Replay one logged hand; returns ``(scores, shooter, winners, points lost)`` or raises
    AssertionError naming the first broken rule.  ``row`` is the move-log row.  ``on_play``, if
    given, is called before each play as ``on_play(seat, hand, trick, options, card, passed)``
    (``hand`` a Counter, ``trick`` the cards already in the trick, ``options`` the legal cards,
    ``passed`` the seat's passed cards), to check a strategy's choices against its rules."""
    K = rules.players
    H = SIZES[K]
    npass = rules.pass_cards
    ev = events(row)
    offset = 0
    dealt, passed, plays, winners_logged = [], [[] for _ in range(K)], [], []
    for kind, p, aux, c in ev:
        if kind == DEAL:
            assert p == len(dealt) % K, f"card {len(dealt)} dealt to seat {p}"
            dealt.append(c)
        elif kind == PASSING:
            assert not plays and not any(passed), "the passing logged after a pass or a play"
            offset = aux
        elif kind == PASS:
            passed[p].append(c)
        elif kind == PLAY:
            plays.append((p, c))
        elif kind == TRICK:
            winners_logged.append(-1 if aux else p)
        else:
            raise AssertionError(f"unknown event kind {kind}")
    assert len(dealt) == K * H and len(plays) == K * H and len(winners_logged) == H, \
        "a hand's events missing"
    assert sum(e[0] == PASSING for e in ev) == 1, "one passing a hand"
    hands = [Counter() for _ in range(K)]
    for j, c in enumerate(dealt):
        hands[j % K][c] += 1
    # the pack: every card dealt is in the pack, no more copies than the pack has
    copies = 2 if K >= 5 else 1
    for c, m in Counter(dealt).items():
        assert m <= copies, f"card {c} dealt {m} times"
        if c == 0:
            assert K in (5, 7, 8), "joker dealt without one in the pack"
        else:
            assert 2 <= rank(c) <= 14 and suit(c) < 4, f"bad card code {c}"
            if K == 2:
                assert rank(c) in (2, 4, 6, 8, 10, 12, 14), f"card {c} is not in the 2-player pack"
    # the pass direction
    K2 = K // 2
    allowed = {"none": {0}, "left": {1 % K}, "right": {(K - 1) % K}, "across": {K2 % K},
               "random": {0, 1 % K, (K - 1) % K, K2 % K}}.get(rules.passing)
    if rules.passing == "cycle":
        allowed = {[1 % K, (K - 1) % K, K2 % K, 0][deal_index % 4]} if deal_index is not None \
            else {0, 1 % K, (K - 1) % K, K2 % K}
    if rules.pass_cards == 0:
        allowed = allowed | {offset}
    assert offset in allowed, f"pass offset {offset} not in {allowed}"
    assert all(len(x) == (npass if offset else 0) for x in passed), "passed cards missing"
    if offset and npass:
        for p in range(K):
            need = Counter(passed[p])
            for c, m in need.items():
                assert hands[p][c] >= m, f"seat {p} passed {c} it does not hold"
        for p in range(K):
            hands[p] -= Counter(passed[p])
        for p in range(K):
            hands[(p + offset) % K] += Counter(passed[p])
    # who leads: the lowest club in play
    clubs = [(c, p) for p in range(K) for c in hands[p] if suit(c) == CLUBS]
    lead_card, leader = min(clubs) if clubs else (None, 0)
    broken = not rules.hearts_broken
    taken = [0] * K
    moon_taken = [0] * K
    pending, pending_moon = 0, 0
    winners = []
    k = 0
    for t in range(H):
        trick = []
        for i in range(K):
            p, c = plays[k]; k += 1
            assert p == (leader + i) % K, f"trick {t}: seat {p} played out of turn"
            hand = hands[p]
            assert hand[c] > 0, f"trick {t}: seat {p} played {c} it does not hold"
            if t == 0 and i == 0 and lead_card is not None:
                options = {lead_card}
            else:
                options = set(hand)
                if i > 0:
                    follow = {x for x in options if suit(x) == suit(trick[0])}
                    if follow:
                        options = follow
                if t == 0 and rules.no_points_first_trick:
                    clean = {x for x in options if suit(x) != HEARTS and x != QS}
                    if clean:
                        options = clean
                if i == 0 and not broken:
                    clean = {x for x in options if suit(x) != HEARTS}
                    if clean:
                        options = clean
            assert c in options, f"trick {t}: seat {p} played {c}, legal were {sorted(options)}"
            if on_play is not None:
                on_play(p, Counter(hand), list(trick), set(options), c,
                        passed[p] if offset and npass else [])
            hand[c] -= 1
            if hand[c] == 0:
                del hand[c]
            trick.append(c)
            if suit(c) == HEARTS or (rules.qs_breaks_hearts and c == QS):
                broken = True
        led = suit(trick[0])
        counts = Counter(trick)
        pairs = sum(1 for m in counts.values() if m == 2)
        alive = [j for j, c in enumerate(trick) if counts[c] == 1 and suit(c) == led]
        if not alive or (K >= 5 and rules.holdover == "two_pairs" and pairs >= 2):
            w = -1
        else:
            w = max(alive, key=lambda j: rank(trick[j]))
        pts = sum(card_points(c, rules.omnibus) for c in trick)
        mc = sum(moon_card(c, rules.omnibus) for c in trick)
        if w < 0:
            pending += pts
            pending_moon += mc
            winners.append(-1)
        else:
            seat = (leader + w) % K
            taken[seat] += pts + pending
            moon_taken[seat] += mc + pending_moon
            pending, pending_moon = 0, 0
            leader = seat
            winners.append(seat)
    assert all(not h for h in hands), "cards left in hand"
    assert winners == winners_logged, f"winners {winners_logged}, by the rules {winners}"
    positive = sum(max(card_points(c, rules.omnibus), 0) for c in dealt)
    n_moon = sum(moon_card(c, rules.omnibus) for c in dealt)
    shooter = -1
    if rules.moon != "off" and n_moon:
        for p in range(K):
            if moon_taken[p] == n_moon:
                shooter = p
    scores = list(taken)
    if shooter >= 0:
        if rules.moon == "subtract":
            scores[shooter] -= 2 * positive
        else:  # add (and "best" in a single hand)
            scores = [s + positive if p != shooter else s - positive for p, s in enumerate(scores)]
    return scores, shooter, winners, pending
