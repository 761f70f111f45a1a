#!/usr/bin/env python3
"""Check that libhip_cpu_emu.so exports the HIP functions a JNI library may reference.

Without --reference: every C-linkage function declared by hip_runtime_api.h must be exported.
With --reference LIB: every declared function that the real libamdhip64 exports must be exported
(and the differences between the declared and the real sets are printed for information).
An empty --reference means "no reference library configured": exit 77 (ctest SKIP).
Either way, a function exported beyond the declared set must carry a documented private prefix
(--private-prefix, e.g. rocshmem_emu_wi_ for the kernel engine's work-item ABI).
"""
import argparse
import subprocess
import sys


def exported_functions(nm, library):
    out = subprocess.run([nm, '-D', '--defined-only', library], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    names = set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 3 and fields[1] in ('T', 'W', 'i'):
            names.add(fields[2].split('@')[0])
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--nm', default='nm')
    ap.add_argument('--library', required=True)
    ap.add_argument('--declared', required=True)
    ap.add_argument('--reference')
    ap.add_argument('--private-prefix', action='append', default=[],
                    help='prefix of documented private exports (repeatable)')
    args = ap.parse_args()

    with open(args.declared, encoding='utf-8') as f:
        declared = {line.strip() for line in f if line.strip()}
    ours = exported_functions(args.nm, args.library)

    if args.reference is None:
        required = declared
        print('declared C-linkage functions in hip_runtime_api.h: %d' % len(declared))
    elif args.reference == '':
        print('no reference libamdhip64 configured (HIP_REFERENCE_LIBRARY); skipping')
        return 77
    else:
        real = exported_functions(args.nm, args.reference)
        required = declared & real
        print('declared: %d, exported by the real library: %d, both: %d'
              % (len(declared), len(real), len(required)))
        print('declared but not exported by the real library: %s'
              % (', '.join(sorted(declared - real)) or '-'))
        print('exported by the real library but not declared in hip_runtime_api.h: %d'
              % len(real - declared))

    undeclared = sorted(ours - declared)
    stray = [name for name in undeclared if not name.startswith(tuple(args.private_prefix))]
    if args.private_prefix:
        print('private exports (%s): %s' % (', '.join(args.private_prefix),
                                             ', '.join(n for n in undeclared if n not in stray) or '-'))
        if stray:
            print('UNDOCUMENTED exports of libhip_cpu_emu (%d): %s' % (len(stray), ', '.join(stray)))
            return 1

    missing = sorted(required - ours)
    print('exported by libhip_cpu_emu: %d functions (%d of them not declared by the header)'
          % (len(ours), len(ours - declared)))
    if missing:
        print('MISSING from libhip_cpu_emu (%d):' % len(missing))
        for name in missing:
            print('  ' + name)
        return 1
    print('OK: all %d required functions are exported' % len(required))
    return 0


if __name__ == '__main__':
    sys.exit(main())
