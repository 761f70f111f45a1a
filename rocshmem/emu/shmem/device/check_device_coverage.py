#!/usr/bin/env python3
"""Device API coverage: every row of device-functions.tsv is covered by the emulator or listed
with a reason, and every covered function or variable is exported by the library.

Reads the manifest and the generator's table (device-coverage.tsv from gen_device_api.py),
prints `device coverage: covered/declared` and fails on
  - a manifest row without a table row (or a table row without a manifest row),
  - an `exception` row without a reason,
  - a covered row whose symbol `nm -DC` does not show in the library.
--self-test removes one table row and one exported symbol (in memory) and passes only if both
are reported (proof that the check can fail).
"""
import argparse
import csv
import os
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "twin"))
sys.path.insert(0, os.path.join(HERE, ".."))
import manifest_rows as mf  # noqa: E402
from check_exports import exported  # noqa: E402

COVERED = {"host", "generated", "hand", "header", "variable"}


def manifest_keys(manifest_dir):
    return [(r["name"], ", ".join(mf.normal_param_types(mf.params(r)))) for r in mf.device_rows(manifest_dir)]


def load_table(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def problems_of(keys, table, functions, variables):
    problems = []
    by_key = {}
    for row in table:
        by_key.setdefault((row["name"], row["params"]), []).append(row)
    wanted = {}
    for key in keys:
        wanted[key] = wanted.get(key, 0) + 1
    for key, n in wanted.items():
        have = by_key.get(key, [])
        if len(have) != n:
            problems.append(f"manifest row {key[0]}({key[1]}) x{n} has {len(have)} coverage row(s)")
    for key in by_key:
        if key not in wanted:
            problems.append(f"coverage row {key[0]}({key[1]}) matches no manifest row")
    for row in table:
        if row["status"] == "exception" and len(row["detail"].strip()) < 10:
            problems.append(f"{row['name']}: left out without a reason")
        elif row["status"] not in COVERED | {"exception"}:
            problems.append(f"{row['name']}: unknown status {row['status']!r}")
        elif row["status"] in COVERED and row["symbol"] != "-" and row["symbol"] not in functions | variables:
            problems.append(f"{row['name']}: covered as {row['status']} but {row['symbol']} is not exported")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--coverage", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    keys = manifest_keys(args.manifest)
    table = load_table(args.coverage)
    functions, variables = exported(args.lib, args.nm)
    if args.self_test:
        dropped = table[len(table) // 2]
        victim = next(r for r in table if r["status"] == "generated" and r is not dropped)
        problems = problems_of(keys, [r for r in table if r is not dropped], functions - {victim["symbol"]}, variables)
        want_missing = f"manifest row {dropped['name']}({dropped['params']})"
        want_export = f"{victim['name']}: covered as generated"
        ok = any(p.startswith(want_missing) for p in problems) and any(p.startswith(want_export) for p in problems)
        print("self-test", "ok: a missing row and a missing export are reported" if ok else f"FAILED: {problems}")
        return 0 if ok else 1
    problems = problems_of(keys, table, functions, variables)
    for p in problems:
        print(p)
    covered = sum(1 for r in table if r["status"] in COVERED)
    counts = {}
    for r in table:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    print(f"device coverage: {covered}/{len(keys)}")
    print("by status: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    for reason in sorted({r["detail"] for r in table if r["status"] == "exception"}):
        names = [r["name"] for r in table if r["status"] == "exception" and r["detail"] == reason]
        print(f"left out ({len(names)}): {reason} [{names[0]}{', ...' if len(names) > 1 else ''}]")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
