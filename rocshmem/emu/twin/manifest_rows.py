"""Reading the rocSHMEM manifest (rocshmem/manifest/*.tsv) and normalising C++ type spellings.

The one Python reader of the manifest: the header twin generator, the twin checks, the emulator's
typed-API generator, the export check (emu/common/check_exports.py) and dev/check-real-variant.sh
import it, so that every side reads the same rows, spells each flag once and compares the same
normal form of a parameter list. (The Java reader is org.rocshmem.presets.RocshmemManifest.)
"""
import csv
import os
import re

DEVICE_FUNCTION_KINDS = ("__device__", "__global__")
MPI_GUARD_FLAG = "guarded-by-#if-defined(MPI_VERSION)"
NOT_DEFINED_BY_LIBRARY_FLAG = "no-host-definition-seen-in-src/rocshmem.cpp"
MPI_ONLY_FLAG = "MPI_Comm-param"
C_LINKAGE_FLAG = 'extern "C"'
GLOBAL_NAMESPACE_FLAG = "global-namespace"

# Words that can end a type spelled without a parameter name ("unsigned int").
_TYPE_KEYWORDS = {
    "void", "bool", "char", "short", "int", "long", "float", "double", "signed",
    "unsigned", "const", "volatile", "wchar_t", "auto",
}
_QUALIFIERS = {"const", "volatile"}
_TOKEN = re.compile(r'"(?:\\.|[^"\\])*"|::|\.\.\.|[A-Za-z_]\w*|\d+\w*|\S')


def load_tsv(manifest_dir, file_name):
    """Rows of one manifest table as dicts, in file order."""
    with open(os.path.join(manifest_dir, file_name), newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def host_rows(manifest_dir):
    return load_tsv(manifest_dir, "host-functions.tsv")


def defined_host_rows(manifest_dir):
    """Host rows the real library defines (src/rocshmem.cpp has a body for them), in file order."""
    return [r for r in host_rows(manifest_dir) if is_defined(r)]


def is_defined(host_row):
    return not has_flag(host_row, NOT_DEFINED_BY_LIBRARY_FLAG)


def device_rows(manifest_dir):
    """Device rows sorted into header order (per header, by order_in_header)."""
    rows = load_tsv(manifest_dir, "device-functions.tsv")
    return sorted(rows, key=lambda r: (r["header"], int(r["order_in_header"])))


def header_base(row):
    return os.path.basename(row["header"])


def split_top_level(text, separator):
    """Split at separator characters not nested inside (), <>, [] or {}."""
    parts, depth, current = [], 0, []
    for ch in text:
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            depth -= 1
        if ch == separator and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]


def flags(row):
    return split_top_level(row.get("flags", ""), ",")


def has_flag(row, name):
    """True when a flag equals name or is name followed by a parenthesised detail."""
    return any(f == name or f.startswith(name + "(") for f in flags(row))


def flag_detail(row, name):
    """The parenthesised detail of a flag ('deprecated(use x)' -> 'use x'), '' if bare, None if absent."""
    for f in flags(row):
        if f == name:
            return ""
        if f.startswith(name + "("):
            return f[len(name) + 1:f.index(")", len(name))]
    return None


def params(row):
    """Parameter declarations as written in the manifest ('int pe', 'hipStream_t stream=nullptr')."""
    return split_top_level(row["params"], ";")


_NAMED_PARAM = re.compile(r"^(.*?[\w*&>\s])\s*\b([A-Za-z_]\w*)$")


def param_type_and_name(declaration):
    """'const float *dest=nullptr' -> ('const float *', 'dest'): the type as written, without the default."""
    decl = declaration.split("=", 1)[0].strip()
    match = _NAMED_PARAM.match(decl)
    if not match:
        raise ValueError(f"cannot read parameter '{declaration}': no parameter name")
    return match.group(1).strip(), match.group(2)


def tokens(text):
    return _TOKEN.findall(text)


def join_tokens(toks):
    """Canonical spelling: single spaces, no space before * & [ ] , >, none after < or around ::."""
    out = ""
    for tok in toks:
        if not out:
            out = tok
        elif tok in ("*", "&", "[", "]", ",", "<", ">", "::", "...") or out.endswith(("<", "::", "[", ",")):
            out += tok
        else:
            out += " " + tok
    return out.replace(",", ", ")


def param_type_tokens(toks):
    """Type of one parameter: drops the default value and the parameter name."""
    if "=" in toks:
        toks = toks[:toks.index("=")]
    if "[" in toks:
        i = toks.index("[")
        if i > 0 and re.match(r"[A-Za-z_]\w*$", toks[i - 1]) and toks[i - 1] not in _TYPE_KEYWORDS:
            return toks[:i - 1] + toks[i:]
        return toks
    last = toks[-1] if toks else ""
    rest = toks[:-1]
    names_a_type = any(t not in _QUALIFIERS for t in rest)
    if re.match(r"[A-Za-z_]\w*$", last) and last not in _TYPE_KEYWORDS and names_a_type \
            and rest[-1] != "::":
        return rest
    return toks


def normal_param_types(param_list):
    """Normalised parameter types of a list of declarations; '(void)' counts as no parameters."""
    types = [join_tokens(param_type_tokens(tokens(p))) for p in param_list]
    return tuple(t for t in types if t != "void" or len(types) > 1)


def normal_type(text):
    return join_tokens(tokens(text))


def struct_fields(definition):
    """(type, name, offset) of the '<type> <name> @<offset>' items of a types.tsv definition."""
    fields = []
    for item in split_top_level(definition, ";"):
        item = re.sub(r"^fields:\s*", "", item)
        match = re.match(r"^([\w:<>, ]*?\w[\w:<>, ]*?[\s*]+)(\w+)\s*@(\d+)", item)
        if match:
            fields.append((normal_type(match.group(1)), match.group(2), int(match.group(3))))
    return fields


def struct_size(definition):
    """sizeof stated by a types.tsv definition ('sizeof 144' or '= 128 bytes'), or None."""
    match = re.search(r"sizeof (\d+)|= (\d+) bytes", definition)
    return int(match.group(1) or match.group(2)) if match else None


def listed_names(definition):
    """The comma-separated names after 'in order:' in a types.tsv definition."""
    listed = definition.split("in order:", 1)[1].split(";", 1)[0]
    return [n.strip() for n in listed.split(",")]


def is_function_row(device_row):
    """Device rows that declare free functions in namespace rocshmem (not members, variables, comm_options)."""
    return device_row["kind"] in DEVICE_FUNCTION_KINDS and "::" not in device_row["name"] \
        and header_base(device_row) != "comm_options.hpp"


def host_qualified_name(row):
    return row["name"] if has_flag(row, GLOBAL_NAMESPACE_FLAG) else "rocshmem::" + row["name"]
