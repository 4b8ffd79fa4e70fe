"""Writes notebooks/thirty_one_bank.ipynb (run: python notebooks/make_thirty_one_bank.py).

The notebook is generated so that its code stays reviewable as plain Python; its size is set
by SIMKIT_NB_N (rounds per simulated configuration; CI runs it small, and then narrows the exact
grids too)."""
import nbformat as nbf

#: what tests/test_notebooks.py checks when it runs the notebook with SIMKIT_NB_N=size: the
#: phrases its output prints and at least this many images
CHECK = {"size": "2e4", "images": 1, "phrases": [
    "the bank's best threshold against the punter's best reply",
    "counting (count q=0.46) gains the punter", "line 97:"]}

cells = []
md = lambda s: cells.append(nbf.v4.new_markdown_cell(s.strip()))  # noqa: E731
code = lambda s: cells.append(nbf.v4.new_code_cell(s.strip()))  # noqa: E731

md("""
# «31» with a bank: the banker's threshold, the talia, and the worth of counting

The banker game of `shared/rules/002_17c4cc3dde05b547.txt` (lines 84-98): three cards to every
punter and to the banker, an ace 1 or 11, pictures 10; a dealt 31 is paid at once, over 31 pays
the banker 2, the banker draws or stands, lower punters pay 2 and higher ones receive 2. The text
does not say where the banker stops. We ask the Очко question for this game: which threshold is
best for the bank against punters who answer with their own best threshold? Then the bank's edge
per round and per *talia* (dealing through one pack round after round, lines 95-96), what
counting the spent cards is worth, and the text's remark of line 97. Exact numbers come from a
recursion over the pack's composition (one punter against the banker), the rest from simulation
with 95% intervals; every number is computed here.
""")
code("""
import os, time
import numpy as np
import pandas as pd
import simkit
from simkit import plots
from simkit.games.thirty_one_bank import exact as X

N = int(float(os.environ.get("SIMKIT_NB_N", "1e6")))   # rounds per simulated configuration
SEED = 2026
SMALL = N < 200_000                                       # CI: narrower exact grids
BANKERS = [27, 28] if SMALL else list(range(22, 32))
T_RANGE = [24, 25] if SMALL else list(range(21, 31))
SOFT_RANGE = [28] if SMALL else list(range(24, 32))
print(f"simkit {simkit.__version__}; n = {N:,} rounds per configuration; banker thresholds {BANKERS}")
""")
md("""
## 1. The banker's threshold against the punter's best reply (exact)

For every banker threshold (he draws while his best total is below it) the exact `p1_result` of
every punter `stand_at(t, soft)` (buy while a hard total is below t, a soft one below soft). The
punter's best pair is his reply; the bank picks the threshold whose edge against that reply is
largest (minimax). A narrowed punter range (as in a small run) can only overstate the bank's
edge at the other thresholds.
""")
code("""
t0 = time.perf_counter()
g = X.grid("thirty_one_bank", BANKERS, T_RANGE, SOFT_RANGE)
print(f"exact grid of {len(g)} cells in {time.perf_counter() - t0:.1f} s")
replies = g[g.best_reply].set_index("banker_stand")[["t", "soft", "p1_result", "bank_result"]]
bb = X.bank_best_threshold(g)
replies.round(4)
""")
code("""
tidy_grid = X.tidy(g[g.soft == bb["reply_soft"]].drop(columns="best_reply"),
                   simkit.parse_game("thirty_one_bank")[1], "p1=stand_at(t,soft)", "exact",
                   grid_cols=("banker_stand", "t", "soft"))
plots.heatmap(tidy_grid, "bank_result", x="t", y="banker_stand")
""")
code("""
print(f"the bank's best threshold against the punter's best reply is banker_stand={bb['banker_stand']}: "
      f"edge {bb['bank_result']:.4f} tokens a round against stand_at({bb['reply_t']},{bb['reply_soft']})")
""")
md("""
## 2. The bank's edge per round and per talia (simulation)

With the default banker (27) and punters playing the best reply from a fresh pack, the bank's
result per round (fresh pack each round) and per talia (one pack dealt through, the spent cards
shuffled back in if it runs out mid-round), for one, three and seven punters (seven on three
packs, line 90).
""")
code("""
rows = []
for k, decks in [(1, 1), (3, 1), (7, 3)]:
    for unit in ["round", "talia"]:
        n = N if unit == "round" else max(N // 10, 2000)
        r = simkit.run(f"thirty_one_bank(punters={k},decks={decks},unit={unit})", n=n, seed=SEED,
                       progress=False)
        t = r.table().set_index("metric")
        rows.append({"punters": k, "decks": decks, "unit": unit, "n": n,
                     "bank_result": t.loc["bank_result", "mean"], "se": t.loc["bank_result", "se"],
                     "rounds": t.loc["rounds", "mean"],
                     "per_punter_round": t.loc["bank_result", "mean"] / k / t.loc["rounds", "mean"]})
edge = pd.DataFrame(rows)
edge.round(4)
""")
code("""
one = edge[(edge.punters == 1) & (edge.unit == "round")].iloc[0]
print(f"exact edge per round (one punter) {X.evaluate('thirty_one_bank')['bank_result']:.4f}; "
      f"simulated {one.bank_result:.4f} +- {one.se:.4f}")
""")
md("""
## 3. The worth of counting over a talia

In a talia the cards of finished rounds have been shown, so a punter knows what is left. The
`count(q, soft)` punter buys a hard hand while the chance that the next card takes him over 31
(from the unseen cards) is below q (0.46, its exact best from a fresh pack). Paired on the same
talias against the fixed `stand_at(25,28)`. Then, exactly: for the rounds of a few simulated
talias, the value of the fixed threshold and of the best `stand_at` for that round's pack (a
counter who knows the best threshold for every composition), for packs of 20 cards or more.
""")
code("""
NT = max(N // 10, 2000)
cnt = []
for k, decks in [(1, 1), (3, 1), (7, 3)]:
    g_ = f"thirty_one_bank(unit=talia,punters={k},decks={decks})"
    a = simkit.run(g_, n=NT, seed=SEED, rows=True, progress=False)
    b = simkit.run(g_, n=NT, seed=SEED, rows=True, progress=False, strategies=["p1=count"])
    d = b.rows["p1_result"].to_numpy() - a.rows["p1_result"].to_numpy()
    cnt.append({"punters": k, "decks": decks, "fixed": a.rows["p1_result"].mean(),
                "count": b.rows["p1_result"].mean(), "gain_per_talia": d.mean(),
                "se": d.std() / np.sqrt(d.size), "rounds": a.rows["rounds"].mean()})
counting = pd.DataFrame(cnt)
counting.round(4)
""")
code("""
TAL = 1 if SMALL else 30
t0 = time.perf_counter()
tc = X.talia_counting("thirty_one_bank(unit=talia)", talias=TAL, seed=SEED,
                      t_range=range(23, 26) if SMALL else range(21, 28),
                      soft_range=[28] if SMALL else range(27, 30))
print(f"{TAL} talias, {int(tc.exact.sum())} rounds evaluated exactly in {time.perf_counter() - t0:.1f} s")
by_round = tc[tc.exact].groupby("round")[["cards_left", "fixed", "best", "gain"]].mean()
by_round.round(4)
""")
md("""
## 4. The remark of line 97

"With 26 or 27 a punter gains nothing by buying another card, since the banker, who cannot stay
with small points, risks going over." Exactly, for every dealt three-card hand of 26 or 27 (fresh
pack, default banker): the value of standing, of buying exactly one card, and of buying one and
playing on by the best threshold.
""")
code("""
rem = X.remark_97("thirty_one_bank", t=25, soft=28)
rem.round(4)
""")
md("""
## 5. What the numbers say
""")
code("""
hard, soft = rem[~rem.soft], rem[rem.soft]
c1 = counting.iloc[0]
print(f"1. the bank's best threshold against the punter's best reply: banker_stand={bb['banker_stand']} "
      f"(edge {bb['bank_result']:.4f} tokens a round; the punter answers stand_at({bb['reply_t']},"
      f"{bb['reply_soft']})).")
print(f"2. one punter, per talia ({c1.rounds:.2f} rounds): the bank makes "
      f"{-c1.fixed:.3f} tokens; counting (count q=0.46) gains the punter {c1.gain_per_talia:+.3f} "
      f"+- {c1.se:.3f} tokens a talia.")
if tc.exact.any():
    print(f"3. exact, the counter who knows each pack's best threshold gains {tc.gain.mean():+.4f} "
          f"tokens a round on average over the rounds evaluated (from {tc.gain.min():+.4f} to "
          f"{tc.gain.max():+.4f}).")
print(f"4. line 97: buying on a hard 26 or 27 loses for all {len(hard)} hands (by "
      f"{-hard.gain_one.max():.3f} to {-hard.gain_one.min():.3f} tokens); on a soft 26 or 27, "
      f"which cannot go over on the next card, buying gains {soft.gain_one.min():.3f} to "
      f"{soft.gain_one.max():.3f}: the remark holds for hard hands only.")
""")

nb = nbf.v4.new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3",
                                                                "display_name": "Python 3",
                                                                "language": "python"}})
nbf.write(nb, __file__.replace("make_thirty_one_bank.py", "thirty_one_bank.ipynb"))
