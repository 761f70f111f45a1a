#!/usr/bin/env python3
"""Checks that a library exports exactly the public nccl* functions rccl.h declares.

The expected set is read from the header: every `ncclResult_t|const char*|void ncclX(` declaration
(the pnccl* profiling twins and the deprecated msccl* functions are not part of it). The library's
dynamic symbol table (nm -D --defined-only) must hold exactly those nccl* names; for the emulator
(--exact) no other symbol may be exported at all.

--reference LIB additionally checks a real librccl: its nccl* exports must be the same set (it also
exports msccl*/rccl* internals, which are not compared). An empty --reference means "not available":
exit 77 (ctest SKIP_RETURN_CODE).

--self-test drops one expected name and adds a bogus one, and passes only if exactly those two
differences are reported (proof that the check can fail).
"""
import argparse
import re
import subprocess
import sys

DECLARATION = re.compile(r"^\s*(?:ncclResult_t|const\s+char\s*\*|void)\s*(nccl[A-Za-z0-9_]*)\s*\(", re.M)


def declared(header):
    with open(header) as f:
        return set(DECLARATION.findall(f.read()))


def exported(lib, nm):
    out = subprocess.run([nm, "-D", "--defined-only", lib], check=True, capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TWiDBRV":
            names.add(parts[2].split("@")[0])
    return names


def compare(expected, names, exact):
    problems = [f"missing: {n}" for n in sorted(expected - names)]
    extra = names - expected if exact else {n for n in names if n.startswith("nccl")} - expected
    problems += [f"unexpected export: {n}" for n in sorted(extra)]
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--header", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--reference")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    expected = declared(args.header)
    if len(expected) < 40:
        print(f"only {len(expected)} nccl* declarations found in {args.header}: wrong header?")
        return 1
    names = exported(args.lib, args.nm)
    if args.self_test:
        dropped = sorted(expected)[0]
        bogus = "ncclNotAFunction"
        problems = compare((expected - {dropped}) | {bogus}, names, exact=True)
        want = {f"missing: {bogus}", f"unexpected export: {dropped}"}
        if set(problems) != want:
            print("self-test FAILED: expected exactly", sorted(want), "got", problems)
            return 1
        print("self-test ok: the comparison reports a missing and an extra symbol")
        return 0
    problems = compare(expected, names, exact=True)
    if args.reference is not None:
        if not args.reference:
            print("no real librccl to compare with (built by the real variant: cppbuild/debian-rccl); skipped")
            return 77
        real = exported(args.reference, args.nm)
        problems += [f"real library: {p}" for p in compare(expected, real, exact=False)]
        real_public = {n for n in real if n.startswith("nccl")}
        print(f"real library exports {len(real_public)} nccl* functions")
    for p in problems:
        print(p)
    print(f"{len(expected)} nccl* functions declared by rccl.h; {len(names)} symbols exported by "
          f"{args.lib}; {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
