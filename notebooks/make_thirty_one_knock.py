"""Writes notebooks/thirty_one_knock.ipynb (run: python notebooks/make_thirty_one_knock.py).

Generated so that its code stays reviewable as plain Python; SIMKIT_NB_N sets the deals per
configuration (CI runs it small)."""
import nbformat as nbf

#: what tests/test_notebooks.py checks when it runs the notebook with SIMKIT_NB_N=size: the
#: phrases its output prints and at least this many images
CHECK = {"size": "4e3", "images": 3, "phrases": [
    "knock threshold by seat", "knock at once:", "by lives left:", "survival by seat:",
    "refusing the first three:"]}

cells = []
md = lambda s: cells.append(nbf.v4.new_markdown_cell(s.strip()))  # noqa: E731
code = lambda s: cells.append(nbf.v4.new_code_cell(s.strip()))  # noqa: E731

md("""
# Schwimmen / Thirty-one: when to knock, who survives, and whether to refuse the first three

Rules: `shared/rules/002_17c4cc3dde05b547.txt`, lines 17-55 (the readings are in
`simkit.games.thirty_one.rules`): 36 cards, four players unless said, p1 deals and may lay his
first three as the table, p2 plays first, the lowest hand loses a life, four lives. Every
comparison is paired: all the configurations of a sweep play the same deals, and each
difference has its own standard error.
""")
code("""
import os
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
plt.rcParams.update({"figure.constrained_layout.use": True, "font.size": 10})  # titles and labels inside the figure
import simkit

N = int(float(os.environ.get("SIMKIT_NB_N", "1e5")))   # deals per configuration
NG = max(200, N // 20)                                 # whole games per configuration
SEED = 2026


def sweep(game, grid):
    # every grid point on the same deals (whole games: NG of them); under 8 chunks of 4096 the
    # runner's batch means give no paired SE, so small runs keep per-deal rows instead
    n = NG if "unit=game" in game else N
    return simkit.sweep(game, grid, n=n, seed=SEED, rows=n < 40_000, progress=False)


def paired(res, metric, a, b):   # a - b on the same deals, with its standard error
    if res.rows is None:
        return res.paired(metric, a, b)
    r = res.rows
    x = r[r.config == res.config_index(a)][metric].to_numpy()
    y = r[r.config == res.config_index(b)][metric].to_numpy()
    return {"mean": (x - y).mean(), "se": (x - y).std(ddof=1) / np.sqrt(len(x))}


print(f"simkit {simkit.__version__}; n = {N:,} deals, {NG:,} games per configuration")
""")
md("""
## 1. The knock threshold by seat

One seat plays `baseline(knock=t)` (knock from its second turn on with a hand worth at least
t), the other three the default baseline (knock 24 at four players). The table is that seat's
share of deals in which it loses a life, and its paired difference against t = 24 (negative:
better).
""")
code("""
T = [18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29]
rows = []
for seat in range(1, 5):
    res = sweep("thirty_one", {f"p{seat}.knock": T})
    est = res.table()
    for t in T:
        e = est[(est.metric == f"p{seat}_lose") & (est[f"p{seat}.knock"] == t)].iloc[0]
        d = paired(res, f"p{seat}_lose", {f"p{seat}.knock": t}, {f"p{seat}.knock": 24})
        rows.append({"seat": seat, "knock": t, "lose": e["mean"], "diff_vs_24": d["mean"],
                     "diff_se": d["se"]})
by_seat = pd.DataFrame(rows)
best_by_seat = by_seat.loc[by_seat.groupby("seat").lose.idxmin()].set_index("seat")
print("knock threshold by seat (best t, lose rate, paired diff vs 24 +- se):")
for s, r in best_by_seat.iterrows():
    print(f"  p{s}: t = {int(r.knock)}, lose {r.lose:.4f}, {r.diff_vs_24:+.4f} +- {r.diff_se:.4f}")
by_seat.pivot(index="knock", columns="seat", values="lose").round(4)
""")
code("""
fig, ax = plt.subplots(figsize=(7, 4))
for s, g in by_seat.groupby("seat"):
    ax.errorbar(g.knock, g.diff_vs_24, yerr=1.96 * g.diff_se, marker="o", capsize=3,
                label=f"p{s}" + (" (deals, plays last)" if s == 1 else ""))
ax.axhline(0, color="grey", lw=0.8)
ax.set_xlabel("knock threshold t"); ax.set_ylabel("lose(t) - lose(24), paired")
ax.set_title("The knock threshold by seat (95% intervals)"); ax.legend()
plt.show()
""")
md("""
## 2. Knocking at once after the deal

`knock_first` is the threshold on one's first turn. For p2 (who plays first) and p1 (the
dealer, who plays last): lose rate by `knock_first`, paired against the default 25.
""")
code("""
KF = [18, 20, 22, 24, 25, 26, 28, 30, 32]
rows = []
for seat in (2, 1):
    res = sweep("thirty_one", {f"p{seat}.knock_first": KF})
    for k in KF:
        d = paired(res, f"p{seat}_lose", {f"p{seat}.knock_first": k}, {f"p{seat}.knock_first": 25})
        rows.append({"seat": seat, "knock_first": k, "diff_vs_25": d["mean"], "se": d["se"]})
first = pd.DataFrame(rows)
for seat, g in first.groupby("seat"):
    b = g.loc[g.diff_vs_25.idxmin()]
    print(f"knock at once: p{seat}'s best knock_first = {int(b.knock_first)} "
          f"({b.diff_vs_25:+.4f} +- {b.se:.4f} against 25)")
first.pivot(index="knock_first", columns="seat", values="diff_vs_25").round(4)
""")
md("""
## 3. The threshold by lives left, in whole games

In a whole game (`unit=game`, four lives) p1's threshold moves by `per_life` per life already
lost (negative: knock earlier when in danger). p1's chance to be the last survivor, paired
against `per_life = 0`.
""")
code("""
PL = [-3, -2, -1, 0, 1, 2]
res = sweep("thirty_one(unit=game)", {"p1.per_life": PL})
rows = []
for x in PL:
    e = res.estimates(res.config_index({"p1.per_life": x}))["p1_win"]
    d = paired(res, "p1_win", {"p1.per_life": x}, {"p1.per_life": 0})
    rows.append({"per_life": x, "p1_win": e["mean"], "se": e["se"], "diff_vs_0": d["mean"],
                 "diff_se": d["se"]})
lives = pd.DataFrame(rows).set_index("per_life")
b = lives.diff_vs_0.idxmax()
print(f"by lives left: the best per_life = {b} (p1_win {lives.loc[b, 'p1_win']:.4f}, "
      f"{lives.loc[b, 'diff_vs_0']:+.4f} +- {lives.loc[b, 'diff_se']:.4f} against 0)")
lives.round(4)
""")
md("""
## 4. Survival by seat, 2 to 8 players

Whole games with the baseline on every seat; p1 deals the first deal, then the deal passes to
the left. The share of games each seat wins (is the last survivor), against 1/K.
""")
code("""
rows = []
for K in range(2, 9):
    est = simkit.run(f"thirty_one(players={K},unit=game)", n=NG, seed=SEED,
                     progress=False).estimates()
    for k in range(1, K + 1):
        e = est[f"p{k}_win"]
        rows.append({"players": K, "seat": k, "win": e["mean"], "se": e["se"],
                     "vs_fair": e["mean"] - 1 / K})
surv = pd.DataFrame(rows)
top = surv.loc[surv.vs_fair.abs().idxmax()]
print(f"survival by seat: largest departure from 1/K at {int(top.players)} players, "
      f"p{int(top.seat)}: {top.win:.4f} +- {top.se:.4f} (fair {1 / top.players:.4f})")
fig, ax = plt.subplots(figsize=(7, 4))
for K, g in surv.groupby("players"):
    ax.errorbar(g.seat, g.win * K, yerr=1.96 * g.se * K, marker="o", capsize=2, label=f"{K}")
ax.axhline(1, color="grey", lw=0.8)
ax.set_xlabel("seat (p1 deals first)"); ax.set_ylabel("win share x K (1 = fair)")
ax.set_title("Survival by seat"); ax.legend(title="players", ncol=4)
plt.show()
surv.pivot(index="seat", columns="players", values="win").round(3)
""")
md("""
## 5. The worth of refusing the first three

The dealer refuses his first three (lays them as the table and takes the next three, lines
23-26) when they are worth less than `refuse`; `refuse = 0` never refuses. His lose rate per
deal, paired against never refusing, and in whole games his survival.
""")
code("""
RF = [0, 12, 15, 17, 19, 20, 21, 22, 25, 32]
res = sweep("thirty_one", {"p1.refuse": RF})
rows = []
for r in RF:
    e = res.estimates(res.config_index({"p1.refuse": r}))
    d = paired(res, "p1_lose", {"p1.refuse": r}, {"p1.refuse": 0})
    rows.append({"refuse": r, "p1_lose": e["p1_lose"]["mean"], "refused": e["refused"]["mean"],
                 "diff_vs_never": d["mean"], "se": d["se"]})
refuse = pd.DataFrame(rows).set_index("refuse")
b = refuse.diff_vs_never.idxmin()
print(f"refusing the first three: best refuse = {b} (refuses {refuse.loc[b, 'refused']:.3f} of "
      f"deals), p1_lose {refuse.loc[b, 'diff_vs_never']:+.4f} +- {refuse.loc[b, 'se']:.4f} "
      f"against never refusing")
g = sweep("thirty_one(unit=game)", {"p1.refuse": sorted({0, int(b)})})
d = paired(g, "p1_win", {"p1.refuse": int(b)}, {"p1.refuse": 0})
print(f"in whole games: p1_win {d['mean']:+.4f} +- {d['se']:.4f} (refuse={b} against never)")
fig, ax = plt.subplots(figsize=(6, 3.5))
ax.errorbar(refuse.index, refuse.diff_vs_never, yerr=1.96 * refuse.se, marker="o", capsize=3)
ax.axhline(0, color="grey", lw=0.8)
ax.set_xlabel("refuse a first three worth less than"); ax.set_ylabel("p1_lose - never, paired")
plt.show()
refuse.round(4)
""")
md("""
## 6. What the numbers say
""")
code("""
print("seats: best knock thresholds " + ", ".join(f"p{s}: {int(r.knock)}" for s, r in best_by_seat.iterrows()))
print(f"the dealer's refusal threshold {b} changes his life-loss rate by "
      f"{refuse.loc[b, 'diff_vs_never']:+.4f} per deal against never refusing")
""")

nb = nbf.v4.new_notebook()
nb["cells"] = cells
nb["metadata"]["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
nbf.write(nb, __file__.replace("make_thirty_one_knock.py", "thirty_one_knock.ipynb"))
