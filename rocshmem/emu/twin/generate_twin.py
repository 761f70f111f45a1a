#!/usr/bin/env python3
"""Generates the rocSHMEM header twin from the manifest (rocshmem/manifest/*.tsv).

Output under --out:
  include/rocshmem/*.hpp|h       the twin of rocSHMEM's installed public headers
  defined-host-functions.tsv     host rows the emulator library must define (exactly these)
  checks/*.cpp                   translation units of the twin == manifest tests (see check_sources.py)

Every declaration comes from a manifest row; only fixed scaffolding (struct bodies, the MPI shim's
handle macros, comm_options templates) is written here or in fragments/*.in.
"""
import argparse
import os
import re
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_sources  # noqa: E402
import manifest_rows as mf  # noqa: E402

SCRIPT = "rocshmem/emu/twin/generate_twin.py"
FRAGMENTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fragments")
END_OF_HEADER = object()  # interleave key: host rows placed after all device rows


class Manifest:
    def __init__(self, manifest_dir):
        self.host = mf.host_rows(manifest_dir)
        self.device = mf.device_rows(manifest_dir)
        self.types = {r["name"]: r for r in mf.load_tsv(manifest_dir, "types.tsv")}
        self.constants = mf.load_tsv(manifest_dir, "constants.tsv")

    def host_in(self, header):
        return [r for r in self.host if mf.header_base(r) == header]

    def device_functions_in(self, header):
        return [r for r in self.device if mf.header_base(r) == header and mf.is_function_row(r)]

    def constants_in(self, header):
        return [r for r in self.constants if os.path.basename(r["header"]) == header]

    def type_row(self, name):
        for key, row in self.types.items():
            if key == name or key.split()[0] == name:
                return row
        raise KeyError(name)


# ---------------------------------------------------------------------------------------------
# Declaration text

def banner(upstream_name):
    return (f"// GENERATED FILE - DO NOT EDIT.\n"
            f"// Twin of rocSHMEM's include/rocshmem/{upstream_name} for the CPU emulation backend,\n"
            f"// generated from the host-API manifest (rocshmem/manifest/*.tsv) by {SCRIPT}.\n")


def declare(type_text, name):
    """'void *' + 'p' -> 'void *p'; 'int' + 'x' -> 'int x'."""
    type_text = mf.normal_type(type_text)
    stars = len(type_text) - len(type_text.rstrip("*&"))
    if stars:
        return f"{type_text[:-stars]} {type_text[-stars:]}{name}"
    return f"{type_text} {name}"


def parameter_list(row, empty="", declared_void=False):
    if declared_void or mf.has_flag(row, "declared-as-"):
        return "void"
    items = [re.sub(r"\s*=\s*", " = ", p) for p in mf.params(row)]
    return ", ".join(items) if items else empty


def host_declaration(row, empty_params=""):
    """One host row as a declaration, with its markers and (if flagged) the MPI guard."""
    prefix = []
    deprecation = mf.flag_detail(row, "deprecated")
    if deprecation is not None:
        prefix.append(f'[[deprecated("{deprecation}")]]' if deprecation else "[[deprecated]]")
    if not mf.has_flag(row, "no-__host__-annotation"):
        prefix.append("__host__")
    if mf.has_flag(row, "ATTR_NO_INLINE"):
        prefix.append("ATTR_NO_INLINE")
    params = parameter_list(row, empty_params)
    text = " ".join(prefix + [declare(row["return_type"], row["name"]) + f"({params});"])
    if mf.has_flag(row, mf.MPI_GUARD_FLAG):
        text = f"#if defined(MPI_VERSION)\n{text}\n#endif"
    return text


def device_declaration(row):
    """One __device__/__global__ row, with template head, deprecation and ATTR_NO_INLINE."""
    attributes = row["attributes"]
    template = re.search(r"template<.*>", attributes)
    attributes = attributes.replace(template.group(0), "") if template else attributes
    prefix = []
    for attribute in mf.split_top_level(attributes, ","):
        if attribute.startswith("[[deprecated"):
            prefix.append(attribute)
    prefix.append(row["kind"])
    for attribute in mf.split_top_level(attributes, ","):
        if attribute == "ATTR_NO_INLINE":
            prefix.append(attribute)
        elif not attribute.startswith("[[deprecated") and attribute != "(none)":
            raise ValueError(f"unknown attribute {attribute!r} on device row {row['name']}")
    text = " ".join(prefix + [declare(row["return_type"], row["name"]) + f"({parameter_list(row)});"])
    return (template.group(0).replace("template<", "template <") + "\n" + text) if template else text


def interleave(device_rows, host_rows, device_key, host_key):
    """Device declarations in header order; each host row goes right after the first run of device
    rows sharing its key (rocSHMEM's generated headers pair device and host forms this way)."""
    pending = {}
    for row in host_rows:
        pending.setdefault(host_key(row), []).append(row)
    lines = []
    for i, row in enumerate(device_rows):
        lines.append(device_declaration(row))
        key = device_key(row)
        next_key = device_key(device_rows[i + 1]) if i + 1 < len(device_rows) else None
        if key != next_key:
            lines.extend(host_declaration(h) for h in pending.pop(key, []))
    lines.extend(host_declaration(h) for h in pending.pop(END_OF_HEADER, []))
    if pending:
        unplaced = [r["name"] for rows in pending.values() for r in rows]
        raise ValueError(f"host rows without a device anchor: {unplaced[:5]}")
    return lines


def without_ctx(row):
    return row["name"].replace("rocshmem_ctx_", "rocshmem_", 1)


def enum_definitions(m, header):
    """Enums of a header from constants.tsv, enumerators in row order with their exact values."""
    enums = {}
    for row in m.constants_in(header):
        match = re.match(r"enum (class )?(\w+)?\s*(: \w+)?", row["kind"])
        if not match:
            continue
        enum_name = match.group(2) or row["name"].split("::")[0]
        head = f"enum {match.group(1) or ''}{enum_name}{' ' + match.group(3) if match.group(3) else ''}"
        enums.setdefault(head, []).append(f"  {row['name'].split('::')[-1]} = {row['value']},")
    return [f"{head} {{\n" + "\n".join(items) + "\n};" for head, items in enums.items()]


def integer_macros(m, header):
    return [f"#define {r['name']} {r['value']}" for r in m.constants_in(header)
            if r["kind"] == "macro" and re.fullmatch(r"-?\d+", r["value"])]


def scalar_constants(m, header):
    """'constexpr size_t X = 1024;' / 'const int X = 0;' rows."""
    return [f"{r['kind']} {r['name']} = {r['value']};" for r in m.constants_in(header)
            if re.match(r"(constexpr|const) \w+", r["kind"]) and "[]" not in r["kind"]]


def struct_body(m, type_name):
    return [f"  {declare(t, name)};" for t, name, _ in mf.struct_fields(m.type_row(type_name)["definition"])]


def namespace_header(upstream_name, guard, body_lines, includes=""):
    """A sub-header: include guard and namespace rocshmem around generated declarations."""
    body = "\n".join(body_lines)
    return (f"{banner(upstream_name)}\n#ifndef {guard}\n#define {guard}\n\n{includes}namespace rocshmem {{\n\n"
            f"{body}\n\n}}  // namespace rocshmem\n\n#endif  // {guard}\n")


def fragment(name, **substitutions):
    with open(os.path.join(FRAGMENTS, name), encoding="utf-8") as f:
        text = f.read()
    for key, value in substitutions.items():
        text = text.replace(f"@{key}@", value)
    if "@" in re.sub(r'"[^"\n]*"', "", text):
        raise ValueError(f"unsubstituted placeholder in {name}")
    return text


# ---------------------------------------------------------------------------------------------
# One function per header

def config_header(m, options):
    """rocshmem_config.h: configured values for the emulator; like upstream, no include guard."""
    major, minor, patch = options.version.split(".")
    flag_row = next(r for r in m.constants if r["name"] == "#cmakedefine flags")
    flag_names = flag_row["notes"].split("(")[0].split()
    lines = [banner("rocshmem_config.h").rstrip(),
             "// Configured values as cmake/rocshmem_config.h.in would give them for the emulator;",
             "// no feature flag is set (no GPU backend, no external MPI)."]
    lines += [f"/* #undef {flag} */" for flag in flag_names]
    values = {
        "ROCSHMEM_VENDOR_MAJOR_VERSION": major, "ROCSHMEM_VENDOR_MINOR_VERSION": minor,
        "ROCSHMEM_VENDOR_PATCH_VERSION": patch, "ROCSHMEM_VERSION": f'"{options.version}"',
        "ROCSHMEM_VENDOR_STRING": f'"rocSHMEM_v{options.version}_CPU-emulator"',
        "ROCSHMEM_GIT_HASH": '"unknown"', "ROCSHMEM_INSTALL_PREFIX": f'"{options.install_prefix}"',
        "ROCSHMEM_OFFLOAD_TARGETS": '""', "ROCSHMEM_BUILD_TYPE": f'"{options.build_type}"',
    }
    configured = [r["name"] for r in m.constants if r["kind"].startswith("macro (configured")]
    lines += [f"#define {name} {values[name]}" for name in configured]
    return "\n".join(lines) + "\n"


def common_header(m):
    ctx_members = """\
  __host__ __device__ bool operator==(const struct rocshmem_ctx &other) const {
    return ctx_opaque == other.ctx_opaque && team_opaque == other.team_opaque;
  }
  __host__ __device__ bool operator!=(const struct rocshmem_ctx &other) const {
    return !(*this == other);
  }"""
    body = [
        "#if defined(USE_FUNC_CALL)\n#define ATTR_NO_INLINE __attribute__((noinline))\n#else\n"
        "#define ATTR_NO_INLINE\n#endif",
        *integer_macros(m, "rocshmem_common.hpp"),
        *enum_definitions(m, "rocshmem_common.hpp"),
        "typedef struct rocshmem_ctx {\n" + "\n".join(struct_body(m, "rocshmem_ctx_t")) + "\n"
        + ctx_members + "\n} rocshmem_ctx_t;",
        "// Device-side context handles (plain extern host variables under a host-only compiler).\n"
        'extern "C" __device__ __attribute__((visibility("default"))) rocshmem_ctx_t ROCSHMEM_CTX_DEFAULT;\n'
        "extern __constant__ rocshmem_ctx_t ROCSHMEM_CTX_INVALID;\n"
        "extern __constant__ rocshmem_ctx_t *rocshmem_ctx_array;",
        "typedef " + declare(m.type_row("rocshmem_team_t")["definition"], "rocshmem_team_t") + ";",
        "namespace host {\nextern rocshmem_team_t ROCSHMEM_TEAM_WORLD;\n"
        "extern rocshmem_team_t ROCSHMEM_TEAM_SHARED;\n}  // namespace host",
        "// Linkage per manifest row: WORLD as in upstream 48cce340 (C++), SHARED as in the only copy\n"
        "// that declares it (fork 21ddba2a, extern \"C\" block).\n"
        'namespace device {\nextern __constant__ __attribute__((visibility("default"))) '
        'rocshmem_team_t ROCSHMEM_TEAM_WORLD;\nextern "C" {\nextern __constant__ '
        '__attribute__((visibility("default"))) rocshmem_team_t ROCSHMEM_TEAM_SHARED;\n}\n'
        "}  // namespace device",
        "#if __HIP_DEVICE_COMPILE__\nusing device::ROCSHMEM_TEAM_WORLD;\nusing device::ROCSHMEM_TEAM_SHARED;\n"
        "#else\nusing host::ROCSHMEM_TEAM_WORLD;\nusing host::ROCSHMEM_TEAM_SHARED;\n#endif",
        "typedef struct {\n" + "\n".join(struct_body(m, "rocshmem_team_config_t")) + "\n} rocshmem_team_config_t;",
        "using rocshmem_uniqueid_t = std::array<uint8_t, ROCSHMEM_UNIQUE_ID_BYTES>;",
        "struct rocshmem_init_attr_t {\n" + "\n".join(struct_body(m, "rocshmem_init_attr_t"))
        + "\n};\ntypedef struct rocshmem_init_attr_t rocshmem_init_attr_t;",
        "\n".join(scalar_constants(m, "rocshmem_common.hpp")),
        "\n".join(host_declaration(r) for r in m.host_in("rocshmem_common.hpp")),
    ]
    return namespace_header("rocshmem_common.hpp", "LIBRARY_INCLUDE_ROCSHMEM_COMMON_HPP",
                            "\n\n".join(body).split("\n"))


def guard_of(header):
    """rocshmem_RMA.hpp -> LIBRARY_INCLUDE_ROCSHMEM_RMA_HPP, the upstream include-guard spelling."""
    return "LIBRARY_INCLUDE_" + re.sub(r"\W", "_", header).upper()


def typed_pairs_header(header):
    """RMA/AMO: each host form follows its device forms, matched by name without the ctx_ prefix."""
    def generate(m):
        lines = interleave(m.device_functions_in(header), m.host_in(header), without_ctx, without_ctx)
        return namespace_header(header, guard_of(header), lines)
    return generate


def device_only_header(header):
    """SIG_OP/RMA_X/TILE: device declarations only, in manifest order."""
    def generate(m):
        lines = [device_declaration(r) for r in m.device_functions_in(header)]
        return namespace_header(header, guard_of(header), lines)
    return generate


def coll_header(m):
    """Host broadcast/reduce follow their device _wg form; host reduce_scatter follows the whole
    device reduce_scatter section; host reduce_on_stream closes the header."""
    device_rows = m.device_functions_in("rocshmem_COLL.hpp")

    def device_key(row):
        name = row["name"]
        return name if "reduce_scatter" in name else re.sub(r"_wg$", "", name)

    last_scatter = device_key([r for r in device_rows if "reduce_scatter" in r["name"]][-1])

    def host_key(row):
        if row["name"].endswith("_on_stream"):
            return END_OF_HEADER
        return last_scatter if "reduce_scatter" in row["name"] else row["name"]

    lines = interleave(device_rows, m.host_in("rocshmem_COLL.hpp"), device_key, host_key)
    return namespace_header("rocshmem_COLL.hpp", guard_of("rocshmem_COLL.hpp"), lines)


def p2p_sync_header(m):
    def key(row):  # per type: the wait_until family, then test
        return re.sub(r"(_wait_until|_test).*$", r"\1", row["name"])

    lines = interleave(m.device_functions_in("rocshmem_P2P_SYNC.hpp"), m.host_in("rocshmem_P2P_SYNC.hpp"),
                       key, key)
    return namespace_header("rocshmem_P2P_SYNC.hpp", guard_of("rocshmem_P2P_SYNC.hpp"), lines)


def umbrella_header(m):
    """rocshmem.hpp: includes, version macros, host block (device rocshmem_ptr right after the host
    one), then the device block."""
    device_rows = m.device_functions_in("rocshmem.hpp")
    host_block = []
    for row in m.host_in("rocshmem.hpp"):
        host_block.append(host_declaration(row))
        host_block.extend(device_declaration(d) for d in device_rows
                          if d["name"] == row["name"] and d["order_in_header"] == "1")
    device_block = [device_declaration(d) for d in device_rows if d["order_in_header"] != "1"]
    sub_headers = ["rocshmem_config.h", "rocshmem_common.hpp", "rocshmem_RMA.hpp", "rocshmem_AMO.hpp",
                   "rocshmem_SIG_OP.hpp", "rocshmem_COLL.hpp", "rocshmem_P2P_SYNC.hpp",
                   "rocshmem_RMA_X.hpp", "rocshmem_TILE.hpp"]
    includes = "\n".join(f'#include "{h}"' for h in sub_headers)
    macros = "\n".join(integer_macros(m, "rocshmem.hpp"))
    return (f"{banner('rocshmem.hpp')}\n#ifndef LIBRARY_INCLUDE_ROCSHMEM_HPP\n"
            f"#define LIBRARY_INCLUDE_ROCSHMEM_HPP\n\n#include <hip/hip_runtime.h>\n"
            f"// Twin-only: __half / __hip_bfloat16 for host-only compilers (hipcc gets them from hip_runtime.h).\n"
            f'#include "twin_16bit_types.h"\n{includes}\n\n'
            f"#if defined(HAVE_EXTERNAL_MPI)\n#include <mpi.h>\n#endif\n\nnamespace rocshmem {{\n\n"
            f"{macros}\n\nconstexpr char VERSION[] = ROCSHMEM_VERSION;\n\n"
            f"// Host interface\n" + "\n".join(host_block) + "\n\n// Device interface\n"
            + "\n".join(device_block) + "\n\n}  // namespace rocshmem\n\n#endif  // LIBRARY_INCLUDE_ROCSHMEM_HPP\n")


def mpi_header(m):
    """rocshmem_mpi.hpp: Open-MPI-shaped shim, used only when no real <mpi.h> came first."""
    status = m.type_row("MPI_Status")
    handle_row = m.type_row("MPI_Win")
    handles = re.findall(r"(MPI_\w+)", handle_row["name"])
    handle_structs = re.findall(r"(ompi_\w+_t)\*", handle_row["definition"])
    handle_typedefs = "\n".join(f"typedef struct {s} *{h};" for h, s in zip(handles, handle_structs))
    comm_struct = re.search(r"(ompi_\w+_t)\*", m.type_row("MPI_Comm")["definition"]).group(1)
    symbols = mf.listed_names(m.type_row("ompi_internal_symbols_t")["definition"])
    simple_macros = [f"#define {r['name']} {r['value']}" for r in m.constants_in("rocshmem_mpi.hpp")
                     if r["kind"].startswith("macro") and re.fullmatch(r"\w+", r["name"])]
    return banner("rocshmem_mpi.hpp") + fragment(
        "rocshmem_mpi.hpp.in",
        HANDLE_TYPEDEFS=f"typedef struct {comm_struct} *MPI_Comm;\n{handle_typedefs}",
        STATUS_FIELDS="\n".join(f"  {declare(t, n)};" for t, n, _ in mf.struct_fields(status["definition"])),
        SYMBOL_FIELDS="\n".join(f"  void *{name};" for name in symbols),
        VALUE_MACROS="\n".join(simple_macros))


def api_trace_header(m):
    """api_trace.h: the extern "C" dispatch table of the *_on_stream functions."""
    table = m.type_row("rocshmemApiFuncTable")
    by_name = {r["name"]: r for r in m.host if mf.has_flag(r, "api_trace-dispatch")}
    typedefs, fields = [], ["  uint64_t size;"]
    for field in mf.listed_names(table["definition"]):
        row = by_name["rocshmem_" + re.sub(r"_fn$", "", field)]
        typedefs.append(f"typedef {mf.normal_type(row['return_type'])} (*{field}_t)({parameter_list(row, 'void')});")
        fields.append(f"  {field}_t {field};")
    entry = next(r for r in m.host_in("api_trace.h"))
    return (f"{banner('api_trace.h')}\n#pragma once\n\n#include <stddef.h>\n#include <stdint.h>\n\n"
            f"#if !defined(__HIP_PLATFORM_AMD__)\n#define __HIP_PLATFORM_AMD__\n#endif\n"
            f"#include <hip/hip_runtime_api.h>\n\n" + "\n".join(integer_macros(m, "api_trace.h"))
            + "\n\n#if defined(__cplusplus)\nextern \"C\" {\n#endif\n\n"
            + "// Global handle typedef as in api_trace.h@360fd425 (copy a6f4c15c aliases rocshmem::rocshmem_team_t).\n"
            + "typedef " + declare(m.type_row("rocshmem_team_t")["definition"], "rocshmem_team_t") + ";\n\n"
            + "\n".join(typedefs) + "\n\ntypedef struct rocshmemApiFuncTable {\n" + "\n".join(fields)
            + "\n} rocshmemApiFuncTable;\n\n" + host_declaration(entry, empty_params="void")
            + "\n\n#if defined(__cplusplus)\n}  // extern \"C\"\n#endif\n")


def qp_introspect_header(m):
    union = """\
  union {
    struct {
      uint64_t dbrec;
      uint64_t bf;
    } mlx5;
    struct {
      uint64_t db;
      uint64_t dbval;
      uint64_t sq_mask;
      uint64_t cq_mask;
      uint8_t udma_idx;
    } ionic;
    struct {
      uint64_t dbr;
    } bnxt;
  };  // only the arm named by vendor is valid"""
    body = [*enum_definitions(m, "qp_introspect.hpp"),
            "struct QpInfo {\n" + "\n".join(struct_body(m, "QpInfo")) + "\n" + union + "\n};",
            "\n".join(host_declaration(r) for r in m.host_in("qp_introspect.hpp"))]
    return namespace_header("qp_introspect.hpp", "ROCSHMEM_QP_INTROSPECT_HPP", "\n\n".join(body).split("\n"),
                            includes="#include <cstdint>\n\n")


def comm_options_header(m):
    scope = "\n".join(f"  {r['name'].split('::')[-1]} = {r['value']}," for r in m.constants_in("comm_options.hpp"))
    return banner("comm_options.hpp") + fragment("comm_options.hpp.in", COMPLETION_SCOPES=scope)


def sixteen_bit_types_header(m):
    return banner("(no upstream counterpart; twin-only)") + fragment("twin_16bit_types.h.in")


HEADERS = {
    "rocshmem.hpp": umbrella_header, "rocshmem_common.hpp": common_header, "rocshmem_RMA.hpp": typed_pairs_header("rocshmem_RMA.hpp"),
    "rocshmem_AMO.hpp": typed_pairs_header("rocshmem_AMO.hpp"), "rocshmem_SIG_OP.hpp": device_only_header("rocshmem_SIG_OP.hpp"), "rocshmem_COLL.hpp": coll_header,
    "rocshmem_P2P_SYNC.hpp": p2p_sync_header, "rocshmem_RMA_X.hpp": device_only_header("rocshmem_RMA_X.hpp"),
    "rocshmem_TILE.hpp": device_only_header("rocshmem_TILE.hpp"), "rocshmem_mpi.hpp": mpi_header, "api_trace.h": api_trace_header,
    "qp_introspect.hpp": qp_introspect_header, "comm_options.hpp": comm_options_header,
    "twin_16bit_types.h": sixteen_bit_types_header,
}


def defined_host_functions_tsv(m):
    columns = ["name", "return_type", "params", "category", "flags"]
    rows = [r for r in m.host if not mf.has_flag(r, mf.NOT_DEFINED_BY_LIBRARY_FLAG)]
    return "\n".join(["\t".join(columns)] + ["\t".join(r[c] for c in columns) for r in rows]) + "\n"


def write_if_changed(path, text):
    """Unchanged files keep their timestamps, so a re-configure does not rebuild dependants."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--manifest", required=True, help="directory of the manifest TSVs")
    parser.add_argument("--out", required=True, help="output directory (the twin's build dir)")
    parser.add_argument("--version", required=True, help="rocSHMEM version the emulator reports, X.Y.Z")
    parser.add_argument("--install-prefix", default="/usr/local")
    parser.add_argument("--build-type", default="RelWithDebInfo")
    options = parser.parse_args()
    if not re.fullmatch(r"\d+\.\d+\.\d+", options.version):
        parser.error("--version must look like 3.8.0")

    m = Manifest(options.manifest)
    include_dir = os.path.join(options.out, "include", "rocshmem")
    write_if_changed(os.path.join(include_dir, "rocshmem_config.h"), config_header(m, options))
    for name, generate in HEADERS.items():
        write_if_changed(os.path.join(include_dir, name), generate(m))
    write_if_changed(os.path.join(options.out, "defined-host-functions.tsv"), defined_host_functions_tsv(m))
    for name, text in check_sources.translation_units(options.manifest).items():
        write_if_changed(os.path.join(options.out, "checks", name), text)


if __name__ == "__main__":
    main()
