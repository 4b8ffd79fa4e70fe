"""Writes notebooks/panguingue.ipynb (run: python notebooks/make_panguingue.py).

Generated so that its code stays reviewable as plain Python; SIMKIT_NB_N sets the deals per
configuration (CI runs it small).  Every conclusion is printed from the numbers measured in the
run, never typed in: a "best" or a difference is called only where its 95% interval settles it,
otherwise the margin and its error are printed as not resolved."""
import nbformat as nbf

#: what tests/test_notebooks.py checks when it runs the notebook with SIMKIT_NB_N=size: the
#: phrases its output prints and at least this many images
CHECK = {"size": "300", "images": 5, "phrases": [
    "chips per deal by seat", "going on top: p6", "forced take:", "conditions table:",
    "borrow:"]}

cells = []
md = lambda s: cells.append(nbf.v4.new_markdown_cell(s.strip()))  # noqa: E731
code = lambda s: cells.append(nbf.v4.new_code_cell(s.strip()))  # noqa: E731

md("""
# Panguingue (Pan): going on top, seats and table sizes, the forced take, the conditions table

Rules: `shared/rules/003_25b072003b534ab4.txt`, lines 89-104 (readings in
`simkit.games.panguingue.rules` and `shared/rules/READINGS-rummy.md` section 5): eight Spanish
packs (320 cards), ten cards each, play to the right; before play each seat from the eldest may
"go on top" (drop out) for a forfeit of 2 chips; a drawn card is melded at once or discarded;
conditions (valle sets, A-2-3 and K-Q-J ropes) are paid in chips at once by every active player;
the first to meld eleven cards collects his conditions again, a chip from each active player and
the forfeits; a discard that fits the next player's melds must be taken on demand (line 100).
Every seat plays the `baseline` unless said; p1 is the eldest (first to decide and to play), p6
(at six) the dealer, last.

Each configuration plays `N` deals (`SIMKIT_NB_N`; **the numbers stored in this notebook come from
N = 20,000 deals per configuration**, the default; the test suite runs it at 300). Comparisons are
paired: the same seeded deals under both settings, per-deal differences, a mean and its standard
error; ± is 1.96 SE (95%). A difference is called only when that interval excludes zero.

1. chips per deal by seat and table size (2, 4, 6, 8 players);
2. when to go on top, by seat: the threshold swept seat by seat;
3. what the forced-take rule costs (demands on / off);
4. the text's conditions table against the published four-row table;
5. split and borrow (line 99): the baseline's `borrow` lever.
""")
code("""
import math
import os

import matplotlib.pyplot as plt
plt.rcParams.update({"figure.constrained_layout.use": True, "font.size": 10})  # titles and labels inside the figure
import numpy as np
import pandas as pd

import simkit

N = int(float(os.environ.get("SIMKIT_NB_N", "2e4")))   # deals per configuration
SEED = 2026
print(f"simkit {simkit.__version__}; n = {N:,} deals per configuration")


def rows(game="panguingue", strategies=()):
    return simkit.run(game, n=N, seed=SEED, strategies=list(strategies), rows=True,
                      progress=False).rows


def mean_se(x):
    x = np.asarray(x, float)
    return x.mean(), x.std(ddof=1) / math.sqrt(len(x))


def pm(m, se):
    return f"{m:+.3f} ± {1.96 * se:.3f}"


def resolved(m, se):
    return abs(m) > 1.96 * se


def seat_bars(df, col, ylabel, title):
    \"\"\"A bar a seat with its 95% interval (``df``'s ``seat``, ``col`` and ``se``).\"\"\"
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.bar(df["seat"], df[col], yerr=1.96 * df["se"], capsize=3)
    ax.axhline(0, color="k", lw=0.5)
    ax.set_xlabel("seat (1 = eldest)"); ax.set_ylabel(ylabel); ax.set_title(title)
    plt.show()


base = rows()   # six players, every seat the baseline: the reference of sections 2-5
""")
md("""
## 1. Chips per deal by seat and table size

Chips sum to zero in every deal, so a seat's mean is its edge over the table. Seats are numbered
from the eldest (p1 decides and plays first; the last seat deals).
""")
code("""
out = []
for K in (2, 4, 6, 8):
    r = base if K == 6 else rows(f"panguingue(players={K})")
    for k in range(1, K + 1):
        m, se = mean_se(r[f"p{k}_chips"])
        out.append({"players": K, "seat": k, "chips": m, "se": se, "win": r[f"p{k}_win"].mean(),
                    "top": r[f"p{k}_top"].mean(), "conditions": r[f"p{k}_conditions"].mean()})
    hi = max(range(1, K + 1), key=lambda k: r[f"p{k}_chips"].mean())
    lo = min(range(1, K + 1), key=lambda k: r[f"p{k}_chips"].mean())
    d, se = mean_se(r[f"p{hi}_chips"] - r[f"p{lo}_chips"])
    print(f"chips per deal by seat, {K} players: " + ", ".join(
        f"p{k} {r[f'p{k}_chips'].mean():+.2f}" for k in range(1, K + 1))
          + f"; p{hi} ahead of p{lo} by {pm(d, se)}"
          + ("" if resolved(d, se) else " (not resolved)"))
seats = pd.DataFrame(out)
fig, ax = plt.subplots(1, 2, figsize=(11, 3.5))
for K, g in seats.groupby("players"):
    ax[0].errorbar(g["seat"], g["chips"], yerr=1.96 * g["se"], marker="o", capsize=3, label=f"{K} players")
    ax[1].plot(g["seat"], g["top"], marker="o", label=f"{K} players")
ax[0].axhline(0, color="k", lw=0.5)
ax[0].set_xlabel("seat (1 = eldest)"); ax[0].set_ylabel("net chips per deal (95% CI)")
ax[0].set_title("chips per deal by seat and table size"); ax[0].legend()
ax[1].set_xlabel("seat (1 = eldest)"); ax[1].set_ylabel("share of deals on top")
ax[1].set_title("how often the baseline goes on top"); ax[1].legend()
plt.show()
seats.round(4)
""")
md("""
## 2. When to go on top, by seat

The baseline goes on top when its hand's quality (0..20: each card's connections to the others,
at most two each) is below a threshold (`top`, raised by `top_seat` towards the last seat). Here
one seat at a time plays `baseline(top=t, top_seat=0)` (threshold `t` at that seat; 0 = never go
on top) while the other five keep the default; its chips are paired with the all-default deals.
A seat's "best" threshold is reported only when it beats every other value of the grid at 95%
(paired on the same deals); otherwise the lead of the best over the runner-up is printed, not
resolved.
""")
code("""
GRID = [0, 4, 8, 10, 12, 14, 16]
out, chips = [], {}
for k in range(1, 7):
    for t in GRID:
        r = rows(strategies=[f"p{k}=baseline(top={t},top_seat=0)"])
        chips[k, t] = r[f"p{k}_chips"].to_numpy(float)
        m, se = mean_se(chips[k, t] - base[f"p{k}_chips"].to_numpy(float))
        out.append({"seat": k, "top": t, "vs_default": m, "se": se, "on_top": r[f"p{k}_top"].mean()})
tops = pd.DataFrame(out)
for k in range(1, 7):
    g = tops[tops.seat == k].sort_values("vs_default", ascending=False)
    best, second = int(g.iloc[0]["top"]), int(g.iloc[1]["top"])
    leads = [mean_se(chips[k, best] - chips[k, t]) for t in GRID if t != best]
    lead, lse = mean_se(chips[k, best] - chips[k, second])
    if all(m > 1.96 * se for m, se in leads):
        print(f"going on top: p{k}: best threshold top={best} ({g.iloc[0]['vs_default']:+.3f} chips/deal "
              f"against the default), ahead of the next best top={second} by {pm(lead, lse)}")
    else:
        print(f"going on top: p{k}: not resolved: top={best} leads top={second} by {pm(lead, lse)} "
              f"chips/deal")
fig, ax = plt.subplots(2, 3, figsize=(11, 6), sharey=True)
for a, (k, g) in zip(ax.ravel(), tops.groupby("seat")):
    a.errorbar(g["top"], g["vs_default"], yerr=1.96 * g["se"], marker="o", capsize=3)
    a.axhline(0, color="k", lw=0.5)
    a.set_title(f"p{k} goes on top below t"); a.set_xlabel("threshold t (hand quality)")
    a.set_ylabel("chips/deal vs default")
plt.show()
tops.round(4)
""")
md("""
## 3. What the forced-take rule costs

Line 100: a discard that fits the next player's melds must be taken and melded by him on any
other player's demand (it breaks the pairs he waits on). The baseline demands whenever the card
pays him no condition (`demand=10`); `demand=0` never demands. With nobody demanding, the rule is
in effect switched off (a player still takes a card that melds when he wants it). Below: the
whole table without demands against the default table, and one seat alone giving up its demands.

What to expect: the baseline takes every top discard it can meld of its own accord, so among
baseline players a demand changes only *how* the card is taken (added to a meld at once, line
100, instead of the meld the player would choose, which may use two hand cards) and when (before
his own choice). The rule bites on a player who would rather leave the card; none of these does.
""")
code("""
off = rows(strategies=[f"p{k}=baseline(demand=0)" for k in range(1, 7)])
out = []
for k in range(1, 7):
    m, se = mean_se(off[f"p{k}_chips"] - base[f"p{k}_chips"])
    out.append({"seat": k, "rule_off_vs_on": m, "se": se})
forced = pd.DataFrame(out)
for name, col in [("turns per deal", "turns"), ("share of deals with no winner", "stock_out")]:
    m, se = mean_se(off[col] - base[col])
    print(f"forced take: {name}: {base[col].mean():.3f} with demands, {off[col].mean():.3f} without "
          f"(difference {pm(m, se)}{'' if resolved(m, se) else ', not resolved'})")
cond_on = sum(base[f"p{k}_conditions"] for k in range(1, 7))
cond_off = sum(off[f"p{k}_conditions"] for k in range(1, 7))
m, se = mean_se(cond_off - cond_on)
print(f"forced take: condition chips collected per deal (all seats): {cond_on.mean():.2f} with demands, "
      f"{cond_off.mean():.2f} without ({pm(m, se)})")
for k in range(1, 7):
    m, se = forced.loc[k - 1, "rule_off_vs_on"], forced.loc[k - 1, "se"]
    print(f"forced take: without the rule p{k} {'gains' if m > 0 else 'loses'} {pm(m, se)} chips/deal"
          + ("" if resolved(m, se) else " (not resolved)"))
one = rows(strategies=["p6=baseline(demand=0)"])
d = one["p6_chips"] - base["p6_chips"]
if (d == 0).all():
    print(f"forced take: p6 alone never demanding: its chips are the same in all {N:,} deals "
          f"(another seat demands in its place)")
else:
    m, se = mean_se(d)
    print(f"forced take: p6 alone never demanding: {pm(m, se)} chips/deal against demanding"
          + ("" if resolved(m, se) else " (not resolved)"))
seat_bars(forced, "rule_off_vs_on", "chips/deal: no demands minus demands",
          "the forced take switched off (nobody demands), by seat")
forced.round(4)
""")
md("""
## 4. The text's conditions table against the published four-row table

Line 98 lists three rows (valle sets of different suits 1; valle sets of one suit 4 in spades, 2
otherwise; A-2-3 and K-Q-J ropes of a suit 2 in spades, 1 otherwise). Published tables add a
fourth: one-suit sets of a non-valle rank (2, 4, 6, J, Q) pay 2 in spades, 1 otherwise
(`conditions=published`). Same deals, same players; only the table changes.
""")
code("""
pub = rows("panguingue(conditions=published)")
out = []
for name, r in [("text", base), ("published", pub)]:
    paid = sum(r[f"p{k}_conditions"] for k in range(1, 7))
    stake = sum(r[f"p{k}_chips"].abs() for k in range(1, 7)) / 2
    out.append({"table": name, "condition_chips": paid.mean(), "chips_moved": stake.mean(),
                "turns": r["turns"].mean(), "no_winner": r["stock_out"].mean(),
                "went_on_top": np.mean([r[f"p{k}_top"].mean() for k in range(1, 7)])})
ctab = pd.DataFrame(out).set_index("table")
d_paid, se_paid = mean_se(sum(pub[f"p{k}_conditions"] - base[f"p{k}_conditions"] for k in range(1, 7)))
print(f"conditions table: condition chips collected per deal {ctab.loc['text', 'condition_chips']:.2f} "
      f"(text) and {ctab.loc['published', 'condition_chips']:.2f} (published): {pm(d_paid, se_paid)}")
d_st, se_st = mean_se(sum((pub[f"p{k}_chips"].abs() - base[f"p{k}_chips"].abs()) for k in range(1, 7)) / 2)
print(f"conditions table: chips changing hands per deal {ctab.loc['text', 'chips_moved']:.2f} (text), "
      f"{ctab.loc['published', 'chips_moved']:.2f} (published): {pm(d_st, se_st)}")
for k in range(1, 7):
    m, se = mean_se(pub[f"p{k}_chips"] - base[f"p{k}_chips"])
    print(f"conditions table: p{k} under the published table {pm(m, se)} chips/deal"
          + ("" if resolved(m, se) else " (not resolved)"))
fig, ax = plt.subplots(1, 2, figsize=(10, 3.5))
ax[0].bar(ctab.index, ctab["condition_chips"]); ax[0].set_ylabel("condition chips per deal")
ax[0].set_xlabel("conditions table"); ax[0].set_title("chips paid for conditions")
ax[1].bar(ctab.index, ctab["chips_moved"]); ax[1].set_ylabel("chips changing hands per deal")
ax[1].set_xlabel("conditions table"); ax[1].set_title("the stakes of a deal")
plt.show()
ctab.round(4)
""")
md("""
## 5. Split and borrow (line 99)

"A player may split a meld in two where each part stays a legal meld, and borrow a card from an
extended meld to form a new one on the same condition; conditions so made pay." The baseline's
`borrow=1` (the default) borrows a card of its own meld of four or more to complete a new meld,
and splits a meld when that makes a condition; `borrow=0` never does. One seat at a time plays
`borrow=0` among five default players (what a player loses by ignoring line 99), and the whole
table plays `borrow=0` (the game without it).
""")
code("""
out, per_deal = [], 0
for k in range(1, 7):
    r = rows(strategies=[f"p{k}=baseline(borrow=0)"])
    d = r[f"p{k}_chips"].to_numpy(float) - base[f"p{k}_chips"].to_numpy(float)
    per_deal = per_deal + d / 6
    m, se = mean_se(d)
    w, wse = mean_se(r[f"p{k}_win"] - base[f"p{k}_win"])
    out.append({"seat": k, "no_borrow_vs_borrow": m, "se": se, "win_change": w, "win_se": wse})
bor = pd.DataFrame(out)
m, se = mean_se(per_deal)   # each deal's mean over the six seats: the deal is the unit
print(f"borrow: a seat giving up split and borrow, averaged over the six seats: {pm(m, se)} chips/deal"
      + ("" if resolved(m, se) else " (not resolved)"))
for _, b in bor.iterrows():
    print(f"borrow: p{int(b.seat)} with borrow=0: {pm(b.no_borrow_vs_borrow, b.se)} chips/deal, "
          f"wins {pm(b.win_change, b.win_se)} a deal")
none = rows(strategies=[f"p{k}=baseline(borrow=0)" for k in range(1, 7)])
for name, col in [("turns per deal", "turns"), ("share of deals with no winner", "stock_out")]:
    m, se = mean_se(none[col] - base[col])
    print(f"borrow: {name}: {base[col].mean():.3f} with split and borrow, {none[col].mean():.3f} "
          f"without ({pm(m, se)})")
seat_bars(bor, "no_borrow_vs_borrow", "chips/deal: borrow=0 minus default",
          "one seat ignoring split and borrow (line 99)")
bor.round(4)
""")

nb = nbf.v4.new_notebook()
nb["cells"] = cells
nb["metadata"]["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
nbf.write(nb, __file__.replace("make_panguingue.py", "panguingue.ipynb"))
