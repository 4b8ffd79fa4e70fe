"""Writes notebooks/canasta.ipynb (run: python notebooks/make_canasta.py).

Generated so that its code stays reviewable as plain Python; SIMKIT_NB_N sets the hands per
configuration (games are sized from it; CI runs it small).  Every conclusion is printed from the
numbers measured in the run, never typed in: "pays" or "costs" only where the 95% interval
excludes zero, otherwise the margin and its error are printed as not resolved."""
import nbformat as nbf

#: what tests/test_notebooks.py checks when it runs the notebook with SIMKIT_NB_N=size: the
#: phrases its output prints and at least this many images
CHECK = {"size": "2e3", "images": 3, "phrases": [
    "advice, classic:", "advice, classic (p1 alone):", "advice, two_hand:", "first take, classic:", "points per hand by side",
    "variants:", "variants: samba:", "variants: bolivia:", "variants: brazilian:"]}

cells = []
md = lambda s: cells.append(nbf.v4.new_markdown_cell(s.strip()))  # noqa: E731
code = lambda s: cells.append(nbf.v4.new_code_cell(s.strip()))  # noqa: E731

md("""
# Canasta: does the text's advice pay, the first-pile race, the variants side by side

Rules: `shared/rules/003_25b072003b534ab4.txt`, lines 48-84, read as `shared/rules/READINGS-rummy.md`
sections 3.1-3.2 (see `simkit.games.canasta.rules`): 108 cards (two packs and four jokers), deuces
and jokers wild, red threes faced and replaced, black threes stop the pile, melds of one rank,
canastas of seven (natural 500, mixed 300), the initial minimum (50 in a single hand), the frozen
pile, going out 100 (concealed 200). **classic**: four players in two partnerships (p1 and p3
against p2 and p4), 11 cards each; **two_hand** (line 55): 15 cards, draw two and discard one,
two canastas to go out; section 3 adds three-hand cutthroat (56-59) and Cuban (84). Every seat
plays the `baseline` unless said (its levers are the text's advice, lines 50-54; see
`simkit.games.canasta.strategies`), with its table's defaults (`b120`, `wild_gap`, `b3_pile`, ...
default to `-1`, the value measured for the table: `strategies.BY_TABLE`).

Each configuration plays `N` hands (`SIMKIT_NB_N`) and games of `unit=game` (to each variant's
target) are sized from it. **The numbers stored in this notebook come from N = 100,000 hands per
configuration and 5,000 games per variant** (the default; with all seven variants in section 3
the whole notebook ran in 3 min 13 s on a shared two-core machine, `jupyter execute`, the
kernels compiled); the test suite runs it at N = 2,000. Comparisons are paired: the same seeded deals
under both settings, per-hand differences, their mean and standard error; ± is 1.96 SE (95%).

1. does each piece of the text's advice pay (each lever against the same lever set the other way);
2. the first-pile race by seat;
3. the variants side by side (classic, two_hand, cutthroat, Cuban): hand length, score scale, game
   length, how often the bonuses decide.
""")
code("""
import math
import os

import matplotlib.pyplot as plt
plt.rcParams.update({"figure.constrained_layout.use": True, "font.size": 10})  # titles and labels inside the figure
import numpy as np
import pandas as pd

import simkit
from simkit.core import play
from simkit.errors import SimkitError
from simkit.games.canasta import engine as E

N = int(float(os.environ.get("SIMKIT_NB_N", "1e5")))   # hands per configuration
NG = max(200, N // 20)                                 # games to 5000 per variant
NL = min(N, 20_000)                                    # logged hands per variant (section 2)
SEED = 2026
VARIANTS = {"classic": "canasta", "two_hand": "canasta(preset=two_hand)"}
GAMES = {"classic": "canasta(unit=game)", "two_hand": "canasta(preset=two_hand,unit=game)"}
print(f"simkit {simkit.__version__}; n = {N:,} hands per configuration, {NG:,} games per variant, "
      f"{NL:,} logged hands per variant")


def rows(game, strategies=()):
    return simkit.run(game, n=N, seed=SEED, strategies=list(strategies), rows=True,
                      progress=False).rows


def mean_se(x):
    x = np.asarray(x, float)
    return x.mean(), x.std(ddof=1) / math.sqrt(len(x))


def pm(m, se):
    return f"{m:+.2f} ± {1.96 * se:.2f}"


def word(d, m, se):
    \"\"\"The verdict on a paired difference ``d`` (baseline minus the other way).\"\"\"
    if not np.any(d):
        return "identical on every hand"
    if abs(m) > 1.96 * se:
        return "pays" if m > 0 else "costs"
    return "not resolved"


def side_net(r):
    \"\"\"Per hand: side A's points (p1, and p3 its partner) minus side B's (p2, p4).\"\"\"
    return r["p1_points"].to_numpy(float) - r["p2_points"].to_numpy(float)
""")
md("""
## 1. Does each piece of the text's advice pay?

For each lever, side A (p1, and p3 with four players) plays the baseline with that one lever set
the other way; side B keeps the baseline. The advice's worth is side A's net points per hand
(its points minus the opponents') under the baseline minus the same under the opposite setting,
paired on the same deals: positive means the baseline's setting earns points. The baseline's
settings are measured defaults (the table shows classic's; two_hand's differ where
`strategies.BY_TABLE` says: its own default already is `b50=3`, `freeze=4` and, for the eldest,
`wild_gap=0`, so there "the other way" is classic's `b50=6`, `freeze=0`, `wild_gap=3`, and the
text's advice is the baseline's own setting for the first two); where the text's advice is the other way (the initial meld budget,
freezing, black threes: marked "advice: the other way"), a positive number says the advice does
not pay in this engine's play. "pays" / "costs" is
printed only when the 95% interval excludes 0. Two more columns: the side's own points alone
(what the defaults were first tuned on; they are now measured on `net`, the hand's objective,
by `tests/test_defaults_not_beaten.py`) and, for the whole side, whole games to 5000 (`unit=game`, `NG` games, side A's wins
under the baseline minus under the other way, per 100 games). With four hands it is measured twice: the whole side
changing (both partners, the way a partnership would adopt the advice) and p1 alone changing with
its partner on the baseline (the way the defaults are measured,
see `simkit.games.canasta.strategies`); the two need not agree, since partners' habits interact
(one partner going out early, the other asked).

| lever | baseline (measured default) | the other way | text |
|---|---|---|---|
| initial meld budget | at most 6 cards for 50 (`b50=6`, measured default; the text says 3) | at most 3 (`b50=3`) | 50 |
| pile-take threshold | take a legal pile (`take_min=1`; 5+ cards where a draw is two, `take_min2=5`) | only a pile of 10+ (`take_min=10`, `take_min2=10`) | 50 |
| pairs | keep pairs in hand (`pairs=1`) | meld a pair with a wild (`pairs=0`) | 51 |
| freeze when behind | discard a wild to freeze a pile of 4+ (`freeze=4`, the text's advice) | never (`freeze=0`, measured default) | 52 |
| black threes | kept while the pile has < 6 cards (`b3_pile=6`, the text's advice) | kept only on an empty pile (`b3_pile=1`, measured default) | 53 |
| discard timing | the opponents' cards go while the pile is small (`feed=3`) | pile size ignored (`feed=0`) | 53 |
| wild spending | wilds complete a canasta missing ≤ 3 (`wild_gap=3`) | wilds hoarded (`wild_gap=0`) | 54 |
| go-out timing | as soon as allowed (`go_out=1`, measured default) | with 2 canastas (`go_out=2`) | — |
| ask partner | go out without asking (`ask=0`, measured default) | ask first (`ask=1`), four hands only | READINGS 3.1 |

In a single hand the initial minimum is always 50, so `b90`/`b120` do not act; with two hands
`go_out=2` is the two canastas the rules require anyway, so it is the same as `go_out=1`, and
there is no partner to ask: those rows are identical on every hand and printed as such.
""")
code("""
LEVERS = [("initial meld budget", "b50=3"), ("pile-take threshold", "take_min=10,take_min2=10"),
          ("keep pairs", "pairs=0"), ("freeze when behind", "freeze=4"),
          ("keep black threes", "b3_pile=6"), ("discard timing", "feed=0"),
          ("wild spending", "wild_gap=0"), ("go-out timing", "go_out=2"),
          ("ask partner", "ask=1")]
ADVICE_OTHER_WAY = {"initial meld budget", "freeze when behind", "keep black threes"}
#: two_hand's own defaults (strategies.BY_TABLE, TWO_HAND_WILD_GAP) already take the classic
#: "other way" for three levers: there the other way is classic's default, and the advice
#: (003:50, 52) is then the baseline's own setting (the eldest's wild_gap=0 hoards, against 003:54)
OTHER = {"two_hand": {"initial meld budget": "b50=6", "freeze when behind": "freeze=0",
                      "wild spending": "wild_gap=3"}}
ADVICE_OTHER = {"two_hand": {"keep black threes", "wild spending"}}
base = {v: rows(g) for v, g in VARIANTS.items()}
games = {v: simkit.run(g, n=NG, seed=SEED, rows=True, progress=False).rows for v, g in GAMES.items()}
out = []
for v, g, side_a in [("classic", VARIANTS["classic"], ["p1", "p3"]),
                     ("classic (p1 alone)", VARIANTS["classic"], ["p1"]),
                     ("two_hand", VARIANTS["two_hand"], ["p1"])]:
    b = side_net(base[v.split()[0]])
    for lever, other in LEVERS:
        key = v.split()[0]
        other = OTHER.get(key, {}).get(lever, other)
        r = rows(g, [f"{p}=baseline({other})" for p in side_a])
        d = b - side_net(r)
        m, se = mean_se(d)
        own, own_se = mean_se(base[v.split()[0]]["p1_points"] - r["p1_points"])
        verdict = word(d, m, se)
        row = {"variant": v, "lever": lever, "other_way": other, "advice_worth": m, "se": se,
               "verdict": verdict, "own_points": own, "own_se": own_se}
        tag = "; advice: the other way" if lever in ADVICE_OTHER.get(key, ADVICE_OTHER_WAY) else ""
        line = (f"advice, {v}: {lever} (baseline against {other}{tag}): {pm(m, se)} net points a hand: {verdict} "
                f"(own points alone {pm(own, own_se)}: {word(d, own, own_se)})")
        if v.split()[0] == v:       # the whole side: also whole games to 5000
            gw = simkit.run(GAMES[v], n=NG, seed=SEED, rows=True, progress=False,
                            strategies=[f"{p}=baseline({other})" for p in side_a]).rows
            dw = games[v]["p1_win"].to_numpy(float) - gw["p1_win"].to_numpy(float)
            w, wse = mean_se(dw)
            row.update(win_worth=w, win_se=wse)
            line += f"; games won {pm(100 * w, 100 * wse)} per 100 games: {word(dw, w, wse)}"
        out.append(row)
        print(line)
adv = pd.DataFrame(out)
fig, ax = plt.subplots(figsize=(10, 5.5))
y = np.arange(len(LEVERS))
for k, (v, g) in enumerate(adv.groupby("variant", sort=False)):
    ax.barh(y + (k - 1) * 0.28, g["advice_worth"], height=0.28, xerr=1.96 * g["se"], capsize=3,
            label=v)
ax.set_yticks(y, [lever + (" (classic: advice other way)" if lever in ADVICE_OTHER_WAY else "")
                 for lever, _ in LEVERS]); ax.invert_yaxis()
ax.axvline(0, color="k", lw=0.5)
ax.set_xlabel("side's net points per hand: baseline minus the lever the other way (95% CI)")
ax.set_title("each lever: the baseline's setting against the other way"); ax.legend()
plt.show()
adv.round(3)
""")
md("""
## 2. The first-pile race by seat

No metric says who took the pile first (`pK_takes` counts a seat's takes in the hand), so the
first take is read from the move log (`simkit.core.play.play_logged`, the first `take` event of
each hand, its seat and the pile's size) on `NL` hands per variant. As a check that needs no
log, the share of logged hands with no take at all must equal the share with every `pK_takes`
zero in the same rows. The dealer is the last seat, so p1 plays first. Points per hand by side
come from the `N` baseline hands of section 1 (a side's score is the same for both partners).
""")
code("""
race = []
for v, g in VARIANTS.items():
    spec, rules = simkit.games.parse_game(g)
    lr, log = play.play_logged(spec, rules, None, n=NL, seed=SEED)
    ev = log[:, E.NHEAD:]
    kind = np.where(ev >= 0, ev >> 20, -1)
    has = (kind == E.EV_TAKE).any(axis=1)
    j = np.argmax(kind == E.EV_TAKE, axis=1)
    e = ev[np.arange(len(ev)), j]
    seat = np.where(has, ((e >> 16) & 15) + 1, 0)
    size = np.where(has, (e >> 8) & 255, 0)
    K = rules.players
    none_rows = (lr[[f"p{k}_takes" for k in range(1, K + 1)]].sum(axis=1) == 0).to_numpy()
    full = int((log[:, 1] >= E.MAX_LOG).sum())
    print(f"first take, {v}: no take in {(~has).mean():.4f} of logged hands (rows with every "
          f"pK_takes zero: {none_rows.mean():.4f}; agree hand by hand: {bool((~has == none_rows).all())}; "
          f"{full} logs full)")
    for k in range(1, K + 1):
        sh = (seat == k).mean()
        race.append({"variant": v, "seat": f"p{k}", "first_take": sh,
                     "se": math.sqrt(sh * (1 - sh) / NL),
                     "pile_size": size[seat == k].mean() if (seat == k).any() else np.nan})
    first_a = np.isin(seat, [1, 3])
    first_b = np.isin(seat, [2, 4])
    net = lr["p1_points"].to_numpy(float) - lr["p2_points"].to_numpy(float)
    sa, sea = mean_se(first_a / 1.0)
    print(f"first take, {v}: side A (p1{'+p3' if K == 4 else ''}) first in {sa:.3f} ± {1.96 * sea:.3f}, "
          f"side B first in {first_b.mean():.3f}; mean pile at the first take {size[has].mean():.1f} cards")
    if first_a.any() and first_b.any():
        ma, sa_ = mean_se(net[first_a]); mb, sb_ = mean_se(-net[first_b])
        print(f"first take, {v}: in hands where side A took the pile first it outscored side B by "
              f"{pm(ma, sa_)} points; where side B took first, B outscored A by {pm(mb, sb_)} "
              f"(an association, not the take's effect)")
    r = base[v]
    for k in range(1, K + 1):
        once = (r[f"p{k}_takes"] > 0).mean()
        print(f"first take, {v}: p{k} takes the pile at least once in {once:.3f} of hands, "
              f"{r[f'p{k}_takes'].mean():.2f} takes a hand")
    ma, sea = mean_se(r["p1_points"]); mb, seb = mean_se(r["p2_points"])
    d, sed = mean_se(side_net(r))
    print(f"points per hand by side, {v}: side A (p1 plays first) {ma:.1f} ± {1.96 * sea:.1f}, "
          f"side B {mb:.1f} ± {1.96 * seb:.1f}; A - B {pm(d, sed)}"
          + ("" if abs(d) > 1.96 * sed else " (not resolved)"))
race = pd.DataFrame(race)
fig, ax = plt.subplots(1, 2, figsize=(10, 3.5))
for a, (v, g) in zip(ax, race.groupby("variant", sort=False)):
    a.bar(g["seat"], g["first_take"], yerr=1.96 * g["se"], capsize=3)
    a.set_xlabel("seat (p1 plays first)"); a.set_ylabel("share of hands taking the pile first")
    a.set_title(f"{v}: who takes the pile first")
plt.show()
race.round(4)
""")
md("""
## 3. The variants side by side

Classic, two-hand, three-hand cutthroat (`preset=cutthroat`, lines 56-59), Cuban
(`preset=cuban`, line 84: 13 cards, every three faced, wild-card melds worth 2000-4000, the pile
always frozen, game to 8500), Samba (`preset=samba`, lines 71-81: 162 cards, 15 each, draw two,
sequences and the samba of seven worth 1500, game to 10000), Bolivia (`preset=bolivia`, line 82:
Samba with wild-card melds, the bolivia worth 2500, an escalera needed to go out, game to 15000)
and Brazilian (`preset=brazilian`, line 83: wild canasta 2000, -1000 for an unfinished wild-card
meld or sequence, game to 10000), every seat on the baseline with its table's defaults. Hand
length (turns), score scale (p1's side's points per hand and its spread; in cutthroat a seat's
scoring group's, the lone hand's own or the pair's pooled total), how often a hand ends with
nobody out, game length (`unit=game`: hands until a side, in cutthroat a seat, reaches the
variant's target; a variant this version plays in single hands only says so), and how often the
big bonuses decide. No metric records a game's hand-by-hand bonuses, so "decided by the
bonuses" is measured two ways the metrics allow: per hand, the share of hands where p1's side's
result against its best opponent (won or lost) would change if the canasta and going-out
bonuses were struck from every score (the canasta bonuses include the wild-card canastas' and
sambas', and Brazilian's penalties for unfinished melds); per game, the share of games whose
winner led the runner-up by less than one mixed canasta (300) or one natural canasta (500).
Each variant is compared with classic on its own deals (independent samples, not paired: the
packs are dealt differently).
""")
code("""
SIDE = dict(VARIANTS, cutthroat="canasta(preset=cutthroat)", cuban="canasta(preset=cuban)",
            samba="canasta(preset=samba)", bolivia="canasta(preset=bolivia)",
            brazilian="canasta(preset=brazilian)")
SIDE_GAMES = dict(GAMES)
for v in SIDE:
    if v in GAMES:
        continue
    g = SIDE[v][:-1] + ",unit=game)"
    try:
        simkit.games.parse_game(g)
        SIDE_GAMES[v] = g
    except SimkitError as e:      # a variant this version plays in single hands only
        print(f"variants: {v}: unit=game refused, hands only ({str(e)[:100]})")
#: p1's opponents' point columns, and the competitors whose game scores are compared
OPP = {v: ["p2", "p3"] if v == "cutthroat" else ["p2"] for v in SIDE}
RIVALS = {v: ["p1"] + OPP[v] for v in SIDE}
base3 = {v: base[v] if v in base else rows(g) for v, g in SIDE.items()}
games3 = {v: games[v] if v in games else
          simkit.run(g, n=NG, seed=SEED, rows=True, progress=False).rows for v, g in SIDE_GAMES.items()}
tab = {}
for v, g in SIDE.items():
    r = base3[v]
    target = simkit.games.parse_game(SIDE[v])[1].game_to
    a = r["p1_points"].to_numpy(float)
    b = np.max([r[f"{o}_points"].to_numpy(float) for o in OPP[v]], axis=0)
    bon = {k: (r[f"{k}_canasta_bonus"] + r[f"{k}_out_bonus"]).to_numpy(float) for k in ["p1"] + OPP[v]}
    b_less = np.max([r[f"{o}_points"].to_numpy(float) - bon[o] for o in OPP[v]], axis=0)
    flip = np.sign(a - b) != np.sign((a - bon["p1"]) - b_less)
    if v in games3:
        gr = games3[v]
        sc = np.sort(np.stack([gr[f"{k}_score"].to_numpy(float) for k in RIVALS[v]]), axis=0)
        margin = sc[-1] - sc[-2]
        hm, hse = mean_se(gr["hands"])
    else:
        margin, hm, hse = np.array([np.nan]), np.nan, np.nan
    tab[v] = {"turns": r["turns"].mean(), "turns_se": mean_se(r["turns"])[1],
              "points": a.mean(), "points_sd": a.std(ddof=1),
              "net_sd": r["p1_net"].std(ddof=1), "canasta_bonus": r["p1_canasta_bonus"].mean(),
              "out_bonus": r["p1_out_bonus"].mean(), "nobody_out": r["stock_out"].mean(),
              "bonus_decides_hand": flip.mean(), "game_to": target, "hands_per_game": hm,
              "hands_se": hse, "game_margin_under_300": (margin < 300).mean(),
              "game_margin_under_500": (margin < 500).mean(), "game_margin": margin.mean()}
    t = tab[v]
    print(f"variants: {v}: {t['turns']:.1f} ± {1.96 * t['turns_se']:.1f} turns a hand; p1's side scores "
          f"{t['points']:.0f} points a hand (SD {t['points_sd']:.0f}; net SD {t['net_sd']:.0f}; canasta "
          f"bonuses {t['canasta_bonus']:.0f}, going out {t['out_bonus']:.0f}); nobody out in "
          f"{t['nobody_out']:.3f} of hands")
    print(f"variants: {v}: {t['hands_per_game']:.2f} ± {1.96 * t['hands_se']:.2f} hands to {target}"
          + ("" if v in games3 else " (games not played: hands only)") + "; "
          f"the bonuses decide p1's side's result in {t['bonus_decides_hand']:.3f} of hands; games won by < 300 "
          f"{t['game_margin_under_300']:.3f}, by < 500 {t['game_margin_under_500']:.3f} (mean margin "
          f"{t['game_margin']:.0f})")
for name, col in [("turns a hand", "turns"), ("hands a game", "hands"), ("p1's side's points a hand", "p1_points")]:
    src = games3 if col == "hands" else base3
    x = src["classic"][col].to_numpy(float)
    for v in src:
        if v == "classic":
            continue
        y = src[v][col].to_numpy(float)
        d = y.mean() - x.mean()
        se = math.sqrt(x.var(ddof=1) / len(x) + y.var(ddof=1) / len(y))
        print(f"variants: {name}: {v} minus classic {pm(d, se)}"
              + ("" if abs(d) > 1.96 * se else " (not resolved)"))
fig, ax = plt.subplots(1, 3, figsize=(13, 3.8))
for v in SIDE:
    ax[0].hist(base3[v]["turns"], bins=40, histtype="step", density=True, label=v)
    ax[1].hist(base3[v]["p1_points"], bins=80, histtype="step", density=True, label=v)
    if v not in games3:
        continue
    hv = games3[v]["hands"]
    ax[2].hist(hv, bins=np.arange(hv.min(), hv.max() + 2) - 0.5, histtype="step", density=True, label=v)
ax[0].set_xlabel("turns in a hand"); ax[0].set_title("hand length")
ax[1].set_xlabel("p1's side's points in a hand"); ax[1].set_title("score scale")
ax[2].set_xlabel("hands in a game to its target"); ax[2].set_title("game length (to each variant's target)")
for a, lab in zip(ax, ["density (share per turn)", "density (share per point)", "share of games"]):
    a.set_ylabel(lab); a.legend()
plt.show()
pd.DataFrame(tab).round(3)
""")

nb = nbf.v4.new_notebook()
nb["cells"] = cells
nb["metadata"]["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
nbf.write(nb, __file__.replace("make_canasta.py", "canasta.ipynb"))
