"""A plain statement of Durak's rules, lines 168-192 of ``001_4b506a693298ed3d.txt`` (the bout,
lines 174-184), written apart from the engine, that replays the engine's move log
(:mod:`simkit.games.durak.engine`'s events ``kind << 20 | seat << 16 | aux << 8 | card``) and checks every move's
legality, every card's whereabouts after every bout and the hand sizes after every draw.

It keeps each card's place in an array (0/1 a hand, 2 the stock, 3 the table, 4 the discard,
5 set aside in super-short) instead of the engine's bit masks, and recomputes the opener, the
attack cap, the drawing and the end of every game from the rules alone.

:func:`check_row` is one plain-Python function over integers and small arrays, so numba can
compile it for the bulk run of the slow test (10^6 games), and ``check_row.py_func`` is the same
code as plain Python (the quick test).  It returns 0, or ``code * 1_000_000 + position`` of the
first entry that breaks a rule (:data:`ERRORS` names the codes).
"""
import numpy as np
from numba import njit

GAME, DECK, REDEAL, ATTACK, BEAT, TAKE, THROW, STOP, DRAW, END = range(1, 11)
ERRORS = {1: "expected a GAME entry", 2: "the deck is not the 36 cards", 3: "wrong opener",
          4: "attack with a card not in the attacker's hand", 5: "expected ATTACK",
          6: "a beat that does not beat or is not the defender's", 7: "throw-in not allowed",
          8: "unexpected entry in a bout", 9: "hand sizes after the draw differ",
          10: "card whereabouts broken", 11: "wrong end or result", 12: "redeal not allowed",
          13: "the row goes on after the unit ended", 14: "the log ended in a game",
          15: "a throw-in onto a defender who has beaten with his last card, no stock left"}


@njit(cache=True)
def check_row(row, target, match, super_short, opener_p1, after_draw_prev, cap_always,
              max_attack, first_cap):
    n = row.shape[0]
    pos = 0
    games = 0
    wins0 = 0
    wins1 = 0
    prev_opener = -1
    prev_winner = -1
    loc = np.zeros(36, np.int64)
    deck = np.zeros(36, np.int64)
    seen = np.zeros(36, np.int64)
    while pos < n and row[pos] != -1:
        if games >= 1 and not (match and target > 1):
            return 13 * 1_000_000 + pos
        if wins0 >= target or wins1 >= target:
            return 13 * 1_000_000 + pos
        while pos < n and (row[pos] >> 20) == REDEAL:
            if games > 0 or opener_p1:
                return 12 * 1_000_000 + pos
            pos += 1
        if pos >= n or (row[pos] >> 20) != GAME:
            return 1 * 1_000_000 + pos
        opener = (row[pos] >> 16) & 15
        pos += 1
        for k in range(36):
            seen[k] = 0
        for j in range(36):
            if pos >= n or (row[pos] >> 20) != DECK:
                return 2 * 1_000_000 + pos
            c = row[pos] & 255
            suit = c // 16
            rank = c % 16
            if suit > 3 or rank < 6 or rank > 14:
                return 2 * 1_000_000 + pos
            k = suit * 9 + rank - 6
            if seen[k]:
                return 2 * 1_000_000 + pos
            seen[k] = 1
            deck[j] = k            # as an index 0..35: suit * 9 + rank - 6
            pos += 1
        # the deal: three and three, twice (line 168); the trump card under the stock
        for j in range(36):
            loc[deck[j]] = 5 if super_short else 2
        for j in range(3):
            loc[deck[j]] = 0
            loc[deck[6 + j]] = 0
            loc[deck[3 + j]] = 1
            loc[deck[9 + j]] = 1
        trump = deck[12] // 9
        stock_n = 0 if super_short else 24
        sp = 0
        # the first attacker (line 174)
        low0 = 99
        low1 = 99
        for r in range(9):
            k = trump * 9 + r
            if loc[k] == 0 and low0 == 99:
                low0 = r
            if loc[k] == 1 and low1 == 99:
                low1 = r
        if low0 == 99 and low1 == 99:
            low = -1
        elif low0 < low1:
            low = 0
        else:
            low = 1
        if games == 0:
            want = 0 if opener_p1 else low
        elif prev_winner >= 0:
            want = prev_winner
        elif after_draw_prev or low < 0:
            want = prev_opener
        else:
            want = low
        if opener != want or want < 0:
            return 3 * 1_000_000 + pos
        att = opener
        first_bout = True
        result = -1
        while True:
            c0 = 0
            c1 = 0
            for k in range(36):
                if loc[k] == 0:
                    c0 += 1
                elif loc[k] == 1:
                    c1 += 1
            left = stock_n - sp
            if left == 0 and (c0 == 0 or c1 == 0):
                result = 2 if (c0 == 0 and c1 == 0) else (0 if c0 == 0 else 1)
                break
            d = 1 - att
            nd = c1 if d == 1 else c0
            limit = first_cap if first_bout else max_attack    # 5 until the first discard
            if cap_always or (left == 0 and not super_short):
                if nd < limit:
                    limit = nd
            if pos >= n or (row[pos] >> 20) != ATTACK:
                return 5 * 1_000_000 + pos
            c = row[pos] & 255
            k = (c // 16) * 9 + c % 16 - 6
            if c % 16 < 6 or c // 16 > 3 or loc[k] != att or (row[pos] >> 16) & 15 != att:
                return 4 * 1_000_000 + pos
            loc[k] = 3
            ranks = np.zeros(9, np.int64)
            ranks[k % 9] = 1
            natt = 1
            open_card = k
            pos += 1
            took = False
            while True:                   # the defender's turn: beat the open card or take
                if pos >= n:
                    return 14 * 1_000_000 + pos
                kind = row[pos] >> 20
                if kind == TAKE:
                    took = True
                    pos += 1
                    break
                if kind != BEAT:
                    return 8 * 1_000_000 + pos
                b = row[pos] & 255
                kb = (b // 16) * 9 + b % 16 - 6
                if b % 16 < 6 or b // 16 > 3 or loc[kb] != d or (row[pos] >> 16) & 15 != d:
                    return 6 * 1_000_000 + pos
                same = kb // 9 == open_card // 9 and kb % 9 > open_card % 9
                ruff = kb // 9 == trump and open_card // 9 != trump
                if not (same or ruff):
                    return 6 * 1_000_000 + pos
                loc[kb] = 3
                ranks[kb % 9] = 1
                open_card = -1
                pos += 1
                if pos >= n:
                    return 14 * 1_000_000 + pos
                kind = row[pos] >> 20
                if kind == STOP:
                    break
                if kind != THROW:
                    return 8 * 1_000_000 + pos
                t = row[pos] & 255
                kt = (t // 16) * 9 + t % 16 - 6
                if t % 16 < 6 or t // 16 > 3 or loc[kt] != att or ranks[kt % 9] == 0 \
                        or (row[pos] >> 16) & 15 != att \
                        or natt >= limit:
                    return 7 * 1_000_000 + pos
                if left == 0:             # a defender out of cards with no stock has won
                    held = 0              # (lines 162, 190): nothing is thrown onto him
                    for k2 in range(36):
                        if loc[k2] == d:
                            held += 1
                    if held == 0:
                        return 15 * 1_000_000 + pos
                loc[kt] = 3
                natt += 1
                open_card = kt
                pos += 1
            if took:                      # more throw-ins before the take (line 184), then STOP
                while True:
                    if pos >= n:
                        return 14 * 1_000_000 + pos
                    kind = row[pos] >> 20
                    if kind == STOP:
                        break
                    if kind != THROW:
                        return 8 * 1_000_000 + pos
                    t = row[pos] & 255
                    kt = (t // 16) * 9 + t % 16 - 6
                    if t % 16 < 6 or t // 16 > 3 or loc[kt] != att or ranks[kt % 9] == 0 \
                        or (row[pos] >> 16) & 15 != att \
                            or natt >= limit:
                        return 7 * 1_000_000 + pos
                    loc[kt] = 3
                    ranks[kt % 9] = 1
                    natt += 1
                    pos += 1
                for k in range(36):
                    if loc[k] == 3:
                        loc[k] = d
            else:
                first_bout = False
                for k in range(36):
                    if loc[k] == 3:
                        loc[k] = 4
            pos += 1                      # the STOP
            # drawing (line 182): the attacker to six first, then the defender
            for who in (att, d):
                have = 0
                for k in range(36):
                    if loc[k] == who:
                        have += 1
                while have < 6 and sp < stock_n:
                    k = deck[13 + sp] if sp < 23 else deck[12]
                    if loc[k] != 2:
                        return 10 * 1_000_000 + pos
                    loc[k] = who
                    sp += 1
                    have += 1
            c0 = 0
            c1 = 0
            for k in range(36):
                if loc[k] == 0:
                    c0 += 1
                elif loc[k] == 1:
                    c1 += 1
                elif loc[k] == 3:
                    return 10 * 1_000_000 + pos
            for j in range(sp, stock_n):
                k = deck[13 + j] if j < 23 else deck[12]
                if loc[k] != 2:
                    return 10 * 1_000_000 + pos
            for who in (att, d):          # a DRAW event each, aux the hand's size
                if pos >= n or (row[pos] >> 20) != DRAW or (row[pos] >> 16) & 15 != who or \
                        (row[pos] >> 8) & 255 != (c0 if who == 0 else c1):
                    return 9 * 1_000_000 + pos
                pos += 1
            if not took:
                att = d
        if pos >= n or (row[pos] >> 20) != END or (row[pos] >> 8) & 255 != result:
            return 11 * 1_000_000 + pos
        pos += 1
        games += 1
        prev_opener = opener
        prev_winner = result if result < 2 else -1
        if result == 0:
            wins0 += 1
        elif result == 1:
            wins1 += 1
    return 0


def params(rules) -> tuple:
    """The arguments after ``row`` of :func:`check_row` for ``rules`` (a DurakRules)."""
    return (rules.target, rules.unit == "match", rules.form == "super_short", rules.opener == "p1",
            rules.after_draw == "previous", rules.hand_cap == "always", rules.max_attack,
            min(rules.first_bout_cap, rules.max_attack))


def check_log(log, rules, plain=False):
    """Check every row of ``log``; returns ``(row index, code, position)`` of the first bad row, or
    ``None``.  ``plain``: run the plain-Python version."""
    f = check_row.py_func if plain else check_row
    p = params(rules)
    for i in range(log.shape[0]):
        r = f(log[i], *p)
        if r:
            return i, r // 1_000_000, r % 1_000_000
    return None
