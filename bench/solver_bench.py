"""Solver benchmark: Discovery 3..30, the Rainbow puzzles and Solitaire Quest.

Targets (issue 3): Discovery 3..20 within 10 s in total; Rainbow green, yellow, white and
blue solved; the 15-tile red pyramid within 60 s; Discovery 21..30: how far they get within
the stated per-puzzle budget.  Every solution found is verified with check_puzzle.

    python bench/solver_bench.py [--budget S] [--red-budget S] [--quick] [--tangle-budget S]
    python bench/solver_bench.py --tangle-only [--tangle-budget S]   # -> solver_tangle.json

Prints one line per puzzle and writes bench/results/solver.json.
"""
from __future__ import annotations

import argparse
import json
import platform
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tqdm import tqdm  # noqa: E402

from bench.outputs import write_json  # noqa: E402
from referee.puzzles import check_puzzle  # noqa: E402
from referee.solver import solve  # noqa: E402


def run(name: str, limit: float) -> dict:
    r = solve(name, time_limit=limit)
    ok = bool(r.board is not None and check_puzzle(name, r.board)["solved"])
    return {"puzzle": name, "status": r.status, "verified": ok, "seconds": round(r.seconds, 3),
            "nodes": r.nodes, "time_limit": limit}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=30.0,
                    help="seconds per puzzle for discovery-21..30 (default 30)")
    ap.add_argument("--red-budget", type=float, default=60.0, help="seconds for rainbow-red")
    ap.add_argument("--quick", action="store_true", help="skip discovery-21..30 and rainbow-red")
    ap.add_argument("--tangle-budget", type=float, default=0.0,
                    help="also try every Tangle puzzle for S seconds each (default 0: skip)")
    ap.add_argument("--tangle-only", action="store_true",
                    help="only the Tangle puzzles (budget --tangle-budget, default 60 s); "
                         "writes bench/results/solver_tangle.json")
    ap.add_argument("--out", default=None,
                    help="JSON file (default bench/results/solver.json or solver_tangle.json)")
    args = ap.parse_args(argv)
    if args.tangle_only and args.tangle_budget <= 0:
        args.tangle_budget = 60.0
    if args.out is None:
        args.out = str(ROOT / "bench" / "results"
                       / ("solver_tangle.json" if args.tangle_only else "solver.json"))

    plan = [] if args.tangle_only else [
        (f"discovery-{n}", 10.0, "discovery_3_20") for n in range(3, 21)]
    if not args.tangle_only:
        plan += [(f"rainbow-{c}", 60.0, "rainbow") for c in ("green", "yellow", "white", "blue")]
        plan += [("solitaire-quest", 60.0, "other")]
    if not args.quick and not args.tangle_only:
        plan += [("rainbow-red", args.red_budget, "rainbow")]
        plan += [(f"discovery-{n}", args.budget, "discovery_21_30") for n in range(21, 31)]
    if args.tangle_budget > 0:
        from referee.puzzles import puzzle_names

        plan += [(n, args.tangle_budget, "tangle") for n in puzzle_names() if n.startswith("tangle-")]
    rows = []
    for name, limit, group in tqdm(plan, file=sys.stderr, desc="solving"):
        row = run(name, limit)
        row["group"] = group
        rows.append(row)
        tqdm.write(f"{name:18} {row['status']:9} {row['seconds']:8.3f} s {row['nodes']:9d} nodes"
                   f"{'' if row['verified'] or row['status'] != 'solved' else '  NOT VERIFIED'}",
                   file=sys.stderr)
    d20 = [r for r in rows if r["group"] == "discovery_3_20"]
    far = [r for r in rows if r["group"] == "discovery_21_30"]
    summary = {
        "discovery_3_20_all_solved": all(r["verified"] for r in d20),
        "discovery_3_20_total_seconds": round(sum(r["seconds"] for r in d20), 3),
        "discovery_3_20_target_seconds": 10.0,
        "rainbow_solved": {r["puzzle"]: r["verified"] for r in rows if r["group"] == "rainbow"},
        "rainbow_red_seconds": next((r["seconds"] for r in rows if r["puzzle"] == "rainbow-red"), None),
        "discovery_21_30_budget_seconds": args.budget if far else None,
        "discovery_21_30_solved": [r["puzzle"] for r in far if r["verified"]],
        "discovery_21_30_unsolved": [r["puzzle"] for r in far if not r["verified"]],
    }
    if args.tangle_only:
        summary = {}
    if args.tangle_budget > 0:
        summary["tangle_budget_seconds"] = args.tangle_budget
        tangle = [r for r in rows if r["group"] == "tangle"]
        summary["tangle_solved"] = [r["puzzle"] for r in tangle if r["verified"]]
        summary["tangle_seconds"] = {r["puzzle"]: r["seconds"] for r in tangle if r["verified"]}
        summary["tangle_unsolved"] = {r["puzzle"]: r["status"] for r in tangle if not r["verified"]}
    out = {"summary": summary, "puzzles": rows,
           "machine": {"python": platform.python_version(), "platform": platform.platform()}}
    write_json(args.out, out)
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
