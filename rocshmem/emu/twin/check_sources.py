"""Translation units of the twin == manifest compile checks, written from the manifest alone.

twin_signatures.cpp      every host row (outside the MPI guard): its address cast to the exact
                         function-pointer type of the row, which also selects the overload; plus
                         sizeof/offsetof/field-type asserts from types.tsv and value/type asserts
                         from constants.tsv
twin_signatures_mpi.cpp  the same for the MPI-guarded rows and rocshmem_mpi.hpp, with MPI_VERSION
                         defined after the twin's MPI shim
twin_signatures_drift.cpp one host row with a deliberately wrong parameter type: must NOT compile
                         (proves the check above can fail)
"""
import os
import re

import manifest_rows as mf

BANNER = ("// GENERATED FILE - DO NOT EDIT. Written from rocshmem/manifest/*.tsv by\n"
          "// rocshmem/emu/twin/generate_twin.py (check_sources.py) for the twin == manifest tests.\n")
MAIN_HEADERS = {"rocshmem.hpp", "rocshmem_common.hpp", "rocshmem_RMA.hpp", "rocshmem_AMO.hpp",
                "rocshmem_SIG_OP.hpp", "rocshmem_COLL.hpp", "rocshmem_P2P_SYNC.hpp", "rocshmem_RMA_X.hpp",
                "rocshmem_TILE.hpp", "api_trace.h", "qp_introspect.hpp", "comm_options.hpp"}
MPI_HEADERS = {"rocshmem_mpi.hpp"}
MAIN_INCLUDES = ["rocshmem/rocshmem.hpp", "rocshmem/api_trace.h", "rocshmem/qp_introspect.hpp",
                 "rocshmem/comm_options.hpp"]


def function_pointer_cast(row, param_types=None):
    """'(void)static_cast<R (*)(P...)>(&rocshmem::name);' for one host row."""
    if param_types is None:
        param_types = mf.normal_param_types(mf.params(row))
    qualified = mf.host_qualified_name(row)
    qualified = qualified if "::" in qualified else "::" + qualified
    return (f"  (void)static_cast<{mf.normal_type(row['return_type'])} (*)({', '.join(param_types)})>"
            f"(&{qualified});")


def layout_asserts(types, headers):
    lines = []
    for row in types:
        if os.path.basename(row["header"]) not in headers:
            continue
        name = row["name"].split()[0]
        definition = row["definition"]
        size = mf.struct_size(definition)
        if size is not None:
            lines.append(f'static_assert(sizeof({name}) == {size}, "sizeof {name}");')
        align = re.search(r"align (\d+)", definition)
        if align:
            lines.append(f'static_assert(alignof({name}) == {align.group(1)}, "alignof {name}");')
        for field_type, field, offset in mf.struct_fields(definition):
            lines.append(f'static_assert(offsetof({name}, {field}) == {offset}, "offset of {name}::{field}");')
            lines.append(f"static_assert(std::is_same_v<decltype({name}::{field}), {field_type}>, "
                         f'"type of {name}::{field}");')
    return lines


def constant_asserts(constants, headers):
    lines = []
    for row in constants:
        if os.path.basename(row["header"]) not in headers:
            continue
        name, value, kind = row["name"], row["value"], row["kind"]
        if re.fullmatch(r"-?\d+", value):
            lines.append(f'static_assert(static_cast<long long>({name}) == {value}, "value of {name}");')
        plain_enum = re.match(r"enum (\w+)", kind)
        if plain_enum and plain_enum.group(1) != "class":
            lines.append(f"static_assert(std::is_same_v<decltype({name}), {plain_enum.group(1)}>, "
                         f'"{name} is an enumerator of {plain_enum.group(1)}");')
        scalar = re.fullmatch(r"(?:constexpr|const) (.+)", kind)
        if scalar and "[]" not in kind:
            lines.append(f'static_assert(std::is_same_v<decltype({name}), const {scalar.group(1)}>, "type of {name}");')
    return lines


def comm_option_asserts(types):
    """comm_options.hpp: a call with only the initiate tag gets every other default of types.tsv."""
    notes = next(r for r in types if r["name"].startswith("CommOption tag templates"))["notes"]
    defaults = dict(re.findall(r"(\w+)=(\w+)", notes.split("defaults:")[1]))
    scope = "CommOption::CompletionScope::" + defaults["completion"]
    full = (f"CommOpt<CommOption::initiate_tag<false>, CommOption::concurrent_tag<{defaults['concurrent']}>, "
            f"CommOption::flow_control_tag<{defaults['flow_control']}>, CommOption::completion_tag<{scope}>, "
            f"CommOption::relaxed_ordering_tag<{defaults['relaxed_ordering']}>>")
    return [f"static_assert(std::is_base_of_v<{full}, decltype(CommOpt(Initiate<false>))>, "
            f'"comm_options defaults");',
            f"static_assert(decltype(CommOpt())::initiate == {defaults['initiate']}, \"initiate default\");"]


def translation_unit(includes, prelude, asserts, casts):
    include_lines = "\n".join(f"#include <{h}>" for h in includes)
    return (f"{BANNER}\n#include <cstddef>\n#include <cstdint>\n#include <type_traits>\n\n{prelude}"
            f"{include_lines}\n\nnamespace rocshmem {{\nnamespace twin_check {{\n\n"
            + "\n".join(asserts) + "\n\nvoid take_every_host_function_address() {\n"
            + "\n".join(casts) + "\n}\n\n}  // namespace twin_check\n}  // namespace rocshmem\n")


def drifted_row(host):
    """A row whose last parameter type is changed from int to long: a made-up manifest drift."""
    row = next(r for r in host if mf.normal_param_types(mf.params(r))[-1:] == ("int",))
    types = mf.normal_param_types(mf.params(row))
    return row, types[:-1] + ("long",)


def translation_units(manifest_dir):
    host = mf.host_rows(manifest_dir)
    types = mf.load_tsv(manifest_dir, "types.tsv")
    constants = mf.load_tsv(manifest_dir, "constants.tsv")
    guarded = [r for r in host if mf.has_flag(r, mf.MPI_GUARD_FLAG)]
    unguarded = [r for r in host if not mf.has_flag(r, mf.MPI_GUARD_FLAG)]
    mpi_prelude = ("// The twin's shim supplies the MPI types; defining MPI_VERSION afterwards plays the part\n"
                   "// of a real <mpi.h> and opens the MPI-guarded declarations of rocshmem.hpp.\n"
                   "#include <rocshmem/rocshmem_mpi.hpp>\n#define MPI_VERSION 3\n")
    drift, drift_types = drifted_row(host)
    return {
        "twin_signatures.cpp": translation_unit(
            MAIN_INCLUDES, "",
            layout_asserts(types, MAIN_HEADERS) + constant_asserts(constants, MAIN_HEADERS)
            + comm_option_asserts(types),
            [function_pointer_cast(r) for r in unguarded]),
        "twin_signatures_mpi.cpp": translation_unit(
            ["rocshmem/rocshmem.hpp"], mpi_prelude,
            layout_asserts(types, MPI_HEADERS) + constant_asserts(constants, MPI_HEADERS),
            [function_pointer_cast(r) for r in guarded]),
        "twin_signatures_drift.cpp": translation_unit(
            ["rocshmem/rocshmem.hpp"], f"// Drifted row: {drift['name']} with its last parameter as long.\n",
            [], [function_pointer_cast(drift, drift_types)]),
    }
