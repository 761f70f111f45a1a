#!/usr/bin/env python3
"""Compile and run the README's example: the code blocks after `<!-- file: NAME -->` markers.

saxpy.hip goes through rocshmem-emu-hipcc, host.cpp through the C++ compiler against the build
tree; the host program then runs with the code object and must exit 0.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--readme', required=True)
    ap.add_argument('--hipcc', required=True)
    ap.add_argument('--cxx', required=True)
    ap.add_argument('--include', action='append', default=[])
    ap.add_argument('--lib', action='append', default=[])
    args = ap.parse_args()
    text = open(args.readme, encoding='utf-8').read()
    blocks = dict(re.findall(r'<!-- file: (\S+) -->\s*```cpp\n(.*?)```', text, re.S))
    if set(blocks) != {'saxpy.hip', 'host.cpp'}:
        print('README example blocks found: %s' % sorted(blocks))
        return 1
    work = tempfile.mkdtemp(prefix='kernel-readme-')
    for name, code in blocks.items():
        with open(os.path.join(work, name), 'w') as f:
            f.write(code)
    includes = sum((['-I', d] for d in args.include), [])
    emu_includes = sum((['--emu-include', d] for d in args.include), [])
    emu_libs = sum((['--emu-lib', d] for d in args.lib), [])
    emuco = os.path.join(work, 'saxpy.emuco')
    host = os.path.join(work, 'host')
    steps = [
        [sys.executable, args.hipcc, os.path.join(work, 'saxpy.hip'), '-o', emuco] + emu_includes + emu_libs,
        [args.cxx, '-std=c++17', '-Wall', '-Werror', '-Wno-attributes'] + includes +
        [os.path.join(work, 'host.cpp'), '-o', host] + sum((['-L', d, '-Wl,-rpath,' + d] for d in args.lib), []) +
        ['-lhip_cpu_emu'],
        [host, emuco],
    ]
    for step in steps:
        result = subprocess.run(step, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        sys.stdout.write(result.stdout)
        if result.returncode != 0:
            print('FAIL (%d): %s' % (result.returncode, ' '.join(step)))
            return 1
    with open(emuco, 'rb') as f:
        header = f.read(1000).decode('latin-1')
    for line in ('ROCSHMEM-EMU-CODE-OBJECT 2', 'kernel saxpy params=4 sizes=4,8,8,4 aligns=4,8,8,4',
                 'param 2 x pointer const float*', 'param 4 n value int', 'global calls size=4'):
        if line not in header or line not in text:
            print('FAIL: the header line "%s" is not both in the code object and in the README' % line)
            return 1
    print('PASS README example')
    return 0


if __name__ == '__main__':
    sys.exit(main())
