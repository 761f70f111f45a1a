#!/usr/bin/env python3
"""Generates rocSHMEM's device API for the emulator from the manifest (device-functions.tsv).

Every manifest row gets one status in the coverage table (the second output):
  host        same name and signature as a host function the library already defines
              (src/, typed_api.cpp): the kernel's call resolves to it
  generated   a forwarder written here into the engine templates (../src/*.hpp, src/device_ops.hpp);
              `_wave`/`_wg` forms run through group_call (src/group.hpp)
  hand        written in src/device_hand.cpp (HAND_WRITTEN below)
  header      defined inline by the header twin (struct members, comm_options templates)
  variable    a device global, defined in ../src/globals.cpp
  exception   not provided; the detail column says why (EXCEPTIONS below)
A row that fits none of these stops the build, so the manifest stays the one source of truth.

usage: gen_device_api.py --manifest DIR --out device_api.cpp --coverage device-coverage.tsv
"""
import argparse
import os
import re
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "twin"))
sys.path.insert(0, os.path.join(HERE, ".."))
import manifest_rows as mf  # noqa: E402
import gen_typed_api as typed  # noqa: E402
from check_exports import canonical_type  # noqa: E402

T = typed.T
CTYPES = typed.CTYPES
RED_OPS = typed.RED_OPS
SCOPES = {"wave": "rocshmem_emu::Scope::wave", "wg": "rocshmem_emu::Scope::block"}

HAND_WRITTEN = {
    "rocshmem_wg_init", "rocshmem_wg_finalize", "rocshmem_wg_init_thread", "rocshmem_wg_ctx_create",
    "rocshmem_wg_team_create_ctx", "rocshmem_wg_ctx_destroy", "rocshmem_tile_collective_wait",
    "rocshmem_ctx_tile_collective_wait",
    "rocshmem_getmem_kernel", "rocshmem_putmem_kernel", "rocshmem_quiet_kernel", "rocshmem_putmem_signal_kernel",
    "rocshmem_signal_wait_until_kernel", "rocshmem_barrier_all_kernel", "rocshmem_barrier_kernel",
    "rocshmem_sync_all_kernel", "rocshmem_team_sync_kernel", "rocshmem_alltoallmem_kernel",
    "rocshmem_broadcastmem_kernel",
}

TEMPLATE_REASON = ("function template declared without a definition in the header (the tile API: tensor "
                   "and tuple types the header leaves to the caller); a program cannot instantiate it")
EXCEPTIONS = {
    "rocshmem_reduce_on_stream_kernel": ("kernel template declared without a definition; the emulator's "
                                         "reduce_on_stream runs on the stream worker and never launches it"),
    "ROCSHMEM_TEAM_WORLD (single-symbol variant)": ("alternative header layout of fork 21ddba2a; the twin "
                                                    "declares the namespaced layout (host::/device:: "
                                                    "ROCSHMEM_TEAM_WORLD), whose symbols the library defines"),
}
VARIABLE_SYMBOLS = {
    "ROCSHMEM_CTX_DEFAULT": "ROCSHMEM_CTX_DEFAULT", "ROCSHMEM_CTX_INVALID": "rocshmem::ROCSHMEM_CTX_INVALID",
    "rocshmem_ctx_array": "rocshmem::rocshmem_ctx_array",
    "device::ROCSHMEM_TEAM_WORLD": "rocshmem::device::ROCSHMEM_TEAM_WORLD",
    "device::ROCSHMEM_TEAM_SHARED": "ROCSHMEM_TEAM_SHARED",  # inside an extern "C" block
}


def param_names(row):
    names = []
    for p in mf.params(row):
        m = re.search(r"([A-Za-z_]\w*)\s*(\[\s*\])?\s*(=.*)?$", p)
        names.append(m.group(1))
    return names


def symbol(row):
    """The function as `nm -DC` prints it, in check_exports.py's canonical spelling."""
    types = [canonical_type(t.replace("[]", "*")) for t in mf.normal_param_types(mf.params(row))]
    return f"rocshmem::{row['name']}({', '.join(types)})"


def device_body(row):
    """(scope, engine expression) of a device-only row, or None."""
    name, names = row["name"], param_names(row)
    has_ctx = bool(names) and mf.params(row)[0].startswith("rocshmem_ctx_t")
    ctx = names[0] if has_ctx else "rocshmem_emu::default_ctx()"
    rest = names[1:] if has_ctx else names
    fn = f'"{name}"'

    def call(f, targs, args):
        return f"rocshmem_emu::{f}{'<' + targs + '>' if targs else ''}({', '.join(args + [fn])})"

    def elem(m, group):
        return CTYPES[m.group(group)] if m.group(group) else "char"

    m = re.fullmatch(rf"rocshmem_(?:ctx_)?(?:({T})_(put|get)|(put|get)mem)(_nbi)?_(wave|wg)", name)
    if m:
        op = m.group(2) or m.group(3)
        stat = f"rocshmem_emu::Stat::{op}{m.group(4) or ''}"
        return m.group(5), call(f"rma_{op}", elem(m, 1), [ctx] + rest + [stat])
    m = re.fullmatch(rf"rocshmem_(?:ctx_)?(?:({T})_put|putmem)_signal(_nbi)?(?:_(wave|wg))?", name)
    if m:
        return m.group(3), call("put_signal", elem(m, 1), [ctx] + rest)
    m = re.fullmatch(r"rocshmem_signal_fetch(?:_(wave|wg))?", name)
    if m:
        return m.group(1), call("signal_fetch", "", names)
    m = re.fullmatch(r"rocshmem_(?:ctx_)?signal_(set|add)", name)
    if m:
        return None, call("signal_update", "", [ctx, rest[0], rest[1], f"rocshmem::ROCSHMEM_SIGNAL_{m.group(1).upper()}",
                                                rest[2]])
    if name == "rocshmem_signal_wait_until":
        return None, call("signal_wait_until", "", names)
    m = re.fullmatch(rf"rocshmem_ctx_({T})_({'|'.join(RED_OPS)})_(reduce|reduce_scatter)_(wave|wg)", name)
    if m:
        targs = f"{CTYPES[m.group(1)]}, rocshmem_emu::RedOp::{RED_OPS[m.group(2)]}"
        return m.group(4), call(f"coll_{m.group(3)}", targs, [ctx] + rest)
    m = re.fullmatch(rf"rocshmem_(?:ctx_)?(?:({T})_(broadcast|alltoall|fcollect)|(broadcast|alltoall|fcollect)mem)_(wave|wg)",
                     name)
    if m:
        return m.group(4), call(f"coll_{m.group(2) or m.group(3)}", elem(m, 1), [ctx] + rest)
    m = re.fullmatch(rf"rocshmem_({T})_alltoallv_wg", name)
    if m:
        return "wg", call("coll_alltoallv", CTYPES[m.group(1)], names)
    m = re.fullmatch(r"rocshmem_(ctx_)?(barrier|sync)(_all)?(?:_(wave|wg))?", name)
    if m and (m.group(1) and not m.group(3) or not m.group(1) and (m.group(3) or not names)):
        team = rest[0] if m.group(1) else "rocshmem_emu::world_handle()"
        return m.group(4), call("device_barrier", "", [ctx, team, f"rocshmem_emu::Stat::{m.group(2)}"])
    m = re.fullmatch(r"rocshmem_(?:ctx_)?fence", name)
    if m and rest == ["pe"]:
        return None, call("fence_pe", "", [ctx] + rest)
    m = re.fullmatch(r"rocshmem_(?:ctx_)?(pe_quiet|threadfence_system|n_pes|my_pe)", name)
    if m and (has_ctx or m.group(1) in ("pe_quiet", "threadfence_system")):
        f = m.group(1) if m.group(1) in ("pe_quiet", "threadfence_system") else f"ctx_{m.group(1)}"
        return None, call(f, "", [ctx] + rest)
    return None


def definition(row, scope, expr):
    ret = mf.normal_type(row["return_type"])
    params = ", ".join(mf.params(row))
    head = f"ROCSHMEM_EMU_API {ret} rocshmem::{row['name']}({params})"
    if scope is None:
        body = f"return {expr};" if ret != "void" else f"(void){expr};"
    elif ret == "void":
        body = f'rocshmem_emu::group_call({SCOPES[scope]}, "{row["name"]}", [&] {{ (void){expr}; }});'
    else:
        body = (f'return rocshmem_emu::group_call({SCOPES[scope]}, "{row["name"]}", '
                f"[&]() -> {ret} {{ return {expr}; }});")
    return f"{head} {{\n  {body}\n}}"


def host_defined(manifest_dir):
    return {(r["name"], mf.normal_param_types(mf.params(r))) for r in mf.host_rows(manifest_dir)
            if mf.NOT_DEFINED_BY_LIBRARY_FLAG not in r["flags"]}


def classify(row, defined):
    """(status, detail, symbol, definition text or None)."""
    name, kind = row["name"], row["kind"]
    if name in EXCEPTIONS:
        return "exception", EXCEPTIONS[name], "-", None
    if kind.endswith("variable"):
        return "variable", "src/globals.cpp", VARIABLE_SYMBOLS[name], None
    if not mf.is_function_row(row):
        return "header", "inline in the header twin", "-", None
    if "template<" in row["attributes"]:
        return "exception", TEMPLATE_REASON, "-", None
    key = (name, mf.normal_param_types(mf.params(row)))
    if row["host_declaration"] == "same-signature" and key in defined:
        return "host", "host definition", symbol(row), None
    if name in HAND_WRITTEN:
        return "hand", "src/device_hand.cpp", symbol(row), None
    found = device_body(row)
    if found is None and row["host_declaration"] == "same-signature":
        # Host-declared rows the real library defines only in device code (16-bit and sized types).
        expr = typed.forwarder(name, typed.split_params(row["params"]))
        if expr:
            found = (None, expr.replace("__func__", f'"{name}"'))
    if found is None:
        return None
    scope, expr = found
    return "generated", expr.split("(")[0], symbol(row), definition(row, scope, expr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--coverage", required=True)
    args = ap.parse_args()
    defined = host_defined(args.manifest)
    lines = ["// GENERATED by shmem/device/gen_device_api.py from the manifest's device-functions.tsv; do not edit.",
             "// One definition per device-only function; `_wave`/`_wg` forms are group calls.",
             '#include "device_ops.hpp"', ""]
    table = ["name\tparams\tstatus\tdetail\tsymbol"]
    unknown, hand, emitted = [], set(), set()
    for row in mf.device_rows(args.manifest):
        result = classify(row, defined)
        if result is None:
            unknown.append(row["name"])
            continue
        status, detail, sym, text = result
        if status == "hand":
            hand.add(row["name"])
        if sym != "-" and sym in emitted:
            detail = "redeclaration; " + detail  # the header declares it twice: defined once
        elif text:
            lines.append(text)
        emitted.add(sym)
        params = ", ".join(mf.normal_param_types(mf.params(row)))
        table.append("\t".join([row["name"], params, status, detail, sym]))
    if unknown:
        raise SystemExit("device rows neither generated, hand-written nor listed: " + ", ".join(unknown))
    if HAND_WRITTEN - hand:
        raise SystemExit("HAND_WRITTEN names absent from the manifest: " + ", ".join(sorted(HAND_WRITTEN - hand)))
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(args.coverage, "w") as f:
        f.write("\n".join(table) + "\n")


if __name__ == "__main__":
    main()
