#!/usr/bin/env python3
"""twin == manifest, declaration side: nothing is declared that the manifest does not list, and
nothing the manifest lists is missing.

Preprocesses the twin's rocshmem.hpp (plus api_trace.h and qp_introspect.hpp) the way a host-only
parse sees it (g++ -E -P, __device__ etc. empty), once without and once with MPI_VERSION, takes the
text after a marker (so HIP's own declarations are left out), extracts every function declared at
namespace scope and compares (qualified name, return type, parameter types) with
host rows + device function rows of the manifest. Also checks a few facts of the preprocessed text.

--self-test perturbs one manifest row in memory and passes only if the comparison then reports it.
"""
import argparse
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import manifest_rows as mf  # noqa: E402

MARKER = "int rocshmem_twin_check_marker_begin;"
SPECIFIERS = {"extern", "static", "inline", "constexpr", "virtual", "explicit", "friend"}
INCLUDED_HEADERS = {"rocshmem.hpp", "rocshmem_common.hpp", "rocshmem_RMA.hpp", "rocshmem_AMO.hpp",
                    "rocshmem_SIG_OP.hpp", "rocshmem_COLL.hpp", "rocshmem_P2P_SYNC.hpp",
                    "rocshmem_RMA_X.hpp", "rocshmem_TILE.hpp", "api_trace.h", "qp_introspect.hpp"}
# Facts of the preprocessed text (types.tsv / constants.tsv, and the declarations of rocshmem_common.hpp
# at the commits listed in manifest/version.txt), as regexes.
PREPROCESSED_FACTS = {
    "ROCSHMEM_TEAM_INVALID is a const rocshmem_team_t equal to nullptr":
        r"\bconst rocshmem_team_t ROCSHMEM_TEAM_INVALID = nullptr;",
    "host::ROCSHMEM_TEAM_WORLD / _SHARED are plain extern rocshmem_team_t":
        r"namespace host \{\s*extern rocshmem_team_t ROCSHMEM_TEAM_WORLD;\s*"
        r"extern rocshmem_team_t ROCSHMEM_TEAM_SHARED;\s*\}",
    "a host-only compile imports the host team handles into rocshmem":
        r"using host::ROCSHMEM_TEAM_WORLD;\s*using host::ROCSHMEM_TEAM_SHARED;",
    "ROCSHMEM_CTX_DEFAULT is an extern \"C\" variable with default visibility":
        r'extern "C" __attribute__\(\(visibility\("default"\)\)\) rocshmem_ctx_t ROCSHMEM_CTX_DEFAULT;',
    "rocshmem_uniqueid_t is std::array<uint8_t, 128>":
        r"using rocshmem_uniqueid_t = std::array<uint8_t, 128>;",
    "rocshmem_hipmodule_init defaults its stream to nullptr":
        r"int rocshmem_hipmodule_init\(hipModule_t module, hipStream_t stream = nullptr\);",
    "ATTR_NO_INLINE is empty without USE_FUNC_CALL (reduce_on_stream has no marker left)":
        r"\n\s*int rocshmem_ctx_float_sum_reduce_on_stream\(",
}
_TOKEN = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|::|\[\[|\]\]|[A-Za-z_]\w*|\d[\w.]*|\S')


def preprocess(compiler, include_dirs, with_mpi):
    prelude = ["#include <hip/hip_runtime.h>", '#include <rocshmem/twin_16bit_types.h>']
    if with_mpi:
        prelude += ["#include <rocshmem/rocshmem_mpi.hpp>", "#define MPI_VERSION 3"]
    source = "\n".join(prelude + [MARKER, "#include <rocshmem/rocshmem.hpp>",
                                  "#include <rocshmem/api_trace.h>", "#include <rocshmem/qp_introspect.hpp>"])
    command = [compiler, "-E", "-P", "-std=c++17", "-D__HIP_PLATFORM_AMD__", "-x", "c++", "-"]
    command += [f"-I{d}" for d in include_dirs]
    result = subprocess.run(command, input=source, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        sys.exit(f"preprocessing failed:\n{result.stderr}")
    if MARKER not in result.stdout:
        sys.exit("marker line missing from the preprocessed output")
    return result.stdout.split(MARKER, 1)[1]


def strip_attributes(toks):
    """Drops [[...]] and __attribute__((...)) groups."""
    out, i = [], 0
    while i < len(toks):
        if toks[i] == "[[":
            i = toks.index("]]", i) + 1
        elif toks[i] == "__attribute__":
            depth, i = 0, i + 1
            while True:
                depth += {"(": 1, ")": -1}.get(toks[i], 0)
                i += 1
                if depth == 0:
                    break
        else:
            out.append(toks[i])
            i += 1
    return out


def strip_template_head(toks):
    if toks[:2] != ["template", "<"]:
        return toks
    depth = 0
    for i, tok in enumerate(toks[1:], 1):
        depth += {"<": 1, ">": -1}.get(tok, 0)
        if depth == 0:
            return toks[i + 1:]
    return toks


def function_declaration(statement, scope):
    """(qualified name, return type, parameter types) if the statement declares a function."""
    toks = strip_template_head(strip_attributes(statement))
    if toks[:1] == ["extern"] and len(toks) > 1 and toks[1].startswith('"'):
        toks = toks[2:]
    if not toks or toks[0] in ("typedef", "using", "static_assert", "namespace", "struct", "class",
                               "union", "enum", "template"):
        return None
    if "(" not in toks:
        return None
    open_paren = toks.index("(")
    if "=" in toks[:open_paren] or open_paren == 0 or toks[open_paren + 1] in ("*", "&"):
        return None  # variable with initialiser, or a pointer-to-function declarator
    name = toks[open_paren - 1]
    if not re.match(r"[A-Za-z_]\w*$", name) or toks[open_paren - 2:open_paren - 1] == ["::"]:
        return None
    depth, close_paren = 0, open_paren
    for close_paren in range(open_paren, len(toks)):
        depth += {"(": 1, ")": -1}.get(toks[close_paren], 0)
        if depth == 0:
            break
    params = mf.split_top_level(" ".join(toks[open_paren + 1:close_paren]), ",")
    return_type = [t for t in toks[:open_paren - 1] if t not in SPECIFIERS]
    qualified = "::".join(scope + [name])
    return qualified, mf.join_tokens(return_type), mf.normal_param_types(params)


def declared_functions(text):
    """Every function declared at namespace scope (any namespace, or global) in the text."""
    text = "\n".join(line for line in text.split("\n") if not line.lstrip().startswith("#"))
    toks = _TOKEN.findall(text)
    found, scope, kinds, statement, i = [], [], [], [], 0
    while i < len(toks):
        tok = toks[i]
        if tok == "namespace" and not statement:
            j = toks.index("{", i)
            scope.append("::".join(toks[i + 1:j]) or "(anonymous)")
            kinds.append("namespace")
            i = j + 1
        elif tok == "{" and statement[:1] == ["extern"] and len(statement) == 2:
            kinds.append("linkage")  # extern "C" { ... }
            statement, i = [], i + 1
        elif tok == "{":
            declaration = function_declaration(statement, scope)
            depth = 0
            while True:  # skip a class, enum or function body
                depth += {"{": 1, "}": -1}.get(toks[i], 0)
                i += 1
                if depth == 0:
                    break
            if declaration:  # inline function definition: also a declaration
                found.append(declaration)
                statement = []
            else:
                statement.append("{}")
        elif tok == "}":
            if kinds.pop() == "namespace":
                scope.pop()
            i += 1
        elif tok == ";":
            declaration = function_declaration(statement, scope)
            if declaration:
                found.append(declaration)
            statement, i = [], i + 1
        else:
            statement.append(tok)
            i += 1
    return found


def expected_functions(host, device, with_mpi):
    expected = set()
    for row in host:
        if with_mpi or not mf.has_flag(row, mf.MPI_GUARD_FLAG):
            expected.add((mf.host_qualified_name(row), mf.normal_type(row["return_type"]),
                          mf.normal_param_types(mf.params(row))))
    for row in device:
        if mf.is_function_row(row) and mf.header_base(row) in INCLUDED_HEADERS:
            expected.add(("rocshmem::" + row["name"], mf.normal_type(row["return_type"]),
                          mf.normal_param_types(mf.params(row))))
    return expected


def describe(entry):
    name, return_type, params = entry
    return f"{return_type} {name}({', '.join(params)})"


def compare(preprocessed, host, device, with_mpi):
    """Returns a list of problems (empty when the twin matches the manifest)."""
    found = set(declared_functions(preprocessed))
    expected = expected_functions(host, device, with_mpi)
    problems = [f"extra (not in manifest): {describe(e)}" for e in sorted(found - expected)]
    problems += [f"missing (in manifest, not declared): {describe(e)}" for e in sorted(expected - found)]
    return problems


def fact_problems(preprocessed):
    squashed = re.sub(r"[ \t]+", " ", preprocessed)
    return [f"fact does not hold: {fact}" for fact, pattern in PREPROCESSED_FACTS.items()
            if not re.search(pattern, squashed)]


def perturbed(host):
    """Copy of the host rows with two made-up drifts: rocshmem_putmem's pe retyped int -> long
    (a row with a same-signature device twin) and rocshmem_malloc's size retyped size_t -> int
    (a host-only row)."""
    rows = [dict(r) for r in host]
    for row in rows:
        if row["name"] == "rocshmem_putmem":
            row["params"] = re.sub(r"int pe$", "long pe", row["params"])
        if row["name"] == "rocshmem_malloc":
            row["params"] = "int size"
    return rows


SELF_TEST_EXPECTED = [
    "extra (not in manifest): void* rocshmem::rocshmem_malloc(size_t)",
    "missing (in manifest, not declared): void rocshmem::rocshmem_putmem(void*, const void*, size_t, long)",
    "missing (in manifest, not declared): void* rocshmem::rocshmem_malloc(int)",
]


def main():
    parser = argparse.ArgumentParser(description="twin == manifest (declarations)")
    parser.add_argument("--compiler", required=True)
    parser.add_argument("--manifest", required=True)
    parser.add_argument("--include", action="append", required=True, help="twin include dir, HIP include dir")
    parser.add_argument("--self-test", action="store_true",
                        help="perturb one manifest row in memory; pass only if that is reported")
    options = parser.parse_args()

    host, device = mf.host_rows(options.manifest), mf.device_rows(options.manifest)
    plain = preprocess(options.compiler, options.include, with_mpi=False)
    if options.self_test:
        problems = compare(plain, perturbed(host), device, with_mpi=False)
        print("\n".join(problems))
        if sorted(problems) == sorted(SELF_TEST_EXPECTED):
            print("self-test passed: exactly the two perturbed rows were reported")
            return 0
        print("self-test FAILED: expected exactly:\n" + "\n".join(SELF_TEST_EXPECTED))
        return 1

    problems = fact_problems(plain)
    for with_mpi, text in ((False, plain), (True, preprocess(options.compiler, options.include, True))):
        label = "with MPI_VERSION" if with_mpi else "without MPI"
        problems += [f"[{label}] {p}" for p in compare(text, host, device, with_mpi)]
        print(f"[{label}] {len(set(declared_functions(text)))} distinct function declarations checked")
    if problems:
        print("\n".join(problems))
        print(f"FAILED: {len(problems)} difference(s) between the twin and the manifest")
        return 1
    print("twin declarations == manifest")
    return 0


if __name__ == "__main__":
    sys.exit(main())
