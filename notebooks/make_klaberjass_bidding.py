"""Writes notebooks/klaberjass_bidding.ipynb (run: python notebooks/make_klaberjass_bidding.py).

Generated so that its code stays reviewable as plain Python; SIMKIT_NB_N sets the short games per
configuration (long games and per-deal rows are sized from it; CI runs it small).  Every
conclusion is printed from the numbers measured in the run, never typed in."""
import nbformat as nbf

#: what tests/test_notebooks.py checks when it runs the notebook with SIMKIT_NB_N=size: the
#: phrases its output prints and at least this many images
CHECK = {"size": "4e3", "images": 8, "phrases": [
    "the best round-one threshold is t1 =", "the best round-two threshold is t2 =",
    "the best (t1, t2) pair is", "the first word wins the short game with probability",
    "bait rate by strength:", "equal players: p1, with the first word",
    "in a long game to 501 the best t1 =", "the break-even open-hand bonus is"]}

cells = []
md = lambda s: cells.append(nbf.v4.new_markdown_cell(s.strip()))  # noqa: E731
code = lambda s: cells.append(nbf.v4.new_code_cell(s.strip()))  # noqa: E731

md("""
# Klaberjass for two: when to take, who gains from the first word, what an open hand is worth

The rule text (`shared/rules/001_4b506a693298ed3d.txt`, lines 1-119; readings in
`simkit/games/klaberjass/rules.py`) leaves every decision of the bidding to the player: take the
upcard's suit in round one ("играю"), name another suit in round two, or pass (lines 46-48). A
bidder who scores less than the defender is baited ("байд"): in the short game he pays two stakes,
one on a tie (line 44). This notebook measures, with 95% intervals:

1. the best round-one and round-two thresholds of the `heuristic` player against the default
   heuristic, and how flat the optimum is;
2. the advantage of the first word, in the short game and in games to 301 and 501;
3. the probability of a bait against the bidder's hand strength;
4. who wins a long game to 301 or 501, and how much a different threshold moves it;
5. what the open-hand bonus (lines 18-22: "откроюсь за 150/155/160") is worth.

`heuristic(t1, t2)` (docstring in `simkit/games/klaberjass/strategies.py`) bids in round one when
its six-card strength for the upcard's suit reaches `t1` (default 60) and in round two on its
strongest other suit when that reaches `t2` (default 50). Strength = card points with trumps at
trump value, +10 per trump, + runs (terz 20, fifty 50), +20 for bella. Every grid point of a sweep
sees the same deals, so differences between thresholds are paired (batch means over chunks).

`opener` says who has the first word in a unit's first deal: `p1`, `p2`, or `lot` (the text's
rule, line 46: a coin). With `lot`, p1's results average his two seats.
""")
code("""
import math
import os

import numpy as np
import pandas as pd

import simkit
from simkit import plots
from simkit.analysis.studies import klaberjass_bidding as study

N = int(float(os.environ.get("SIMKIT_NB_N", "4e5")))   # short games (one deal + redeals) per configuration
NL = max(1_000, N // 4)                                # long games (to 301 / 501) per configuration
NR = min(N, 250_000)                                   # short games kept as per-deal rows (section 3)
SEED = 2026
spec, default_rules = simkit.parse_game("klaberjass")
print(f"simkit {simkit.__version__}; n = {N:,} short games, {NL:,} long games per configuration, "
      f"{NR:,} rows per case for the bait study")
print("metrics:", ", ".join(m.name for m in spec.metrics(default_rules)))


def ci(e, d=4):
    \"\"\"'mean [low, high]' of an estimate dict or a table row.\"\"\"
    return f"{e['mean']:.{d}f} [{e['ci_low']:.{d}f}, {e['ci_high']:.{d}f}]"


def diff(row, d=4):
    return f"{row['diff']:+.{d}f} [{row['diff_low']:+.{d}f}, {row['diff_high']:+.{d}f}]"


def panels(tab, x, metrics, hue=None, ncols=2):
    \"\"\"Several metric_lines in one figure.\"\"\"
    nrows = math.ceil(len(metrics) / ncols)
    fig = plots.new_figure(11, 3.4 * nrows)
    for ax, m in zip(fig.subplots(nrows, ncols, squeeze=False).ravel(), metrics):
        plots.metric_lines(tab, m, x=x, hue=hue, ax=ax)
    return fig


def summary(best, key, default, tol):
    \"\"\"One line: the best value of `key`, its estimate, the values not significantly worse, those
    within `tol` of the best (how flat the optimum is), and the default's paired difference.\"\"\"
    b = best[best["best"]].iloc[0]
    lo, hi = study.flat_range(best, key)
    flo, fhi = study.flat_range(best, key, tol)
    d = best[best[key] == default].iloc[0]
    return (f"{key.split('.')[-1]} = {b[key]}: {ci(b)}; not significantly worse: {lo}..{hi}; within "
            f"{tol} of the best: {flo}..{fhi}; the default {default} differs by {diff(d)}")


SHORT = ["p1_stakes", "p1_win", "p1_bids", "p1_baits"]
TOL = 0.01   # "flat": thresholds within 0.01 stakes (short game) or 0.01 win probability (long) of the best
""")

md("""
## 1. Take or pass: the round-one threshold `t1`

p1 plays `heuristic(t1=t, t2=50)`, p2 the default `heuristic(60, 50)`, in the short game. Metrics
per short game: `p1_stakes` (p1's stakes won: +1 for a made bid, -1 on a tie, -2 on a bait, the
defender the opposite), `p1_win` (p1 wins the party), `p1_bids` (p1 is the bidder) and `p1_baits`
(p1 bid and was baited). One line per `opener`.
""")
code("""
OPENERS = ["p1", "p2", "lot"]
T1 = list(range(30, 105, 5))
s1 = study.thresholds("t1", T1, n=N, seed=SEED, openers=OPENERS, progress=False)
tab1 = s1.table()
(tab1[tab1.metric.isin(SHORT)].pivot_table(index="p1.t1", columns=["metric", "opener"], values="mean")
 [SHORT].round(3))
""")
code("""
panels(tab1, "p1.t1", SHORT, hue="opener")
""")
md("""
The best `t1` by stakes for each first word, every threshold's paired difference from the best
(`diff`, with its 95% interval), and the thresholds that are not significantly worse (`tied`).
How flat the optimum is: the thresholds within 0.01 stakes of the best.
""")
code("""
best1 = {o: study.versus_best(s1, "p1.t1", "p1_stakes", where={"opener": o}) for o in OPENERS}
best1["lot"].round(4)
""")
code("""
for o in OPENERS:
    print(f"opener={o}: the best round-one threshold is " + summary(best1[o], "p1.t1", 60, TOL))
w1 = study.versus_best(s1, "p1.t1", "p1_win", where={"opener": "lot"})
bw = w1[w1["best"]].iloc[0]
bs = best1["lot"][best1["lot"]["best"]].iloc[0]
print(f"by the chance of winning the party alone (opener=lot) the best is t1 = {bw['p1.t1']} ({ci(bw)}); "
      + ("a lower threshold than the best by stakes: it wins more parties but more of its bids are baited "
         "at two stakes" if bw["p1.t1"] < bs["p1.t1"] else "not below the best by stakes"))
""")

md("""
## 2. The round-two threshold `t2`

The same with `t2` swept and `t1 = 60`.
""")
code("""
T2 = list(range(20, 105, 5))
s2 = study.thresholds("t2", T2, n=N, seed=SEED, openers=OPENERS, progress=False)
tab2 = s2.table()
(tab2[tab2.metric.isin(SHORT)].pivot_table(index="p1.t2", columns=["metric", "opener"], values="mean")
 [SHORT].round(3))
""")
code("""
panels(tab2, "p1.t2", SHORT, hue="opener")
""")
code("""
best2 = {o: study.versus_best(s2, "p1.t2", "p1_stakes", where={"opener": o}) for o in OPENERS}
for o in OPENERS:
    print(f"opener={o}: the best round-two threshold is " + summary(best2[o], "p1.t2", 50, TOL))
best2["lot"].round(4)
""")
md("""
### Both thresholds together

`p1_stakes` over a `t1` x `t2` grid around the defaults (opener by lot, half as many games per
cell); the cells carry their 95% half-widths. The best cell is compared with the default (60, 50)
on the same deals.
""")
code("""
NH = max(2_000, N // 2)
T1H, T2H = list(range(45, 80, 5)), list(range(35, 70, 5))
s12 = simkit.sweep("klaberjass(opener=lot)", grid={"p1.t1": T1H, "p1.t2": T2H}, n=NH, seed=SEED,
                   strategies=["p1=heuristic", "p2=heuristic"], progress=False)
plots.heatmap(s12.table(), "p1_stakes", x="p1.t1", y="p1.t2", annotate=True)
""")
code("""
best12 = study.versus_best(s12, ["p1.t1", "p1.t2"], "p1_stakes")
b12 = best12[best12["best"]].iloc[0]
d12 = best12[(best12["p1.t1"] == 60) & (best12["p1.t2"] == 50)].iloc[0]
n_tied = int(best12["tied"].sum())
n_near = int((best12["diff"] >= -TOL).sum())
print(f"the best (t1, t2) pair is ({b12['p1.t1']}, {b12['p1.t2']}): {ci(b12)} stakes per short game; "
      f"the default (60, 50) differs by {diff(d12)}; {n_tied} of {len(best12)} cells are not "
      f"significantly worse than the best, {n_near} are within {TOL} of it")
""")

md("""
## 3. The first word

Both seats play the default heuristic; p1 has the first word in the unit's first deal
(`opener=p1`), so `opener_win` is the first word's chance of winning the unit and
`2 * opener_win - 1` its advantage. In long games the first word of later deals goes to the loser
of the previous deal (`next_word=loser`, the text) or alternates (`alternate`).
""")
code("""
short = simkit.run("klaberjass", n=N, seed=SEED, progress=False).estimates()
fw = simkit.sweep("klaberjass", grid={"form": ["short", "301", "501"], "next_word": ["loser", "alternate"]},
                  n=NL, seed=SEED, progress=False)
fwt = fw.table().assign(form=lambda t: t["form"].astype(str))
(fwt[fwt.metric.isin(["opener_win", "p1_bids", "p1_baits", "deals"])]
 .pivot_table(index=["form", "next_word"], columns="metric", values="mean").round(4))
""")
code("""
plots.metric_lines(fwt, "opener_win", x="next_word", hue="form")
""")
code("""
ow = short["opener_win"]
print(f"the first word wins the short game with probability {ci(ow)} (n = {N:,}): an advantage of "
      f"{2 * ow['mean'] - 1:+.4f} [{2 * ow['ci_low'] - 1:+.4f}, {2 * ow['ci_high'] - 1:+.4f}], "
      f"worth {ci(short['p1_stakes'])} stakes per game")
for f in ["301", "501"]:
    for nw in ["loser", "alternate"]:
        i = [k for k, p in enumerate(fw.points) if str(p["form"]) == f and p["next_word"] == nw][0]
        e = fw.estimates(i)["opener_win"]
        print(f"  to {f}, next_word={nw}: the first word of the first deal wins the game with {ci(e)} "
              f"(n = {NL:,})")
""")

md("""
## 4. Bait probability against hand strength

Per-deal rows of the short game, reduced to one row per played bid: the bidder's six-card strength
(`bidder_strength`, the heuristic's measure for the suit he named), the round, and whether he was
baited. Three cases:

* **as played**: default heuristic in both seats (bids only at strength >= 60 in round one, >= 50
  in round two), split by round;
* **p1 takes every upcard**: p1 (first word) bids round one whatever he holds (`t1=0`), so every
  strength of the upcard's suit is seen;
* **p1 names his best suit in round two**: p1 passes round one (`t1=300`) and, if p2 passes too,
  names his strongest other suit whatever its strength (`t2=0`); only p1's bids are kept.

Bins of 10 strength points (the last open), rates with Wilson 95% intervals; bins with fewer than
30 bids are left out.
""")
code("""
cases = {"as played": None, "p1 takes every upcard": ["p1=heuristic(t1=0)"],
         "p1 names best other suit": ["p1=heuristic(t1=300,t2=0)"]}
frames = []
for name, strat in cases.items():
    rows = simkit.run("klaberjass", n=NR, seed=SEED, strategies=strat, rows=True, progress=False).rows
    b = study.bids(rows)
    del rows
    if name == "as played":
        b["case"] = np.where(b["round"] == 1, "as played, round 1", "as played, round 2")
    else:
        b = b[b["bidder"] == "p1"].assign(case=name)
    frames.append(b)
bid_rows = pd.concat(frames, ignore_index=True)
EDGES = list(range(0, 130, 10)) + [np.inf]
bait = study.binned_rate(bid_rows, "strength", "bait", EDGES, by="case", min_n=30)
pay = study.binned_mean(bid_rows, "strength", "stakes", EDGES, by="case", min_n=30)
bait.pivot_table(index=["strength", "bin"], columns="case", values="mean").round(3)
""")
code("""
fig = plots.metric_lines(bait, "bait", x="strength", hue="case")
fig.axes[0].axhline(1 / 3, color="0.4", linestyle=":", linewidth=1)
fig
""")
code("""
plots.metric_lines(pay, "stakes", x="strength", hue="case")
""")
code("""
def bait_line(case):
    t = bait[bait["case"] == case].sort_values("strength")
    if t.empty:
        return f"{case}: no bin with 30 bids"
    a, z = t.iloc[0], t.iloc[-1]
    c = study.crossing(t, "strength", level=1 / 3, increasing=False)
    where = (f"below 1/3 from strength {c['x']:.0f} (band {c['low']:.0f}..{c['high']:.0f})"
             if c["status"] == "inside" else "below 1/3 in every bin" if c["status"] == "below"
             else "above 1/3 in every bin")
    return (f"{case}: bait rate by strength: {ci(a, 3)} at {a['bin']}, {ci(z, 3)} at {z['bin']}; "
            f"{where}")


for case in sorted(bait["case"].unique()):
    print(bait_line(case))
for case in ["p1 takes every upcard", "p1 names best other suit"]:
    c = study.crossing(pay[pay["case"] == case], "strength", level=0.0)
    if c["status"] == "inside":
        print(f"{case}: the bidder's own stakes turn positive at strength about {c['x']:.0f} "
              f"(95% band {c['low']:.0f}..{c['high']:.0f})")
    else:
        print(f"{case}: the bidder's own stakes do not cross 0 inside the bins ({c['status']})")
print(f"as played: {bid_rows[bid_rows.case.str.startswith('as played')]['bait'].mean():.3f} of bids are "
      f"baited (n = {int(bid_rows.case.str.startswith('as played').sum()):,} bids)")
""")
md("""
A short-game bid that is made with probability `1 - b` and baited with probability `b` (ties
aside) is worth `1 - 3b` stakes to its bidder, so the dotted line at 1/3 marks where a bid stops
paying for itself. Passing is not worth 0, though (the opponent may bid and be baited), which is
why the best thresholds of sections 1-2 need not sit where the curves cross.
""")

md("""
## 5. Long games to 301 and 501

Equal players first (from section 3's runs: p1 has the first word of the first deal). Then p1
changes one threshold against the default heuristic (first word by lot, so equal players would
win 1/2), and the measure is p1's chance of winning the game.
""")
code("""
TL1, TL2 = list(range(40, 95, 5)), list(range(30, 85, 5))
FORMS = {"form": ["301", "501"]}
l1 = study.thresholds("t1", TL1, rules="klaberjass(opener=lot)", n=NL, seed=SEED, openers=None,
                      extra=FORMS, progress=False)
l2 = study.thresholds("t2", TL2, rules="klaberjass(opener=lot)", n=NL, seed=SEED, openers=None,
                      extra=FORMS, progress=False)
lt1, lt2 = l1.table(), l2.table()
fig = plots.new_figure(11, 3.8)
a1, a2 = fig.subplots(1, 2)
plots.metric_lines(lt1, "p1_win", x="p1.t1", hue="form", ax=a1)
plots.metric_lines(lt2, "p1_win", x="p1.t2", hue="form", ax=a2)
for ax in (a1, a2):
    ax.axhline(0.5, color="0.4", linestyle=":", linewidth=1)
fig
""")
code("""
for f in ["301", "501"]:
    i = [k for k, p in enumerate(fw.points) if str(p["form"]) == f and p["next_word"] == "loser"][0]
    print(f"equal players: p1, with the first word of the first deal, wins a game to {f} with "
          f"{ci(fw.estimates(i)['p1_win'])}; {fw.estimates(i)['deals']['mean']:.2f} deals per game")
long_best = {}
for f in ["301", "501"]:
    for res, key, default in [(l1, "p1.t1", 60), (l2, "p1.t2", 50)]:
        t = study.versus_best(res, key, "p1_win", where={"form": f})
        long_best[(f, key)] = t
        print(f"in a long game to {f} the best {summary(t, key, default, TOL)}")
""")
code("""
pd.concat({f"{f} {k}": t.set_index(k)[["mean", "diff", "diff_low", "diff_high", "tied"]]
           for (f, k), t in long_best.items()}, names=["game", "threshold"]).round(4)
""")

md("""
## 6. The open-hand bonus

In "501, откроюсь за 150/155/160" the proposer (here p1) plays every deal with his cards shown and
starts with the bonus. The grid runs `open_bonus` from 0 to 160 (`form=501, open_hand=p1`, first
word by lot) against two opponents: the default heuristic, which ignores the open cards
(`sight=0`), and one that leads by them (`sight=1`). The break-even bonus is where the proposer's
chance of winning crosses 1/2 (linear interpolation between grid points; its interval is where the
pointwise 95% band crosses).
""")
code("""
BONUS = [0, 5, 10, 20, 40, 60, 80, 100, 120, 140, 150, 155, 160]
ob = simkit.sweep("klaberjass(form=501,open_hand=p1,opener=lot)",
                  grid={"open_bonus": BONUS, "p2.sight": [0, 1]}, n=NL, seed=SEED, progress=False)
obt = ob.table()
presets = simkit.sweep("klaberjass", grid={"preset": ["open150", "open155", "open160"], "p2.sight": [0, 1]},
                       n=NL, seed=SEED, progress=False).table()
(obt[obt.metric.isin(["p1_win", "deals", "p1_claims"])]
 .pivot_table(index="open_bonus", columns=["metric", "p2.sight"], values="mean").round(4))
""")
code("""
fig = plots.metric_lines(obt, "p1_win", x="open_bonus", hue="p2.sight")
fig.axes[0].axhline(0.5, color="0.4", linestyle=":", linewidth=1)
fig.axes[0].set_xticks(range(0, 161, 20))
fig
""")
code("""
def point(res, **kw):
    return [i for i, p in enumerate(res.points) if all(p[k] == v for k, v in kw.items())][0]


breakeven = {}
for s in [0, 1]:
    t = obt[(obt.metric == "p1_win") & (obt["p2.sight"] == s)]
    c = breakeven[s] = study.crossing(t, "open_bonus", level=0.5)
    w0 = t[t.open_bonus == 0].iloc[0]
    if c["status"] == "inside":
        where = (f"{c['x']:.1f} points (95% band {c['low']:.1f}..{c['high']:.1f})" if np.isfinite(c["high"])
                 else f"{c['x']:.1f} points (95% band from {c['low']:.1f})")
    elif c["status"] == "below":
        where = f"at or below 0 points: with no bonus the proposer already wins {ci(w0)}"
    else:
        where = "above 160 points: the proposer loses more often at every bonus of the grid"
    breakeven[s]["text"] = where
    print(f"against heuristic(sight={s}): the break-even open-hand bonus is {where}")
for b in [150, 155, 160]:
    row = presets[(presets.metric == "p1_win") & (presets["preset"] == f"open{b}")].set_index("p2.sight")
    print(f"  preset open{b} (first word to the proposer): the proposer wins {ci(row.loc[0])} against "
          f"sight=0, {ci(row.loc[1])} against sight=1")
cost = study.difference(ob, "p1_win", point(ob, open_bonus=0, **{"p2.sight": 1}),
                        point(ob, open_bonus=0, **{"p2.sight": 0}))
verdict = ("helps the proposer: the sighted player's use of the cards costs him" if cost["ci_low"] > 0
           else "hurts the proposer: the sight is worth something to the opponent" if cost["ci_high"] < 0
           else "makes no significant difference")
print(f"leading by the open cards (sight=1 instead of 0) changes the proposer's chance at bonus 0 by "
      f"{cost['mean']:+.4f} [{cost['ci_low']:+.4f}, {cost['ci_high']:+.4f}] ({cost['by']}): it {verdict}")
t0 = obt[(obt.metric == "p1_win") & (obt["p2.sight"] == 0)]
per = t0[t0.open_bonus.between(0, 40)]
slope = np.polyfit(per["open_bonus"], per["mean"], 1)[0]
print(f"each 10 points of head start add about {10 * slope:.4f} to the proposer's chance (bonus 0..40, "
      f"sight=0); at 150 he wins {ci(t0[t0.open_bonus == 150].iloc[0])}")
""")
md("""
`sight=0` ignores the open cards, so against it the open hand changes nothing and the bonus is a
pure head start (at bonus 0 the game is the symmetric one). The text's 150-160 can be fair only
against an opponent who turns the sight of the cards into as much winning chance as that head
start buys; the line above says whether the heuristic's `sight=1` does.
""")

md("""
## 7. What the numbers say

The lines below are printed from the tables above.
""")
code("""
b1l, b2l = best1["lot"], best2["lot"]
r1, r2 = b1l[b1l.best].iloc[0], b2l[b2l.best].iloc[0]
print(f"1. Short game, first word by lot: the best t1 is {r1['p1.t1']} and the best t2 {r2['p1.t2']} "
      f"against heuristic(60, 50); thresholds not significantly worse span t1 "
      f"{'..'.join(map(str, study.flat_range(b1l, 'p1.t1')))} and t2 "
      f"{'..'.join(map(str, study.flat_range(b2l, 'p1.t2')))}; best pair ({b12['p1.t1']}, {b12['p1.t2']}).")
lw = {f: fw.estimates(point(fw, form=int(f), next_word="loser"))["opener_win"]["mean"]
      for f in ["301", "501"]}
print(f"2. The first word wins the short game {ow['mean']:.3f} of the time; the first word of a long game's "
      f"first deal wins {lw['301']:.3f} of games to 301 and {lw['501']:.3f} to 501.")
pa = bait[bait.case == "p1 takes every upcard"].sort_values("strength")
if len(pa):
    print(f"3. Taking the upcard's suit: the bait rate is {pa.iloc[0]['mean']:.3f} at strength "
          f"{pa.iloc[0]['bin']} and {pa.iloc[-1]['mean']:.3f} at {pa.iloc[-1]['bin']}.")
lb = {k: t[t.best].iloc[0] for k, t in long_best.items()}
print("4. Long games: best t1 " + ", ".join(f"to {f}: {lb[(f, 'p1.t1')]['p1.t1']}" for f in ["301", "501"])
      + "; best t2 " + ", ".join(f"to {f}: {lb[(f, 'p1.t2')]['p1.t2']}" for f in ["301", "501"]) + ".")
print(f"5. Open hand to 501 against heuristic(sight=0): bonus 150 gives the proposer "
      f"{t0[t0.open_bonus == 150].iloc[0]['mean']:.3f}; the break-even bonus is {breakeven[0]['text']}.")
""")

nb = nbf.v4.new_notebook()
nb["cells"] = cells
nb["metadata"]["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
nbf.write(nb, __file__.replace("make_klaberjass_bidding.py", "klaberjass_bidding.ipynb"))
