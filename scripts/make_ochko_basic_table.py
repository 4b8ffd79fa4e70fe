"""Write simkit/games/ochko/policies/basic.csv, the ``table`` strategy's default policy.

It is the exact composition-dependent best play of one player against the default banker
(``exact.best_play("ochko", upcard=False)``), reduced to a (total, cards) table: hit wherever
the best play hits at least half of the probability with which it reaches that (total, cards).
Pairs the best play never reaches stand (unlisted).
"""
import os

from simkit.games.ochko import exact

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "simkit", "games", "ochko",
                   "policies", "basic.csv")

if __name__ == "__main__":
    best = exact.best_play("ochko", upcard=False)
    pol = best["policy"]
    pol = pol.assign(hit=(pol["hit_share"] >= 0.5).astype(int))[["total", "cards", "hit"]]
    pol = pol[pol["total"] < 21].sort_values(["cards", "total"])
    pol.to_csv(OUT, index=False)
    print(f"{OUT}: {len(pol)} pairs, best play p1_result {best['p1_result']:.6f}")
