#!/usr/bin/env python3
"""Checks that librocshmem_cpu_emu.so exports exactly what the real rocSHMEM library defines.

Expected functions: every row of host-functions.tsv without the flag
`no-host-definition-seen-in-src/rocshmem.cpp`, compared by qualified name AND parameter types
(manifest types are expanded through their typedefs to what `nm -DC` prints).
Expected data: the header's extern variables (host shadows of the device globals).
Allowed extra: the emulator-private C API `rocshmem_emu_*`. Anything else is an error.
Device functions (--device-coverage, the table of device/gen_device_api.py): on a GPU they live
in device code, here they are host functions of this library, so every row the table marks
`generated` or `hand` is expected as well (rows marked `host` are host rows already).

--self-test drops one expected row and adds a bogus one, and passes only if the comparison
reports exactly those two differences (proof that the check can fail).
"""
import argparse
import csv
import re
import subprocess
import sys

NOT_DEFINED_FLAG = "no-host-definition-seen-in-src/rocshmem.cpp"

EXPECTED_VARIABLES = {
    "rocshmem::host::ROCSHMEM_TEAM_WORLD", "rocshmem::host::ROCSHMEM_TEAM_SHARED",
    "rocshmem::device::ROCSHMEM_TEAM_WORLD", "ROCSHMEM_TEAM_SHARED",  # device SHARED has C linkage
    "ROCSHMEM_CTX_DEFAULT", "rocshmem::ROCSHMEM_CTX_INVALID", "rocshmem::rocshmem_ctx_array",
}
PRIVATE_C_API = re.compile(r"^rocshmem_emu_[a-z0-9_]+$")

# Manifest spelling -> what the demangler prints (LP64, g++).
TYPEDEFS = {
    "size_t": "unsigned long", "ptrdiff_t": "long", "unsigned": "unsigned int",
    "int8_t": "signed char", "int16_t": "short", "int32_t": "int", "int64_t": "long",
    "uint8_t": "unsigned char", "uint16_t": "unsigned short", "uint32_t": "unsigned int",
    "uint64_t": "unsigned long", "rocshmem_ctx_t": "rocshmem::rocshmem_ctx",
    "rocshmem_team_t": "unsigned long*", "hipStream_t": "ihipStream_t*",
    "hipModule_t": "ihipModule_t*", "MPI_Comm": "ompi_communicator_t*",
    "rocshmem_uniqueid_t": "std::array<unsigned char, 128ul>",
    "rocshmem_init_attr_t": "rocshmem::rocshmem_init_attr_t",
    "rocshmem_team_config_t": "rocshmem::rocshmem_team_config_t",
    "QpInfo": "rocshmem::QpInfo", "short int": "short", "long int": "long",
}


def canonical_type(text):
    """'const float *' / 'float const*' -> 'float const*' with typedefs expanded."""
    t = " ".join(text.replace("*", " * ").split())
    stars = t.count("*")
    t = t.replace("*", "").strip()
    const = False
    words = t.split()
    if "const" in words:
        const = True
        words = [w for w in words if w != "const"]
    base = " ".join(words)
    base = TYPEDEFS.get(base, base)
    if base.endswith("*"):  # pointer typedef
        stars += base.count("*")
        base = base.replace("*", "").strip()
    return f"{base}{' const' if const and stars else ''}{'*' * stars}"


def split_demangled_params(text):
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def expected_functions(manifest):
    expected = set()
    with open(manifest, newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if NOT_DEFINED_FLAG in row["flags"]:
                continue
            name = row["name"]
            if 'extern "C"' in row["flags"]:
                expected.add(name)  # C linkage: no parameter types in the symbol
                continue
            params = []
            for p in filter(None, (x.strip() for x in row["params"].split(";"))):
                p = p.split("=")[0].strip()
                m = re.match(r"^(.*?)[A-Za-z_][A-Za-z0-9_]*$", p)
                params.append(canonical_type(m.group(1)))
            expected.add(f"rocshmem::{name}({', '.join(params)})")
    return expected


def device_functions(coverage):
    """Symbols of the device-only functions the library defines (device-coverage.tsv)."""
    with open(coverage, newline="") as f:
        return {r["symbol"] for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
                if r["status"] in ("generated", "hand")}


def exported(lib, nm):
    out = subprocess.run([nm, "-DC", "--defined-only", lib], check=True, capture_output=True, text=True).stdout
    functions, variables = set(), set()
    for line in out.splitlines():
        parts = line.split(" ", 2)
        if len(parts) != 3:
            continue
        kind, sym = parts[1], parts[2]
        if kind in "TW" and "(" in sym:
            name, params = sym.split("(", 1)
            params = params.rsplit(")", 1)[0]
            canon = [canonical_type(p) for p in split_demangled_params(params)] if params != "void" else []
            functions.add(f"{name}({', '.join(canon)})")
        elif kind in "TW":
            functions.add(sym)
        else:
            variables.add(sym)
    return functions, variables


def compare(expected, functions, variables):
    problems = []
    private = {f for f in functions if PRIVATE_C_API.match(f)}
    for f in sorted(expected - functions):
        problems.append(f"missing function: {f}")
    for f in sorted(functions - expected - private):
        problems.append(f"unexpected export: {f}")
    for v in sorted(EXPECTED_VARIABLES - variables):
        problems.append(f"missing variable: {v}")
    for v in sorted(variables - EXPECTED_VARIABLES):
        problems.append(f"unexpected variable: {v}")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--device-coverage", help="device-coverage.tsv of gen_device_api.py")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    expected = expected_functions(args.manifest)
    host_expected = len(expected)
    if args.device_coverage:
        expected |= device_functions(args.device_coverage)
    functions, variables = exported(args.lib, args.nm)
    if args.self_test:
        dropped = sorted(expected)[0]
        bogus = "rocshmem::rocshmem_not_a_function(int)"
        problems = compare((expected - {dropped}) | {bogus}, functions, variables)
        want = {f"missing function: {bogus}", f"unexpected export: {dropped}"}
        if set(problems) != want:
            print("self-test FAILED: expected exactly", sorted(want), "got", problems)
            return 1
        print("self-test ok: the comparison reports a missing and an extra symbol")
        return 0
    problems = compare(expected, functions, variables)
    for p in problems:
        print(p)
    print(f"{host_expected} manifest-defined host functions and {len(expected) - host_expected} device functions "
          f"expected; {len(functions)} functions and "
          f"{len(variables)} variables exported; {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
