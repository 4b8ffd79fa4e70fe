"""Canasta strategies as data: a kind code and a few numbers per seat (the kernel's record
the house's per-seat record :class:`~simkit.games.canasta.engine.Seats`).

* ``random``: a uniformly random choice at each decision the kernel lists: draw or one of the
  legal pile takes (a take before the side's first meld makes the minimum with the fewest-cards
  greedy fill of :func:`~simkit.games.canasta.engine.initial_fill`); before the side's first meld
  on a draw turn, a coin decides whether to lay the greedy initial meld when it is legal; then,
  until it picks "stop", a uniform choice among every single lay (a natural or a wild on a meld of
  the side, a new meld of three naturals or of a pair and a wild) and going out when that is
  possible; asking partner and answering with a coin; a uniformly random card as the discard.
* ``baseline``: the text's advice (003:50-54) as levers.  Initial meld on a draw turn only when
  it costs at most ``b50``/``b90``/``b120`` cards for the minimum 50 (15 too)/90/120 (003:50:
  "no more than three cards for 50, four for 90, six for 120"); the pile is taken whenever that
  is legal and it holds at least ``take_min`` cards (``take_min2`` where the draw is two cards) (003:50 "avoid early melds, except to win
  the discard pile"); pairs are kept in hand (``pairs``=1: a pair is not melded with a wild,
  003:51 "collect pairs"); naturals are laid off on the side's melds and triples melded; wild
  cards complete a canasta when at most ``wild_gap`` cards are missing (003:54); a wild is
  discarded to freeze the pile when the opponents have melded, the side has not and the pile has
  at least ``freeze`` cards (003:52; 0 = never); a black three is kept as a safe discard while
  the pile holds fewer than ``b3_pile`` cards (003:53) and a card the opponents can add to their
  melds is charged ``feed`` points per pile card (so it goes while the pile is small, 003:53);
  it goes out when the side has at least ``go_out`` canastas (and the rules' minimum); with
  partners it asks first (``ask``=1) and answers "yes" when its own hand holds at most
  ``ask_max`` points.  With three hands (cutthroat, 003:57) the deal's first take makes the
  taker the lone hand against a partnership credited with its pooled total: the baseline takes
  that first pile only when it holds at least ``lone_min`` cards.

The defaults are measured on the hand's objective ``net`` (the seat's side's points minus the
opponents': a game to 5000 is won by the difference; the side's own points were a misleading
target, since going out late and asking partner score more of one's own points but let the
opponents score more).  Coordinate steps at n=40,000 classic hands, seed 11, p1 varied: from the
first defaults (``b50=3, take_min=2, wild_gap=2, freeze=4, b3_pile=6, go_out=2, ask=1``, chosen
on own points) to ``b50=6, take_min=1, wild_gap=3, freeze=0, b3_pile=1, go_out=1, ask=0``;
there, no one-step change gains more than its error (the most: ``take_min=2`` +0.44, SE 1.89;
``feed=4`` +0.30, SE 0.27), and ``go_out=2``, ``ask=1``, ``pairs=0``, ``wild_gap=2``,
``b50=5``, ``b3_pile=2``, ``freeze=1``, ``freeze=4`` lose 43.6, 13.1, 13.1, 1.7, 4.2, 3.5, 2.3,
1.2 net points a hand (SE 0.3-1.5); tests/test_defaults_not_beaten.py keeps it (n=4,000).
The text's advice against these measured defaults is the notebook's first question: not freezing
and a larger initial-meld budget (003:50, 52) measure better here.  Two-hand (draw two,
n=10,000): ``take_min2=5`` gains 694 (SE 7.6) net points a hand over taking every pile; 4 and 6
lose 36 and 75 (SE 6.1, 5.7).
``lone_min``: cutthroat, p1 baseline against two random
seats, n=6,000 hands, seed 21, paired with p1 random on the same deals: without the lever
(``lone_min`` 1) the baseline gained -7.2 (SE 13.0) points a hand (it became the lone hand in
0.61 of the hands, random in 0.36), with ``lone_min=20`` 244.9 (12.8), lone in 0.14 of the hands;
on ``net`` (all seats baseline, n=6,000, seed 11) 27 (the default) beats 20, 22, 25 and 29 by
82-124 (SE 4.8-5.4) and 26, 28 differ by less than their error (+1.0, SE 1.7; -0.5, SE 0.6).
tests/test_canasta.py measures it on other deals (seed 22).
``wmeld`` (Cuban, 003:84 wild-card melds; acts only with ``wild_melds``): all seats baseline,
p1 and p3 varied, n=10,000 Cuban hands, seed 11, net points a hand against the same deals with
the default: from ``wmeld=3`` (start with three wild cards), 0, 4, 5, 6, 7, 8 gain 60.4, 47.1,
58.8, 61.4, 60.7, 60.4 (SE 3.5-4.2): laying every wild card on a wild-card meld costs the natural
canastas more than the 2000 bonus brings; from 6 (the default), 0, 5, 7 differ by -1.0, -2.6,
-0.7 (SE 0.6-0.8).  In Cuban the initial minimum 95 is met within ``b120``'s budget, and there a
smaller budget pays: ``b120=3``, 4, 5 gain 40.7, 28.0, 7.5 (SE 10.4, 7.9, 4.5) over 6 (same
runs).  ``b90`` and ``b120`` act only in ``unit=game`` (a single hand's minimum is 50), except in
Cuban, whose first minimum is 95.
``seq_min`` (Samba, 003:74: acts only with ``sequences``): the baseline extends the side's
sequences with every card that fits and starts one from a run of ``seq_min`` or more cards of a
suit held (up to seven); before the side's first meld it melds groups only.  All seats baseline,
p1 varied, Samba hands, net points a hand paired on the same deals: from ``seq_min=3``, 0, 4, 5,
6, 7 gain 26.8, 23.3, 27.5, 26.6, 26.8 (SE 3.4-3.7, n=10,000, seed 11): starting every run of
three costs; from 5 (the default), 4, 6, 0 lose 2.65, 0.74, 0.14 (SE 0.81, 0.35, 0.39;
n=30,000, seeds 11, 11, 12).  Same runs from the default: ``take_min2=4``, 6, 1 lose 0.8, 15.5,
22.5 (SE 1.7, 1.8, 6.6); ``b50=5`` +1.9 (SE 1.1), ``b50=7`` -1.2 (0.4); ``wild_gap``,
``go_out``, ``freeze=1`` change nothing there (two wild cards a group, two canastas to go out).
Two classic defaults lost in Samba: ``pairs=0`` gained 9.9 (SE 3.0, seed 11) and 13.1 (SE 3.0,
seed 12), ``b3_pile=2`` 5.9 (SE 2.0) and 8.8 (SE 2.0), n=30,000 each (these runs, and the
Bolivia and Brazilian ones below, had the classic values on every seat; the Samba family's own
tables, under "Defaults per table", replace them).
Bolivia (003:82: wild-card melds worth 2500 at seven, an escalera needed to go out), same
setting, n=10,000, seed 11, from the defaults: ``seq_min=3``, 4, 6 lose 44.5, 5.7, 0.7 (SE 5.7,
2.3, 0.8); ``wmeld=3``, 5 gain 206.3, 24.2 (SE 7.4, 2.6), 7 and 0 lose 7.0, 17.0 (SE 1.3, 2.1):
Cuban's ``wmeld=6`` was beaten there (Bolivia's own table below).  Brazilian (003:83, -1000 per incomplete wild-card meld or
sequence when a player goes out), n=10,000, seed 11: ``seq_min=3``, 4 lose 261.1, 36.6 (SE 6.6,
2.7), ``wmeld=3``, 5, 7, 0 lose 135.7, 1.1, 1.8, 13.6 (SE 6.4, 1.8, 0.9, 2.1); starting no
sequence from the hand gains a little: ``seq_min=6``, 7, 0 +3.74, +3.77, +3.72 (SE 0.6, n=30,000,
seed 12): Samba's default was beaten there (Brazilian's own table below).  There the baseline seldom went out in Bolivia (an escalera
was rare): hands mostly ended at the stock's end (Bolivia's own table below, with the sequence
levers, goes out).  Neither strategy plans a new sequence as part of
going out or of the initial meld (groups only there; sequences are laid on other turns).
Four sequence levers (issue 27, for Bolivia; 0 on every other table, where the numbers are
unchanged): ``seq_first=1`` lays on and starts sequences before the groups (a natural that fits
both goes on the sequence: an escalera is needed to go out); ``seq_out=1`` goes out by laying
the last cards on the side's sequences too (so the card that completes an escalera can be the
going-out move, which the group-only :func:`~simkit.games.canasta.engine.out_plan` never plans);
``seq_take=k`` takes a pile of at least ``k`` cards whose top card extends a sequence of the
side (below ``take_min2``); ``seq_keep`` charges a discard that many points per tie of the card
to a sequence (a sequence of the side it would extend after one more card, a natural of its
suit held one or two ranks away).

**Defaults per table** (issue 27).  Measured on one table, the classic defaults were beaten on
the others, so ``b50``, ``b120``, ``take_min2``, ``pairs``, ``wild_gap``, ``freeze``,
``b3_pile``, ``feed``, ``wmeld``, ``seq_min`` and the sequence levers ``seq_keep``, ``seq_take``,
``seq_out``, ``seq_first`` default to :data:`TABLE` (-1):
:func:`encode` gives such a seat its table's value (:data:`BY_TABLE`, the table from the rules
by :func:`table_of`), and a value given explicitly is always kept.  Design: the registry fills
every parameter's default into a strategy before a game sees it, so an explicit
``b120=6`` and the default are told apart only by a default that no player would choose (a
``-1`` read in the game's ``prepare``, against the rules); splitting the levers by situation as
``take_min2`` is would have needed one new parameter per table and lever.  ``simkit rules
canasta`` prints each table's values (the kind's doc).  Measured as the classic defaults were,
coordinate-wise on ``net``, p1 varied (``baseline`` changed in one parameter) against the
table's defaults on the other seats, paired on the same deals, n=20,000 hands, seed 11, each
step the change with the largest t among every value of every acting parameter:

* Cuban: ``b120=3`` +22.3 (SE 5.5) over 6; then no change gains 2 SE (one step: ``b120=4``
  -10.4, SE 4.2; ``wild_gap=2`` -3.4, SE 1.3; ``wmeld=5``/``7`` -0.3/-0.2, SE 0.3/0.2;
  ``b120=2`` identical on every hand: no three cards make 95, so the side's first meld comes
  with a pile take).
* cutthroat: ``feed=0`` +62.3 (SE 3.6) over 3, then ``wild_gap=2`` +13.8 (SE 1.7) over 3; then
  no one-step change gains 2 SE (the most: ``b50=7`` +0.7, SE 0.4; ``b3_pile=2`` +0.3, SE 1.2;
  ``feed=1`` -4.0, SE 2.7; ``wild_gap=3`` -8.6, SE 1.9; a far step ``b3_pile=8`` +5.6, SE 2.2,
  and ``b50=3`` +3.8, SE 1.9: kept, at most 2.6 SE among some seventy values tried).
* two-hand has no such point (issue 27): ``take_min2`` and ``b3_pile``'s best replies cycle. The
  earlier coordinate steps moved one seat's point against opponents at the same point, but the two
  seats play different games: in ``unit=hand`` p2 deals and p1 (the eldest) plays first, and the
  eldest's best replies differ from the dealer's.  The payoff matrix of every (``take_min2``,
  ``b3_pile``) pair of ``take_min2`` 3-6 x ``b3_pile`` 1-5 (p1 one pair, p2 another, 10,000 common
  deals a cell, seed 11, ``scripts/canasta_two_hand_mix.py``; a/b for ``take_min2=a, b3_pile=b``)
  has no pure saddle point (the eldest's best reply to a dealer at 5/3 is 5/4, net +88.9 a hand;
  the dealer's to an eldest at 5/3 is 3/4, net -37.7; the eldest's to a dealer at 3/4 is 3/2,
  +128.8; the dealer's to an eldest at 5/4 is 3/4); its mixed equilibrium
  (``simkit.analysis.solve.zero_sum_equilibrium``): eldest 5/3 0.97, dealer 5/3 0.61 and 3/3 0.36
  (the symmetrised game, one mixture for both seats, 5/3 0.77, 3/4 0.21, 3/2 0.02, left the
  eldest's ``5/4`` a gain of 19.6, SE 3.8, in sample).  Against it (trimmed: eldest 5/3, dealer
  5/3 5/8, 3/3 3/8) on other deals (n=20,000, seed 12, each seat's ``net`` paired with the default
  in both seats) the levers outside the cycle gained: ``b50=3`` +13.8/+13.1 (eldest/dealer, SE
  2.3), ``feed=5`` +12.7/+10.7 (SE 1.9), ``wild_gap=1`` +10.4/+6.1 (SE 2.5); with those (``b50=3,
  wild_gap=1, feed=5``) the matrix again (``take_min2`` 3-6 x ``b3_pile`` 2-5, 12,000 deals a
  cell, seed 11: value 48.5 net a hand to the eldest) gives eldest 3/2 0.45, 5/3 0.39, 5/4 0.17,
  dealer 5/3 0.55, 3/3 0.40, 3/2 0.05; the default played it rounded, the dealer's 3/2 dropped
  (:data:`TWO_HAND_MIX` then: eldest 5/3 8/20, 3/2 9/20, 5/4 3/20; dealer 5/3 7/12, 3/3 5/12);
  then ``freeze=4`` gained +11.4/+13.5 (SE 1.8/2.1) and was taken.  At these defaults, n=20,000,
  seed 12 (each value of each acting lever in one seat, the other levers as the default plays
  them) no change of ``take_min2`` or ``b3_pile`` gains 2 SE in either seat (the most: the
  dealer's ``take_min2=6`` +7.3, SE 4.5, and ``5`` +5.0, SE 3.7; the eldest's pure 3/2 +5.0, SE
  4.9, ``b3_pile=4`` +0.8, SE 4.4; ``take_min2=4`` -52.5/-34.7, ``b3_pile=5`` -62.1/-89.4, SE
  4.4-5.3); of the other levers only the eldest's ``wild_gap=0`` gains more than 2 SE (+7.4, SE
  2.75; the dealer's loses 8.3, SE 2.7: one value serves both roles), then ``feed=4`` -0.6/-2.3
  (SE 1.3), ``freeze=3`` -4.0/-0.4 (SE 1.5/0.8), ``wild_gap=2`` -13.3/-1.7 (SE 2.8), ``b50=4``
  -20.5/-20.2 (SE 2.4), ``freeze=0`` -11.4/-13.5; random play in either seat loses 784/756 net a
  hand (SE 6.3). The eldest's ``wild_gap=0`` then gained on new deals (n=40,000, seed 13, paired:
  +5.78, SE 1.90), the dealer's lost (-12.37, SE 1.87; ``wild_gap=2`` -15.64/-2.05, SE 1.97), so
  ``wild_gap`` too is played by role (:data:`TWO_HAND_WILD_GAP`: eldest 0, dealer 1).  The matrix
  again at it (``take_min2`` 3, 5, 6 x ``b3_pile`` 2-4, 12,000 deals a cell, seed 11: value 52.1
  net a hand to the eldest; the eldest's best reply to a dealer at 5/3 is 5/4, +99.1, the dealer's
  to an eldest at 5/4 is 3/2) gives eldest 5/4 0.39, 5/2 0.39, 3/2 0.22, dealer 5/3 0.61, 3/2
  0.35, 3/3 0.05; the default plays it rounded, the dealer's 3/3 dropped (:data:`TWO_HAND_MIX`:
  eldest 5/2 8/20, 5/4 8/20, 3/2 4/20; dealer 5/3 7/11, 3/2 4/11).  At these defaults on other
  deals (n=20,000, seed 13, ``--check``: each value of each acting lever and the grid's pure pairs
  in one seat, paired with the default in both) no change gains 2 SE in either seat (the most: the
  eldest's pure 3/2 +10.6, SE 6.8; the dealer's pure 3/3 +2.0, SE 6.2, ``b3_pile=3`` +2.0, SE 3.1,
  ``feed=4`` +1.1, SE 1.6; ``wild_gap``: the eldest's 1 -2.3, 2 -8.5 (SE 2.6/3.9), the dealer's 0
  -2.1, 2 -10.4 (SE 3.1/3.3); ``b50=4`` -24.6/-28.4, ``freeze=0`` -17.5/-19.9, ``b3_pile=5``
  -82.3/-104.2); random play in either seat loses 800/876 net a hand (SE 7.3/7.4).
* Samba, from the classic values with the two that had lost there (``pairs=0, b3_pile=2``):
  ``take_min2=3`` +38.7 (SE 3.6) over 5, ``pairs=1`` +27.7 (3.9) back over 0, ``b3_pile=0``
  +12.1 (3.1) over 2, ``b50=3`` +10.2 (2.2) over 6, ``feed=2`` +3.7 (1.3) over 3; then no
  one-step change gains 2 SE (the most: ``pairs=0`` +5.3, SE 3.8; ``freeze=8`` +0.6, SE 0.4;
  ``take_min2=4``/``5`` -1.1/-0.5, SE 2.6/2.9; ``seq_min=4``/``6`` -1.1/-0.6, SE 0.9/0.4;
  ``feed=1``/``3`` -2.1/-3.9, SE 1.4/1.3; ``b50=4`` -8.0, SE 1.7; ``b3_pile=1`` -18.4, SE 2.1).
* Brazilian, from Samba's values with ``seq_min=6`` (the earlier runs): ``take_min2=5`` +21.1
  (SE 3.3) over 3; then no one-step change gains 2 SE (the most: ``seq_min=7`` +0.5, SE 0.3;
  ``pairs=0`` +0.5, SE 4.3; ``freeze=8`` +0.2, SE 0.5; ``feed=1``/``3`` -0.1/-0.9, SE 1.7/1.2;
  ``seq_min=5`` -1.8, SE 0.6; ``wmeld=5``/``7`` -2.5/-2.8, SE 1.4/0.8; ``take_min2=4``/``6``
  -10.2/-10.0, SE 2.5/2.6; ``b50=4`` -9.1, SE 2.0).
* Bolivia, from Samba's first start with Cuban's ``wmeld=3`` (the earlier runs): ``b3_pile=4``
  +32.1 (SE 2.7) over 2, ``pairs=1`` +49.2 (6.5) over 0, ``wild_gap=0`` +317.9 (6.9) over 3
  (every wild card kept for the wild-card meld, a bolivia of seven 2500), ``b50=3`` +41.9 (6.9)
  over 6, ``feed=4`` +12.5 (3.2) over 3, ``b3_pile=6`` +41.1 (12.7) over 4, ``freeze=8`` +2.9
  (1.1) over 0, ``feed=5`` +8.0 (3.1) over 4; then no one-step change gains 2 SE (the most:
  ``take_min2=6`` +9.1, SE 12.3; ``feed=8``/``6``/``4`` +0.6/-0.4/-7.6, SE 5.0/2.6/3.2;
  ``seq_min=6`` -1.4, SE 1.1; ``freeze=0`` -2.6, SE 1.1; ``b3_pile=7``/``5`` -5.8/-39.5, SE
  3.9/8.3; ``wmeld=4`` -43.9, SE 3.3; ``b50=4`` -47.5, SE 5.8; ``pairs=0`` -961, SE 14).
  At those defaults hardly a Bolivia hand ended by going out (0.42% of 20,000 hands, seed 11;
  in Samba and Brazilian every hand does): an escalera was rare (1,000 hands, seed 11, all
  seats baseline: a side laid a sequence in 0.7% of its hands, an escalera in 0.15%, while it
  had another canasta in all but one), so hands ended at the stock's end.  With
  the sequence levers (issue 27), same setting (n=20,000, seed 11, the levers' candidates
  ``seq_first`` 0-1, ``seq_out`` 0-1, ``seq_min`` 0/3-7, ``seq_take`` 0-4, ``seq_keep``
  0/5/10/20/40 beside the earlier ones): ``seq_first=1`` +23.2 (SE 2.9), then ``seq_min=3``
  +187.5 (12.1) over 5, ``b3_pile=4`` +77.0 (12.7) over 6, ``seq_take=1`` +27.0 (7.5) over 0,
  ``seq_out=1`` +1.6 (0.6) over 0; then no one-step change gains 2 SE (the most: ``freeze=0``
  +3.4, SE 1.8; ``feed=8``/``6`` +6.5/+2.4, SE 5.1/4.1; ``seq_take=3``/``2`` +5.1/-0.8, SE
  4.9/3.0; ``seq_keep=20``/``5`` -1.6/-10.7, SE 13.9/12.2; ``b3_pile=3`` -0.7, SE 3.5;
  ``take_min2=6`` -7.6, SE 8.0; ``seq_min=4`` -87.4, SE 12.6; ``seq_first=0`` -369.9, SE
  13.5; ``ask=1`` -19.3, SE 2.3).  At these defaults a hand ends by going out in 64.7% of
  hands (n=20,000, seed 11).  Against the old defaults: p1 at the new values beside three
  seats at the old gains 23.5 (SE 14.5, not significant) and goes out (its side) in 12.1% of
  hands; p1 at the old values beside three at the new loses 453.1 (SE 17.4).
* classic: not re-measured (the numbers above).

tests/test_defaults_not_beaten.py keeps each table (n=4,000, seed 11; two-hand in each seat;
Samba and Brazilian n=30,000, seed 12, Bolivia n=20,000, seed 12).
"""
from __future__ import annotations

import numpy as np

from simkit.core.records import seat_arrays
from simkit.core.registry import Param, StrategyKind

K_RANDOM, K_BASELINE = 0, 1

#: a parameter's value meaning "the table's default" (:data:`BY_TABLE`), the default of the
#: parameters whose measured best differs by table
TABLE = -1

#: a table value of ``take_min2``/``b3_pile`` meaning "drawn each hand from the table's mixture"
#: (two-hand: :data:`TWO_HAND_MIX`), of ``wild_gap`` "the seat's role's value"
#: (:data:`TWO_HAND_WILD_GAP`); never a value a strategy string can give (below ``TABLE``)
MIX = -2

#: two-hand's default (take_min2, b3_pile) pairs and their integer weights for each role of the
#: hand: ``eldest`` (the dealer's left, who plays first) and ``dealer`` (the mixed equilibrium of
#: the pairs' payoff matrix, module docstring): a seat whose lever is at MIX plays, each hand, one
#: pair of its role drawn with these weights from a stream of its own (the deal's cards
#: unchanged); the eldest's first pair is the one a caller that draws none plays
#: (``engine.seat_tuple``)
TWO_HAND_MIX = {"eldest": ((5, 2, 8), (5, 4, 8), (3, 2, 4)), "dealer": ((5, 3, 7), (3, 2, 4))}

#: two-hand's default ``wild_gap`` for each role of the hand (a seat whose ``wild_gap`` is at
#: MIX plays its role's value each hand; module docstring)
TWO_HAND_WILD_GAP = {"eldest": 0, "dealer": 1}

#: the tables (:func:`table_of`) and, per table, the defaults of the parameters that default to
#: :data:`TABLE` (measured on each table, see the module docstring)
_CLASSIC = {"b50": 6, "b120": 6, "take_min2": 5, "pairs": 1, "wild_gap": 3, "freeze": 0,
            "b3_pile": 1, "feed": 3, "wmeld": 6, "seq_min": 5,
            # the Samba family's sequence levers (issue 27, Bolivia): off unless a table says
            "seq_keep": 0, "seq_take": 0, "seq_out": 0, "seq_first": 0}
BY_TABLE = {
    "classic": _CLASSIC,
    "two_hand": {**_CLASSIC, "b50": 3, "wild_gap": MIX, "take_min2": MIX, "b3_pile": MIX,
                 "feed": 5, "freeze": 4},
    "cutthroat": {**_CLASSIC, "wild_gap": 2, "feed": 0},
    "cuban": {**_CLASSIC, "b120": 3},
    "samba": {**_CLASSIC, "b50": 3, "take_min2": 3, "b3_pile": 0, "feed": 2},
    "bolivia": {**_CLASSIC, "b50": 3, "wild_gap": 0, "freeze": 8, "b3_pile": 4, "feed": 5,
                "wmeld": 3, "seq_min": 3,
                "seq_first": 1, "seq_out": 1, "seq_take": 1},     # issue 27: sequence levers
    "brazilian": {**_CLASSIC, "b50": 3, "b3_pile": 0, "feed": 2, "seq_min": 6},
}


def table_of(rules) -> str:
    """The table whose defaults a seat playing ``rules`` gets: ``two_hand`` (two players),
    ``cutthroat`` (three), with 162 cards (``decks=3``, the Samba family) ``samba`` (no
    wild-card melds, 003:71-81), ``brazilian`` (wild-card melds and Brazilian's initial table,
    003:83) or ``bolivia`` (wild-card melds otherwise, 003:82); with 108 cards and four hands
    ``cuban`` (Cuban's initial minimum table, 003:84) or ``classic`` (every other table)."""
    if rules.players == 2:
        return "two_hand"
    if rules.players == 3:
        return "cutthroat"
    if rules.decks == 3:
        if not rules.wild_melds:
            return "samba"
        return "brazilian" if rules.initial_table == "brazilian" else "bolivia"
    if rules.initial_table in ("cuban", "cuban_rg"):
        return "cuban"
    return "classic"


def _by_table(name: str) -> str:
    """`` (-1, the default: the table's value: classic 6, ...)``, for a parameter's doc."""
    return (f" ({TABLE}, the default: the table's value: "
            + ", ".join(f"{t} {_shown(d[name], name)}" for t, d in BY_TABLE.items()) + ")")


def _shown(v: int, name: str) -> str:
    """A table value of parameter ``name`` as the docs show it: :data:`MIX` as the mixture's
    pairs and weights, or (``wild_gap``) as each role's value."""
    if v != MIX:
        return str(v)
    if name == "wild_gap":
        return "by role (" + ", ".join(f"{r} {g}" for r, g in TWO_HAND_WILD_GAP.items()) + ")"
    return "mixed (take_min2/b3_pile " + "; ".join(
        f"{role} " + " ".join(f"{t}/{b}:{w / sum(x[2] for x in mix):.3g}" for t, b, w in mix)
        for role, mix in TWO_HAND_MIX.items()) + ")"


PARAMS = (
    Param("b50", TABLE, (TABLE, 11), "most cards spent on an initial meld of 50 (or 15) on a "
                                     "draw turn" + _by_table("b50")),
    Param("b90", 4, (3, 11), "most cards spent on an initial meld of 90 on a draw turn"),
    Param("b120", TABLE, (TABLE, 11), "most cards spent on an initial meld of 120 (Cuban: 95 "
                                      "and up) on a draw turn" + _by_table("b120")),
    Param("take_min", 1, (1, 40), "take the pile only when it holds at least this many cards"),
    Param("take_min2", TABLE, (TABLE, 40), "the same where a draw is two cards (two-hand, "
                                           "cutthroat, the Samba family): taking the pile "
                                           "replaces a two-card draw" + _by_table("take_min2")),
    Param("pairs", TABLE, (TABLE, 1), "1: keep pairs in hand; 0: meld a pair with a wild card"
                                      + _by_table("pairs")),
    Param("wild_gap", TABLE, (TABLE, 4), "spend wild cards to complete a canasta missing at "
                                         "most this many cards" + _by_table("wild_gap")),
    Param("freeze", TABLE, (TABLE, 40), "discard a wild to freeze the pile of at least this "
                                        "many cards when the opponents have melded and the side "
                                        "has not (0: never)" + _by_table("freeze")),
    Param("b3_pile", TABLE, (TABLE, 40), "keep black threes as safe discards while the pile "
                                         "holds fewer cards than this" + _by_table("b3_pile")),
    Param("feed", TABLE, (TABLE, 50), "points per pile card charged for discarding a card the "
                                      "opponents can add to their melds" + _by_table("feed")),
    Param("go_out", 1, (1, 4), "go out only when the side has at least this many canastas"),
    Param("ask", 0, (0, 1), "1: ask partner before going out (four hands)"),
    Param("ask_max", 50, (0, 1000), "answer partner 'yes' when the own hand holds at most this "
                                     "many points"),
    Param("lone_min", 27, (1, 108), "three hands (cutthroat): take the deal's first pile, and so "
                                    "become the lone hand, only when it holds at least this many "
                                    "cards"),
    Param("wmeld", TABLE, (TABLE, 8), "wild-card melds (Cuban, Bolivia, Brazilian): start one "
                                      "when holding at least this many wild cards (0: never), "
                                      "then lay every wild card on it up to seven"
                                      + _by_table("wmeld")),
    Param("seq_min", TABLE, (TABLE, 7), "Samba (sequences): start a sequence from a run of at "
                                        "least this many cards of a suit held (below 3: never; "
                                        "after the side's first meld; sequences are extended "
                                        "whenever a card fits)" + _by_table("seq_min")),
    Param("seq_keep", TABLE, (TABLE, 200), "sequences: points added to the cost of discarding a "
                                           "natural that a side's sequence would take after one "
                                           "more card, or next to (one or two ranks from) a "
                                           "natural of its suit held (0: suits ignored)"
                                           + _by_table("seq_keep")),
    Param("seq_take", TABLE, (TABLE, 40), "sequences: take the pile whose top card extends a "
                                          "sequence of the side when it holds at least this many "
                                          "cards (0: as any take, take_min2)"
                                          + _by_table("seq_take")),
    Param("seq_out", TABLE, (TABLE, 1), "sequences: 1: go out laying the last cards on the "
                                        "side's sequences (so completing an escalera as the "
                                        "going-out move); 0: go out on groups only"
                                        + _by_table("seq_out")),
    Param("seq_first", TABLE, (TABLE, 1), "sequences: 1: lay on and start sequences before the "
                                          "groups (a natural that fits both goes on the "
                                          "sequence); 0: groups first" + _by_table("seq_first")),
)

STRATEGIES = {
    "random": StrategyKind("random", K_RANDOM, (), "uniformly random legal choices"),
    "baseline": StrategyKind("baseline", K_BASELINE, PARAMS,
                             "economical initial meld, takes the pile, keeps pairs, spends wilds "
                             "on canastas, freezes when behind, safe discards late; a parameter "
                             f"at {TABLE} takes its table's default: "
                             + "; ".join(f"{t} " + ",".join(f"{k}={_shown(v, k)}"
                                                            for k, v in d.items())
                                         for t, d in BY_TABLE.items())),
}

if any({q.name for q in PARAMS if q.default == TABLE} != set(d) for d in BY_TABLE.values()):
    raise ImportError("canasta: BY_TABLE out of step with the parameters defaulting to TABLE")


def encode(strategies, seats_cls, rules):
    """The record of the strategies (:func:`~simkit.core.records.seat_arrays`): per seat its
    kind's code and each parameter of :data:`PARAMS` (p1 first); a parameter at :data:`TABLE`
    (its default, or a seat without it: random) gets the value of ``rules``' table
    (:data:`BY_TABLE`), a value given explicitly is kept."""
    table = BY_TABLE[table_of(rules)]
    tabled = {}
    for name, d in table.items():
        vals = [s.values.get(name, TABLE) for s in strategies]
        tabled[name] = np.array([d if v == TABLE else v for v in vals], np.int64)
    return seat_arrays(seats_cls, strategies, STRATEGIES, **tabled)
