#!/usr/bin/env python3
"""Generate 'not supported' definitions for every C-linkage HIP function the emulator does not
implement by hand.

Why: the Java preset binds (nearly) every host function of hip_runtime_api.h, so the emulator
library must export all of them, or the JNI library fails to load. Hand-typing hundreds of stubs
would drift from the header; instead we read the header as the compiler sees it.

How: preprocess hip/hip_runtime_api.h with the real compiler (-D__HIP_PLATFORM_AMD__), walk the
token stream, and collect declarations that are (a) in a file under <include>/hip, (b) inside an
extern "C" block or prefixed by extern "C", (c) not defined inline by the header. A function counts
as hand-implemented when one of the --impl sources has a line starting with `HIP_EMU_API` that
defines it (the marker macro of src/emu_errors.hpp).

Outputs: a C++ file with the stubs, and a text file listing every declared C-linkage function
(one per line, sorted), which the symbol-coverage test reads.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

TOKEN_RE = re.compile(r'''
    (?P<ws>\s+)
  | (?P<str>"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')
  | (?P<id>[A-Za-z_]\w*)
  | (?P<num>\.?\d(?:[\w.]|[eEpP][+-])*)
  | (?P<punct>::|->|\.\.\.|<<=|>>=|&&|\|\||[-+*/%<>=!&|^]=|<<|>>|\+\+|--|[^\sA-Za-z_0-9])
''', re.VERBOSE)

LINE_MARKER_RE = re.compile(r'^#\s*(\d+)\s+"([^"]*)"')
IMPL_MARKER_RE = re.compile(r'^HIP_EMU_API\s+[^;{(]*?\b(\w+)\s*\(', re.MULTILINE)
NOT_FUNCTION_STARTS = {'typedef', 'using', 'struct', 'class', 'union', 'enum', 'namespace',
                       'template', 'static_assert', 'friend'}
DROP_FROM_RETURN_TYPE = {'extern', '"C"', 'static', 'inline', '__inline', '__inline__'}


def preprocess(compiler, include_dir):
    with tempfile.NamedTemporaryFile('w', suffix='.cpp', delete=False) as src:
        src.write('#include <hip/hip_runtime_api.h>\n')
    try:
        cmd = [compiler, '-E', '-D__HIP_PLATFORM_AMD__', '-std=c++17', '-I', include_dir, src.name]
        return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout
    finally:
        os.unlink(src.name)


def tokenize(text):
    """Yield (token, file) pairs; preprocessor line markers only update the current file."""
    current_file = ''
    for line in text.splitlines():
        stripped = line.lstrip()
        if stripped.startswith('#'):
            marker = LINE_MARKER_RE.match(stripped)
            if marker:
                current_file = marker.group(2)
            continue  # line markers and surviving #pragma lines carry no declarations
        for match in TOKEN_RE.finditer(line):
            if match.lastgroup != 'ws':
                yield match.group(), current_file


def strip_attributes(tokens):
    """Remove __attribute__((...)), __declspec(...) and [[...]] token groups."""
    out, i = [], 0
    while i < len(tokens):
        tok = tokens[i]
        if tok in ('__attribute__', '__declspec') and i + 1 < len(tokens) and tokens[i + 1] == '(':
            i = skip_balanced(tokens, i + 1, '(', ')')
            continue
        if tok == '[' and i + 1 < len(tokens) and tokens[i + 1] == '[':
            depth = 0
            while i < len(tokens):
                depth += {'[': 1, ']': -1}.get(tokens[i], 0)
                i += 1
                if depth == 0:
                    break
            continue
        out.append(tok)
        i += 1
    return out


def skip_balanced(tokens, i, open_tok, close_tok):
    """tokens[i] is open_tok; return the index just after its matching close_tok."""
    depth = 0
    while i < len(tokens):
        if tokens[i] == open_tok:
            depth += 1
        elif tokens[i] == close_tok:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError('unbalanced ' + open_tok)


def split_top_level(tokens, separator):
    parts, current, depth = [], [], 0
    for tok in tokens:
        if tok in ('(', '[', '{'):
            depth += 1
        elif tok in (')', ']', '}'):
            depth -= 1
        if tok == separator and depth == 0:
            parts.append(current)
            current = []
        else:
            current.append(tok)
    parts.append(current)
    return parts


def parse_function(statement):
    """Return (return_type, name, params) for a function declaration statement, else None."""
    tokens = strip_attributes(statement)
    while tokens and tokens[0] in ('extern', '"C"'):
        tokens = tokens[1:]
    if not tokens or tokens[0] in NOT_FUNCTION_STARTS or '(' not in tokens:
        return None
    paren = tokens.index('(')
    if paren == 0 or not re.match(r'[A-Za-z_]\w*$', tokens[paren - 1]):
        return None  # e.g. a function pointer variable: type (*name)(...)
    if paren + 1 < len(tokens) and tokens[paren + 1] in ('*', '&', '^'):
        return None
    name = tokens[paren - 1]
    if name == 'operator' or (paren >= 2 and tokens[paren - 2] in ('::', 'operator')):
        return None
    return_type = [t for t in tokens[:paren - 1] if t not in DROP_FROM_RETURN_TYPE]
    end = skip_balanced(tokens, paren, '(', ')')
    params = tokens[paren + 1:end - 1]
    if not return_type:
        return None
    return return_type, name, params


def collect_c_functions(token_stream, hip_dir):
    """Return ({name: (ret, params)} declared with C linkage, {names defined inline})."""
    declared, inline_defined = {}, set()
    scopes = []          # one entry per open brace: 'externC', 'namespace' or 'other'
    statement, files = [], []
    tokens = list(token_stream)
    texts = [t for t, _ in tokens]
    i = 0

    def in_hip(file_list):
        return any(f.startswith(hip_dir) for f in file_list)

    def c_linkage(stmt):
        if 'namespace' in scopes:
            return False  # C linkage but a namespaced name: not something JNI binds by name
        if stmt[:2] == ['extern', '"C"']:
            return True
        if stmt[:2] == ['extern', '"C++"']:
            return False
        linkage = [s for s in scopes if s in ('externC', 'externCxx')]
        return bool(linkage) and linkage[-1] == 'externC'

    while i < len(tokens):
        tok, src = tokens[i]
        if tok == '{':
            if statement in (['extern', '"C"'], ['extern', '"C++"']):
                scopes.append('externC' if statement[1] == '"C"' else 'externCxx')
                statement, files = [], []
                i += 1
                continue
            if statement and statement[0] == 'namespace':
                scopes.append('namespace')
                statement, files = [], []
                i += 1
                continue
            if is_function_body(statement):
                # An inline or template definition: remember it and skip its body.
                parsed = parse_function(statement)
                if parsed and in_hip(files) and c_linkage(statement):
                    inline_defined.add(parsed[1])
                i = skip_balanced(texts, i, '{', '}')
                statement, files = [], []
                continue
            # struct/enum/union body or brace initialiser: skip, the statement goes on to its ';'.
            i = skip_balanced(texts, i, '{', '}')
            statement.append('{...}')
            continue
        if tok == '}':
            if scopes:
                scopes.pop()
            statement, files = [], []
            i += 1
            continue
        if tok == ';':
            if statement and in_hip(files) and c_linkage(statement):
                parsed = parse_function(statement)
                if parsed and '=' not in statement[:statement.index('(')]:
                    ret, name, params = parsed
                    declared.setdefault(name, (ret, params))
            statement, files = [], []
            i += 1
            continue
        statement.append(tok)
        files.append(src)
        i += 1
    return declared, inline_defined


def strip_template_header(tokens):
    """Drop a leading 'template <...>' so its 'class T' is not mistaken for a class body."""
    if tokens[:2] != ['template', '<']:
        return tokens
    depth = 0
    for i, tok in enumerate(tokens[1:], start=1):
        depth += {'<': 1, '>': -1}.get(tok, 0)
        if depth == 0:
            return tokens[i + 1:]
    return tokens


def is_function_body(statement):
    """True when a '{' after this statement opens a function body (not a type or initialiser)."""
    tokens = strip_template_header(strip_attributes(statement))
    if not tokens or tokens[-1] == '=' or tokens[0] == 'typedef' or ')' not in tokens:
        return False
    before_paren = tokens[:tokens.index('(')] if '(' in tokens else tokens
    return not any(t in ('struct', 'class', 'union', 'enum') for t in before_paren)


def implemented_names(paths):
    names = set()
    for path in paths:
        with open(path, encoding='utf-8') as f:
            names.update(IMPL_MARKER_RE.findall(f.read()))
    return names


def parameter_list_without_defaults(params):
    if not params:
        return ''
    pieces = []
    for param in split_top_level(params, ','):
        if '=' in param:
            param = param[:param.index('=')]
        pieces.append(' '.join(param))
    return ', '.join(pieces)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--compiler', required=True)
    ap.add_argument('--include-dir', required=True)
    ap.add_argument('--stubs-out', required=True)
    ap.add_argument('--declared-out', required=True)
    ap.add_argument('--impl', nargs='*', default=[])
    args = ap.parse_args()

    hip_dir = os.path.join(os.path.realpath(args.include_dir), 'hip') + os.sep
    text = preprocess(args.compiler, args.include_dir)
    # Line markers may use the -I spelling rather than the real path; normalise both.
    raw_dir = os.path.join(args.include_dir, 'hip') + os.sep
    token_stream = ((t, os.path.realpath(f) if f.startswith(raw_dir) else f)
                    for t, f in tokenize(text))
    declared, inline_defined = collect_c_functions(token_stream, hip_dir)
    for name in inline_defined:
        declared.pop(name, None)
    if len(declared) < 300:
        sys.exit('gen_hip_stubs: only %d functions found; parser out of step with header'
                 % len(declared))

    implemented = implemented_names(args.impl)
    unknown = sorted(implemented - set(declared))
    if unknown:
        sys.exit('gen_hip_stubs: hand-implemented but not declared by the header: '
                 + ', '.join(unknown))

    lines = [
        '// GENERATED by gen_hip_stubs.py from hip_runtime_api.h -- do not edit.',
        '// Every C-linkage function the header declares and src/*.cpp does not implement:',
        '// it records hipErrorNotSupported as the last error and returns it (or a neutral value).',
        '#include "not_supported.hpp"',
        '',
        '#pragma GCC diagnostic ignored "-Wunused-parameter"',
        '#pragma GCC diagnostic ignored "-Wdeprecated-declarations"',
        '',
    ]
    stubbed = 0
    for name in sorted(declared):
        if name in implemented:
            continue
        ret, params = declared[name]
        ret_text = ' '.join(ret)
        lines.append('HIP_EMU_API %s %s(%s) {\n  return hip_emu::not_supported<%s>("%s");\n}'
                     % (ret_text, name, parameter_list_without_defaults(params), ret_text, name))
        stubbed += 1
    with open(args.stubs_out, 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines) + '\n')
    with open(args.declared_out, 'w', encoding='utf-8') as f:
        f.write('\n'.join(sorted(declared)) + '\n')
    print('gen_hip_stubs: %d declared, %d hand-implemented, %d stubbed'
          % (len(declared), len(implemented), stubbed))


if __name__ == '__main__':
    main()
