#!/usr/bin/env python3
"""Generates the regular, typed rocSHMEM host functions of the emulator from the manifest.

Every row of host-functions.tsv that the real library defines (manifest_rows.is_defined) is
either generated here, as a one-line
forwarder to a template of the engine (src/*.hpp), or listed in HAND_WRITTEN and defined in
src/api_*.cpp. An unknown row stops the build, so the manifest stays the one source of truth.

usage: gen_typed_api.py MANIFEST_DIR out.cpp
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "twin"))
import manifest_rows as mf  # noqa: E402

# Type token of the API names -> C++ type (same table as the manifest's type order).
CTYPES = {
    "float": "float", "double": "double", "char": "char", "schar": "signed char",
    "short": "short", "int": "int", "long": "long", "longlong": "long long",
    "uchar": "unsigned char", "ushort": "unsigned short", "uint": "unsigned int",
    "ulong": "unsigned long", "ulonglong": "unsigned long long", "half": "__half",
    "bfloat16": "__hip_bfloat16", "int8": "int8_t", "int16": "int16_t", "int32": "int32_t",
    "int64": "int64_t", "uint8": "uint8_t", "uint16": "uint16_t", "uint32": "uint32_t",
    "uint64": "uint64_t", "size": "size_t", "ptrdiff": "ptrdiff_t",
}
T = "|".join(sorted(CTYPES, key=len, reverse=True))

RED_OPS = {"sum": "sum", "min": "min", "max": "max", "prod": "prod",
           "and": "bit_and", "or": "bit_or", "xor": "bit_xor"}
RMA_STATS = {"put": "put", "put_nbi": "put_nbi", "get": "get", "get_nbi": "get_nbi"}
AMO_OPS = ["fetch", "set", "compare_swap", "swap", "fetch_inc", "inc", "fetch_add", "add",
           "fetch_and", "and", "fetch_or", "or", "fetch_xor", "xor"]
P2P = ["wait_until", "wait_until_all", "wait_until_any", "wait_until_some",
       "wait_until_all_vector", "wait_until_any_vector", "wait_until_some_vector", "test"]

# Irregular functions, written by hand in src/api_*.cpp.
HAND_WRITTEN = {
    "rocshmem_init", "rocshmem_init_thread", "rocshmem_init_attr", "rocshmem_get_uniqueid",
    "rocshmem_set_attr_uniqueid_args", "rocshmem_finalize", "rocshmem_get_device_ctx",
    "rocshmem_hipmodule_init", "rocshmem_query_thread", "rocshmem_n_pes", "rocshmem_my_pe",
    "rocshmem_info_get_version", "rocshmem_info_get_name", "rocshmem_vendor_get_version_info",
    "rocshmem_malloc", "rocshmem_align", "rocshmem_calloc", "rocshmem_free", "rocshmem_ptr",
    "rocshmem_buffer_register", "rocshmem_buffer_unregister", "rocshmem_buffer_unregister_all",
    "rocshmem_buffer_register_symmetric", "rocshmem_buffer_unregister_symmetric",
    "rocshmem_ctx_create", "rocshmem_ctx_destroy", "rocshmem_team_translate_pe",
    "rocshmem_team_n_pes", "rocshmem_team_my_pe", "rocshmem_team_split_2d",
    "rocshmem_team_split_strided", "rocshmem_team_destroy", "rocshmem_getmem_on_stream",
    "rocshmem_putmem_on_stream", "rocshmem_putmem_signal_on_stream",
    "rocshmem_signal_wait_until_on_stream", "rocshmem_global_exit", "set_internal_ctx",
    "rocshmem_query_backend_type", "set_team_world_device", "set_team_shared_device",
    "rocshmem_qp_introspect_provider", "rocshmem_qp_introspect_available",
    "rocshmem_query_qp_info", "RocshmemGetFunctionTable", "rocshmem_dump_stats",
    "rocshmem_reset_stats", "rocshmem_fence", "rocshmem_ctx_fence", "rocshmem_quiet",
    "rocshmem_ctx_quiet", "rocshmem_quiet_on_stream", "rocshmem_barrier_all",
    "rocshmem_barrier", "rocshmem_barrier_all_on_stream", "rocshmem_barrier_on_stream",
    "rocshmem_sync_all", "rocshmem_sync_all_on_stream", "rocshmem_team_sync",
    "rocshmem_team_sync_on_stream", "rocshmem_alltoallmem_on_stream",
    "rocshmem_broadcastmem_on_stream",
}


def split_params(row):
    """[('float *', 'dest'), ('int', 'pe')] of a manifest row."""
    return [mf.param_type_and_name(p) for p in mf.params(row)]


def forwarder(name, params):
    """(engine call, type token) for a regular row, or None."""
    names = [n for _, n in params]
    has_ctx = bool(params) and params[0][0] == "rocshmem_ctx_t"
    ctx = "ctx" if has_ctx else "rocshmem_emu::default_ctx()"
    rest = names[1:] if has_ctx else names

    def call(fn, targs, args):
        return f"rocshmem_emu::{fn}<{targs}>({', '.join(args + ['__func__'])})"

    m = re.fullmatch(rf"rocshmem_(ctx_)?({T})_(put|get|p|g|put_nbi|get_nbi)", name)
    if m:
        t, op = CTYPES[m.group(2)], m.group(3)
        if op in RMA_STATS:
            return call(f"rma_{op.split('_')[0]}", t, [ctx] + rest + [f"rocshmem_emu::Stat::{RMA_STATS[op]}"])
        return call(f"rma_{op}", t, [ctx] + rest)
    m = re.fullmatch(r"rocshmem_(ctx_)?(putmem|getmem|putmem_nbi|getmem_nbi)", name)
    if m:
        op = m.group(2).replace("mem", "")
        return call(f"rma_{op.split('_')[0]}", "char", [ctx] + rest + [f"rocshmem_emu::Stat::{RMA_STATS[op]}"])
    m = re.fullmatch(rf"rocshmem_(ctx_)?({T})_atomic_({'|'.join(AMO_OPS)})", name)
    if m:
        return call(f"amo_{m.group(3)}", CTYPES[m.group(2)], [ctx] + rest)
    m = re.fullmatch(rf"rocshmem_({T})_({'|'.join(P2P)})", name)
    if m and not has_ctx:
        return call(f"p2p_{m.group(2)}", CTYPES[m.group(1)], names)
    m = re.fullmatch(rf"rocshmem_ctx_({T})_({'|'.join(RED_OPS)})_(reduce|reduce_scatter|reduce_on_stream)", name)
    if m and has_ctx:
        targs = f"{CTYPES[m.group(1)]}, rocshmem_emu::RedOp::{RED_OPS[m.group(2)]}"
        return call(f"coll_{m.group(3)}", targs, [ctx] + rest)
    m = re.fullmatch(rf"rocshmem_ctx_({T})_broadcast", name)
    if m and has_ctx:
        team_form = params[1][0] == "rocshmem_team_t"
        return call("broadcast_team" if team_form else "broadcast_active_set", CTYPES[m.group(1)], [ctx] + rest)
    return None


# ROCSHMEM_EMU_PROFILE=ipc-uid: host calls that abort on rocSHMEM's IPC backend without MPI
# (HostInterface needs MPI windows; docs/settings.md). Blocking putmem/getmem, fence/quiet,
# wait/test and the *_on_stream calls work there, and so do these atomics:
IPC_UID_AMOS = {("int", "fetch_add"), ("int", "compare_swap"), ("int", "add"),
                ("long", "fetch_add"), ("long", "compare_swap"), ("long", "add")}


def ipc_uid_guard(name):
    """The profile check a generated host function starts with, or ''."""
    if name.endswith("_on_stream"):
        return ""
    if re.fullmatch(r"rocshmem_(ctx_)?(putmem|getmem)", name):
        return ""
    if re.fullmatch(rf"rocshmem_({T})_({'|'.join(P2P)})", name):
        return ""
    m = re.fullmatch(rf"rocshmem_(ctx_)?({T})_atomic_({'|'.join(AMO_OPS)})", name)
    if m and (m.group(2), m.group(3)) in IPC_UID_AMOS:
        return ""
    if re.fullmatch(rf"rocshmem_ctx_({T})_({'|'.join(RED_OPS)})_reduce_scatter", name):
        return "ROCSHMEM_EMU_IPC_UID_ERROR(__func__); "
    return "ROCSHMEM_EMU_IPC_UID_ABORT(__func__); "


def main(manifest_dir, out_path):
    rows = mf.defined_host_rows(manifest_dir)
    lines = [
        "// GENERATED by shmem/gen_typed_api.py from the manifest's host-functions.tsv; do not edit.",
        "// One forwarder per regular typed host function the real rocSHMEM library defines.",
        '#include "engine.hpp"',
        "",
    ]
    generated, hand, unknown = 0, set(), []
    for r in rows:
        name, ret, params = r["name"], r["return_type"].strip(), split_params(r)
        body = forwarder(name, params)
        if body is None:
            (hand.add(name) if name in HAND_WRITTEN else unknown.append(name))
            continue
        decl = ", ".join(f"{t}{'' if t.endswith(' *') else ' '}{n}" for t, n in params)
        guard = ipc_uid_guard(name)
        lines.append(f"ROCSHMEM_EMU_API {ret} rocshmem::{name}({decl}) {{ {guard}return {body}; }}")
        generated += 1
    if unknown:
        raise SystemExit("rows neither generated nor hand-written: " + ", ".join(unknown))
    missing = HAND_WRITTEN - hand
    if missing:
        raise SystemExit("HAND_WRITTEN names absent from the defined manifest rows: " + ", ".join(sorted(missing)))
    lines.append(f"// {generated} generated definitions; {len(hand)} hand-written names live in src/api_*.cpp")
    with open(out_path, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    main(sys.argv[1], sys.argv[2])
