"""Writes notebooks/oklahoma.ipynb (run: python notebooks/make_oklahoma.py).

Generated so that its code stays reviewable as plain Python; SIMKIT_NB_N sets the hands per
configuration (games are sized from it; CI runs it small).  Every conclusion is printed from the
numbers measured in the run, never typed in, and only where the interval excludes zero."""
import nbformat as nbf

#: what tests/test_notebooks.py checks when it runs the notebook with SIMKIT_NB_N=size: the
#: phrases its output prints and at least this many images
CHECK = {"size": "2e3", "images": 2, "phrases": [
    "pile take:", "points a hand against the baseline", "the baseline is left with the Q♠"]}

cells = []
md = lambda s: cells.append(nbf.v4.new_markdown_cell(s.strip()))  # noqa: E731
code = lambda s: cells.append(nbf.v4.new_code_cell(s.strip()))  # noqa: E731

md("""
# Oklahoma (Q♠ rummy): when to take the pile, and what the queen of spades costs

Rules: `shared/rules/003_25b072003b534ab4.txt`, lines 85-88 (readings in
`simkit.games.oklahoma.rules` and `shared/rules/READINGS-rummy.md` section 4): two decks and a
joker (105 cards), 13 cards each, deuces and the joker wild, the whole discard pile taken only to
meld its top card at once, the Q♠ never discarded unless it is the last card, worth 50 melded and
-100 in hand; going out 100, game to 1000. Two players, `baseline` against `baseline` unless said.
Every number has a 95% interval; comparisons are paired on the same deals, and a difference is
called only when its interval excludes zero.

1. the dealt hand, exactly (`simkit exact oklahoma`);
2. the pile-take threshold: how big must the pile be, and how much must it add;
3. the queen of spades: melding it at once, holding melds, and how often it is left in hand;
4. match odds in games to 1000.
""")
code("""
import math
import os

import matplotlib.pyplot as plt
plt.rcParams.update({"figure.constrained_layout.use": True, "font.size": 10})  # titles and labels inside the figure
import numpy as np
import pandas as pd

import simkit
from simkit.games.oklahoma import exact

N = int(float(os.environ.get("SIMKIT_NB_N", "4e4")))   # hands per configuration
NG = max(200, N // 20)                                 # games to 1000 per configuration
SEED = 2026
print(f"simkit {simkit.__version__}; n = {N:,} hands, {NG:,} games per configuration")


def paired(rows_a, rows_b, col):
    \"\"\"Mean of a - b over the same deals, its standard error and a verdict at 95%.\"\"\"
    d = rows_a[col].to_numpy(float) - rows_b[col].to_numpy(float)
    m, se = d.mean(), d.std(ddof=1) / math.sqrt(len(d))
    verdict = "resolved" if abs(m) > 1.96 * se else "not resolved"
    return m, se, verdict


def net(rows):
    return rows.assign(net=rows.p1_points - rows.p2_points)
""")
md("""
## 1. The dealt hand, exactly

Any seat's 13 cards of a shuffled 105-card pack, as exact fractions over six classes of cards that
line 87 values alike.
""")
code("""
pr = exact.probabilities()
for k in ("qs_held", "qs_both", "joker_held", "no_wild", "qs_without_wild", "wilds_mean", "value_mean"):
    print(f"{k:16s} {float(pr[k]):.6f}   ({pr[k]})" if pr[k].denominator < 10**6 else f"{k:16s} {float(pr[k]):.6f}")
wild = pd.Series({int(k[6:]): float(v) for k, v in pr.items() if k.startswith("wilds_") and k[6:].isdigit()})
value = pd.Series({int(k[6:]): float(v) for k, v in pr.items() if k.startswith("value_") and k[6:].isdigit()})
fig, ax = plt.subplots(1, 2, figsize=(10, 3))
ax[0].bar(wild.index, wild.values); ax[0].set_xlabel("wild cards dealt"); ax[0].set_ylabel("probability")
ax[1].plot(value.index, value.values); ax[1].set_xlabel("value in hand (line 87)")
ax[0].set_title("wild cards in a dealt hand"); ax[1].set_title("a dealt hand's value in hand")
plt.show()
""")
md("""
## 2. The pile-take threshold

p1 takes the pile only when it holds at least `pile_min` cards (and, in the second sweep, only
when the take raises its hand's worth by `pile_gain` points); p2 is the baseline (takes whenever
it pays at all). Per hand: p1's points minus p2's (`net`), paired against the baseline's own
setting on the same deals.
""")
code("""
base = net(simkit.run("oklahoma", n=N, seed=SEED, rows=True, progress=False).rows)
rows = []
for axis, values in [("pile_min", [1, 2, 3, 4, 6, 8]), ("pile_gain", [-20, 0, 10, 20, 40])]:
    for v in values:
        r = net(simkit.run("oklahoma", n=N, seed=SEED, rows=True, progress=False,
                           strategies=[f"p1=baseline({axis}={v})"]).rows)
        m, se, verdict = paired(r, base, "net")
        rows.append({"lever": axis, "value": v, "net": r.net.mean(), "vs_baseline": m, "se": se,
                     "verdict": verdict, "p1_takes": r.p1_takes.mean()})
take = pd.DataFrame(rows)
fig, ax = plt.subplots(1, 2, figsize=(10, 3))
for a, (lever, g) in zip(ax, take.groupby("lever")):
    a.errorbar(g["value"], g["vs_baseline"], yerr=1.96 * g["se"], marker="o")
    a.axhline(0, color="k", lw=0.5); a.set_xlabel(lever); a.set_ylabel("p1 net vs baseline (points/hand)")
    a.set_title(f"p1 baseline({lever}=...) against baseline")
plt.show()
take.round(3)
""")
code("""
for lever, g in take.groupby("lever"):
    best = g.loc[g["vs_baseline"].idxmax()]
    if best["verdict"] == "resolved" and best["vs_baseline"] > 0:
        print(f"pile take: {lever}={best['value']} beats the baseline by {best['vs_baseline']:+.2f} "
              f"+- {1.96 * best['se']:.2f} points a hand")
    else:
        print(f"pile take: no {lever} setting beats the baseline's at 95% (best {lever}="
              f"{best['value']}: {best['vs_baseline']:+.2f} +- {1.96 * best['se']:.2f}, not resolved)")
""")
md("""
## 3. The queen of spades

The Q♠ costs 100 in hand and earns 50 melded (line 87), and it cannot be thrown away (line 87).
The baseline melds everything at once; `hold=1` keeps melds until they let it go out in one turn
(giving the opponent nothing to read), with (`qs=1`) or without (`qs=0`) melding the Q♠ at once.
""")
code("""
rows = []
for s in ["baseline", "baseline(hold=1)", "baseline(hold=1,qs=0)", "baseline(joker=0)", "random"]:
    r = net(simkit.run("oklahoma", n=N, seed=SEED, rows=True, progress=False,
                       strategies=[f"p1={s}"]).rows)
    m, se, verdict = paired(r, base, "net")
    rows.append({"p1": s, "net": r.net.mean(), "vs_baseline": m, "se": se, "verdict": verdict,
                 "p1_qs_stuck": r.p1_qs_stuck.mean(), "p1_out": r.p1_out.mean()})
qs = pd.DataFrame(rows)
qs.round(4)
""")
code("""
for _, r in qs.iterrows():
    if r["p1"] == "baseline":
        continue
    word = ("better" if r["vs_baseline"] > 0 else "worse") if r["verdict"] == "resolved" else "not resolved"
    print(f"{r['p1']}: {r['vs_baseline']:+.2f} +- {1.96 * r['se']:.2f} points a hand against the "
          f"baseline ({word}); Q♠ left in hand in {r['p1_qs_stuck']:.3f} of hands")
print(f"the baseline is left with the Q♠ in {qs.loc[0, 'p1_qs_stuck']:.3f} of hands "
      f"(dealt it in {float(pr['qs_held']):.3f})")
""")
md("""
## 4. Match odds: games to 1000

Whole games (`unit=game`: hands until a player reaches 1000, 200 to the winner); p1 plays the
settings of section 2 against the baseline.
""")
code("""
od = simkit.odds("oklahoma", ["p1.pile_min=1,3,6"], strategies=["p2=baseline"], n=NG, seed=SEED,
                 progress=False)
ot = od.table()
print(od.summary if isinstance(od.summary, str) else "\\n".join(od.summary))
ot.round(4)
""")

nb = nbf.v4.new_notebook()
nb["cells"] = cells
nb["metadata"]["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
nbf.write(nb, __file__.replace("make_oklahoma.py", "oklahoma.ipynb"))
