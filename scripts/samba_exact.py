"""Exact Samba meldT / take_first_pile at one threshold by exact_seq.seq_odds_at (the wild cards
fixed, one absorbing YES state).  Usage: python scripts/samba_exact.py HAND T [take] [bolivia]
(``bolivia``: Bolivia's and Brazilian's lay, a wild-card meld of 3-7)."""
import sys
import time

sys.path.insert(0, ".")
from simkit.games.canasta import exact_seq as S  # noqa: E402

VALUES = (5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 20)


def main(hand, T, take, wild_meld=0):
    pack = S.SeqPack(VALUES, 4, 3, 6, 12, 6, max_wild=2, wild_meld=wild_meld)
    t0 = time.time()
    x = S.seq_odds_at(pack, hand, T, take, verbose=True)
    name = "take_first_pile" if take else f"meld{T}"
    print(f"hand={hand} {name} = {x} = {float(x):.6f}  {time.time() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), "take" in sys.argv[3:], 7 * ("bolivia" in sys.argv[3:]))
