"""scripts/perf_numba.py's name reader (the profile itself needs perf and is run by hand)."""
import importlib.util
import pathlib

spec = importlib.util.spec_from_file_location(
    "perf_numba", pathlib.Path(__file__).parents[1] / "scripts" / "perf_numba.py")
P = importlib.util.module_from_spec(spec)
spec.loader.exec_module(P)


def test_demangle_numba_names():
    # names as numba 0.68 mangles them: nested name, ABI tags (B<len><tag>), then the arguments
    raw = ("_ZN6simkit5games8oklahoma6engine9play_handB3v19B48c8tJTIeFIjxB2IKSgI4CrvSCKg1MMYiAh"
           "icRsBpNAA_3d_3dE265Table_28int64")
    assert P._demangle(raw) == "simkit.games.oklahoma.engine.play_hand"
    assert P._demangle("_ZN5numba7cpython7unicode4hashB2v3E") == "numba.cpython.unicode.hash"
    assert P._demangle("NRT_incref") == "NRT_incref"
