#!/usr/bin/env python3
"""Checks that an emulator library exports what the real library it stands in for exports.

One checker for the three emulator libraries; each library brings its expectation (a subcommand):

  rocshmem --manifest DIR    every host row the real library defines (manifest_rows.is_defined),
    [--device-coverage TSV]  plus the device-only functions the device API table marks generated/hand,
                             compared by qualified name AND parameter types (manifest types expanded
                             through their typedefs to what `nm -DC` prints), plus the header's extern
                             variables; the emulator-private C API rocshmem_emu_* is allowed; exact.
  rccl --header rccl.h       every `ncclResult_t|const char*|void ncclX(` declaration of rccl.h (the
                             pnccl* profiling twins and the deprecated msccl* functions are not part of
                             it); no other symbol may be exported at all.
  hip --declared FILE        every C-linkage function hip_runtime_api.h declares (one name a line) must
                             be exported; beyond them only the private rocshmem_emu_wi_* work-item ABI.

Common options: --lib, --nm. --reference LIB additionally checks a real library: its public exports
must cover the expectation (hip: the expectation shrinks to what the real library exports). An empty
--reference means "not available": exit 77 (ctest SKIP_RETURN_CODE). --self-test drops one expected
symbol and adds a bogus one, and passes only if exactly those two differences are reported (proof
that the check can fail).
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "twin"))
import manifest_rows as mf  # noqa: E402

SKIP = 77


def nm_lines(nm, lib, demangle=False):
    """(kind, symbol) of the defined dynamic symbols, version suffixes dropped."""
    flags = ["-DC" if demangle else "-D", "--defined-only"]
    out = subprocess.run([nm, *flags, lib], check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3:
            yield parts[1], parts[2] if demangle else parts[2].split("@")[0]


def split_top_level_commas(text):
    return mf.split_top_level(text, ",")


class Expectation:
    """What one library must export; subclasses say how the sets are read and compared."""
    exact = True       # no export beyond the expected set (and the allowed extras)
    bogus = "not_a_function"

    def expected(self, args):
        raise NotImplementedError

    def exported(self, nm, lib):
        """Exported function names (a set)."""
        raise NotImplementedError

    def extra_problems(self):
        """Problems beyond the function set, of the library read last."""
        return []

    def allowed_extra(self, name):
        return False

    def compare(self, expected, exported, exact=None):
        exact = self.exact if exact is None else exact
        problems = [f"missing: {n}" for n in sorted(expected - exported)]
        if exact:
            problems += [f"unexpected export: {n}" for n in sorted(exported - expected)
                         if not self.allowed_extra(n)]
        return problems

    def public(self, exported):
        """The real library's exports that the expectation speaks of."""
        return exported


class RocshmemExports(Expectation):
    bogus = "rocshmem::rocshmem_not_a_function(int)"
    PRIVATE_C_API = re.compile(r"^rocshmem_emu_[a-z0-9_]+$")
    VARIABLES = {
        "rocshmem::host::ROCSHMEM_TEAM_WORLD", "rocshmem::host::ROCSHMEM_TEAM_SHARED",
        "rocshmem::device::ROCSHMEM_TEAM_WORLD", "ROCSHMEM_TEAM_SHARED",  # device SHARED has C linkage
        "ROCSHMEM_CTX_DEFAULT", "rocshmem::ROCSHMEM_CTX_INVALID", "rocshmem::rocshmem_ctx_array",
    }
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

    def __init__(self):
        self.variables = set()

    def canonical_type(self, text):
        """'const float *' / 'float const*' -> 'float const*' with typedefs expanded."""
        t = " ".join(text.replace("*", " * ").split())
        stars = t.count("*")
        words = t.replace("*", "").split()
        const = "const" in words
        base = " ".join(w for w in words if w != "const")
        base = self.TYPEDEFS.get(base, base)
        if base.endswith("*"):  # pointer typedef
            stars += base.count("*")
            base = base.replace("*", "").strip()
        return f"{base}{' const' if const and stars else ''}{'*' * stars}"

    def expected(self, args):
        expected = self.device_functions(args.device_coverage) if args.device_coverage else set()
        for row in mf.defined_host_rows(args.manifest):
            if mf.has_flag(row, mf.C_LINKAGE_FLAG):
                expected.add(row["name"])  # C linkage: no parameter types in the symbol
                continue
            types = [self.canonical_type(mf.param_type_and_name(p)[0]) for p in mf.params(row)]
            expected.add(f"rocshmem::{row['name']}({', '.join(types)})")
        return expected

    @staticmethod
    def device_functions(coverage):
        """Device-only functions the library defines (device-coverage.tsv of gen_device_api.py): on a GPU
        they live in device code, here they are host functions of this library. Rows marked `host` are
        host rows already."""
        import csv
        with open(coverage, newline="") as f:
            return {r["symbol"] for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
                    if r["status"] in ("generated", "hand")}

    def exported(self, nm, lib):
        functions = set()
        self.variables = set()
        for kind, sym in nm_lines(nm, lib, demangle=True):
            if kind in "TW" and "(" in sym:
                name, params = sym.split("(", 1)
                params = params.rsplit(")", 1)[0]
                canon = [self.canonical_type(p) for p in split_top_level_commas(params)] if params != "void" else []
                functions.add(f"{name}({', '.join(canon)})")
            elif kind in "TW":
                functions.add(sym)
            else:
                self.variables.add(sym)
        return functions

    def allowed_extra(self, name):
        return bool(self.PRIVATE_C_API.match(name))

    def extra_problems(self):
        return [f"missing variable: {v}" for v in sorted(self.VARIABLES - self.variables)] + \
               [f"unexpected variable: {v}" for v in sorted(self.variables - self.VARIABLES)]


class RcclExports(Expectation):
    bogus = "ncclNotAFunction"
    DECLARATION = re.compile(r"^\s*(?:ncclResult_t|const\s+char\s*\*|void)\s*(nccl[A-Za-z0-9_]*)\s*\(", re.M)

    def expected(self, args):
        with open(args.header) as f:
            declared = set(self.DECLARATION.findall(f.read()))
        if len(declared) < 40:
            raise SystemExit(f"only {len(declared)} nccl* declarations found in {args.header}: wrong header?")
        return declared

    def exported(self, nm, lib):
        return {sym for kind, sym in nm_lines(nm, lib) if kind in "TWiDBRV"}

    def public(self, exported):
        return {n for n in exported if n.startswith("nccl")}  # it also exports msccl*/rccl* internals


class HipExports(Expectation):
    exact = False  # the real libamdhip64 exports far more than its header declares
    bogus = "hipNotAFunction"
    PRIVATE_PREFIX = "rocshmem_emu_wi_"  # the kernel engine's work-item ABI (rocshmem/emu/kernel)

    def __init__(self):
        self.declared, self.ours = set(), set()

    def expected(self, args):
        with open(args.declared, encoding="utf-8") as f:
            self.declared = {line.strip() for line in f if line.strip()}
        return set(self.declared)

    def exported(self, nm, lib):
        names = {sym for kind, sym in nm_lines(nm, lib) if kind in "TWi"}
        if not self.ours:
            self.ours = names  # the emulator's library is read first
        return names

    def extra_problems(self):
        """A function beyond the header must carry the documented private prefix."""
        return [f"undocumented export: {n}" for n in sorted(self.ours - self.declared)
                if not n.startswith(self.PRIVATE_PREFIX)]


LIBRARIES = {"rocshmem": RocshmemExports, "rccl": RcclExports, "hip": HipExports}


def self_test(expectation, expected, exported):
    """An exact check must report a dropped and a bogus symbol; a covering one the bogus symbol."""
    dropped = sorted(expected & exported)[0] if expectation.exact else None
    problems = expectation.compare((expected - {dropped}) | {expectation.bogus}, exported)
    want = {f"missing: {expectation.bogus}"} | ({f"unexpected export: {dropped}"} if dropped else set())
    if set(problems) != want:
        print("self-test FAILED: expected exactly", sorted(want), "got", problems)
        return 1
    print("self-test ok: the comparison reports " + ("a missing and an extra symbol" if dropped else "a missing symbol"))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("library", choices=sorted(LIBRARIES))
    ap.add_argument("--lib", required=True)
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--manifest", help="rocshmem: the manifest directory")
    ap.add_argument("--device-coverage", help="rocshmem: device-coverage.tsv, whose generated/hand rows are expected too")
    ap.add_argument("--header", help="rccl: rccl.h")
    ap.add_argument("--declared", help="hip: the declared C-linkage function names, one a line")
    ap.add_argument("--reference")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    expectation = LIBRARIES[args.library]()
    expected = expectation.expected(args)
    exported = expectation.exported(args.nm, args.lib)
    if args.self_test:
        return self_test(expectation, expected, exported)
    if args.reference == "":
        print(f"no real {args.library} library to compare with; skipped")
        return SKIP
    problems = expectation.extra_problems()
    if args.reference is not None:
        real = expectation.exported(args.nm, args.reference)
        print(f"real library exports {len(expectation.public(real))} public functions")
        if expectation.exact:
            problems += [f"real library: {p}" for p in expectation.compare(expected, expectation.public(real))]
        else:
            print(f"declared but not exported by the real library: {', '.join(sorted(expected - real)) or '-'}")
            expected &= real
    problems = expectation.compare(expected, exported) + problems
    for p in problems:
        print(p)
    print(f"{args.library}: {len(expected)} functions expected; {len(exported)} exported by {args.lib}; "
          f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
