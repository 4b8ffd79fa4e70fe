"""Piquet's move log in a player's words (``simkit replay piquet``).

Reads the event stream of :mod:`simkit.games.piquet.engine` (the house's events,
:func:`simkit.engines.moves.split_event`; a ``DEAL``'s seat is Elder's, a ``DECL``'s aux the classes
declared, an ``END``'s aux whether play stopped, the other events' the card): per deal
the hands (Elder's 12, Younger's 12, the talon of 8), each player's discard and the cards he takes
from the talon's top (Elder up to five, Younger from the rest, line 155), the classes each
declares (point, sequence, set; line 157) with what he holds in them, and the twelve tricks
(lines 169-175: no trumps, follow suit, the higher card of the suit led wins; the winner leads).
A partie's or game's deals are numbered; the last record is the unit's score from the metric row.
"""
from __future__ import annotations

import numpy as np

from simkit.core.cards import format_card
from simkit.engines.moves import Records, split_event
from simkit.games.piquet import engine

RANK_WORDS = {14: "aces", 13: "kings", 12: "queens", 11: "jacks", 10: "tens"}
SEQ_WORDS = {3: "tierce", 4: "quart", 5: "quint", 6: "sixième", 7: "septième", 8: "huitième"}


def point(hand) -> str:
    """The point a hand declares: its longest suit (line 157)."""
    n = max(sum(1 for c in hand if c // 16 == s) for s in range(4))
    return f"point of {n}"


def sequence(hand) -> str:
    """The runs of three or more in one suit, the longest (then highest) first."""
    runs = []
    for s in range(4):
        ranks = {c % 16 for c in hand if c // 16 == s}
        run = 0
        for r in range(7, 16):
            if r in ranks:
                run += 1
                continue
            if run >= 3:
                runs.append((run, r - 1))
            run = 0
    return ", ".join(f"{SEQ_WORDS[n]} to the {format_card(top, 'symbols')[:-1]}"
                     for n, top in sorted(runs, reverse=True)) or "no sequence"


def sets(hand) -> str:
    """The sets of tens or higher: fours (quatorze) and threes (trio), the best first."""
    by = {r: sum(1 for c in hand if c % 16 == r) for r in RANK_WORDS}
    have = sorted(((k, r) for r, k in by.items() if k >= 3), reverse=True)
    return ", ".join(f"{'quatorze' if k == 4 else 'trio'} of {RANK_WORDS[r]}"
                     for k, r in have) or "no set"


def declare(out, rules, seat, hands, m):
    """Each player's declared classes (``m``: Elder's bits 0-2, Younger's 3-5; point,
    sequence, set) with what he holds in them and whether it is good against the other's
    (lines 157-167; keys and scores by :func:`engine.declarations`)."""
    keys = [engine.declarations(rules.void_suit, np.uint64(sum(1 << c for c in h)))
            for h in hands]
    for role in (0, 1):
        said = []
        for j, (bit, words) in enumerate(((1, point), (2, sequence), (4, sets))):
            if not m >> (3 * role) & bit:
                continue
            mine, score = keys[role][2 * j], keys[role][2 * j + 1]
            theirs = keys[1 - role][2 * j] if m >> (3 * (1 - role)) & bit else 0
            verdict = ("good" if mine > theirs else "equal" if mine == theirs else "not good")
            said.append(f"{words(hands[role])}: {verdict}"
                        + (f", {score}" if mine > theirs else ""))
        out.rec(seat[role], "declares", [], "; ".join(said) if said else "nothing")


def _entry(e):
    """``(kind name, what it names)``: Elder's seat (DEAL), aux (DECL, END) or the card."""
    kind, seat, aux, card = split_event(e)
    name = engine.KINDS[kind - 1]
    return name, seat if name == "DEAL" else aux if name in ("DECL", "END") else card


def moves(rules, log, metrics):
    """One unit's move-log row as records (see :mod:`simkit.core.replay`)."""
    entries = [_entry(e) for e in log if e >= 0]
    out = Records()
    deal = 0
    i = 0

    while i < len(entries):
        kind, eseat = entries[i]
        i += 1
        if kind != "DEAL":
            raise ValueError(f"piquet log: expected DEAL at entry {i - 1}, found {kind}")
        deal += 1
        out.deal = deal
        deck = [x for _, x in entries[i:i + 32]]
        i += 32
        seat = (eseat, 1 - eseat)               # by role: Elder, Younger
        hands = [deck[:12], deck[12:24]]
        talon = deck[24:]
        out.rec(seat[1], "deals", [], f"p{seat[0] + 1} is Elder, p{seat[1] + 1} Younger")
        for role in (0, 1):
            out.rec(seat[role], "is dealt", hands[role], "Elder" if role == 0 else "Younger")
        for role in (0, 1):
            if any(c % 16 in (11, 12, 13) for c in hands[role]):
                continue
            out.rec(seat[role], "declares carte blanche", hands[role], "no picture card: 10")
        top = 0
        for role, tag in ((0, "EDISC"), (1, "YDISC")):
            disc = []
            while i < len(entries) and entries[i][0] == tag:
                disc.append(entries[i][1])
                i += 1
            took = talon[top:top + len(disc)]
            top += len(disc)
            for c in disc:
                hands[role].remove(c)
            hands[role] += took
            if disc:
                out.rec(seat[role], "discards", disc)
                out.rec(seat[role], "exchanges", took, f"takes {len(took)} from the talon")
            else:
                out.rec(seat[role], "stands pat", [], "takes no card from the talon")
        if top < 8:
            out.rec(None, "the talon's rest stays out", talon[top:], f"{8 - top} cards")
        if i < len(entries) and entries[i][0] == "DECL":
            declare(out, rules, seat, hands, entries[i][1])
            i += 1
        leader, trick, won = 0, [], [0, 0]
        while i < len(entries) and entries[i][0] == "PLAY":
            c = entries[i][1]
            i += 1
            role = leader if not trick else 1 - leader
            hands[role].remove(c)
            trick.append(c)
            if len(trick) == 1:
                out.rec(seat[role], "leads", [c])
                continue
            a, b = trick
            win = role if (b // 16 == a // 16 and b % 16 > a % 16) else leader
            won[win] += 1
            out.rec(seat[role], "follows", [c], f"p{seat[win] + 1} wins the trick")
            leader, trick = win, []
        if i < len(entries) and entries[i][0] == "END":
            stopped = entries[i][1]
            i += 1
            tr = f"tricks p{seat[0] + 1} {won[0]}, p{seat[1] + 1} {won[1]}"
            out.rec(None, "deal ends", [], tr + ("; the target is reached: play stops"
                                             if stopped else ""))
    out.rec(None, "scores", [], f"p1 {metrics['p1_points']:g}, p2 {metrics['p2_points']:g}"
        + (" (the unit's points)" if deal > 1 else "")
        + ("; p1 wins" if metrics["p1_win"] else "; p2 wins" if metrics["p2_win"] else ""))
    return out
