#!/bin/bash
# Real-GPU cross-check: the project's kernels on an NVIDIA GPU (through NVSHMEM) and on the
# emulator, with 2 and 4 PEs, verdicts side by side. A maintainer check, not CI (CI has no GPU).
#
#   dev/check-on-nvidia.sh emu  [OUT]   build dev/crosscheck for the emulator, run every case at each wave size
#                                       -> OUT/emu-wave64.tsv, OUT/emu-wave32.tsv
#   dev/check-on-nvidia.sh gpu  [OUT]   build it for the GPU (nvcc, NVSHMEM), run every case -> OUT/gpu.tsv
#   dev/check-on-nvidia.sh table EMU.tsv... GPU.tsv   the comparison as a Markdown table (stdout): a column per
#                                       emulator file (named by its emu-waveN.tsv), the GPU's last
#   dev/check-on-nvidia.sh all  [OUT]   emu, then gpu, then the table (a machine that has both)
#
# The cases (dev/crosscheck/crosscheck.cpp, `crosscheck --list`): the samples' kernels, kernels of the
# emulator's and the Java tests, and dev/crosscheck/kernels.hip (correct ones and deliberately
# buggy ones). Each PE checks its own results; a case PASSes when every PE exits 0, FAILs when one
# reports wrong data or the job ends otherwise, and HANGs when it outlives XC_TIMEOUT seconds.
# On the GPU, dev/nvidia/ maps HIP onto CUDA and rocSHMEM onto NVSHMEM 3.4
# (rocshmem_on_nvshmem.hpp); N processes share the one GPU, bootstrapped with a unique id.
#
# Environment: XC_PES (default "2 4"), XC_WAVES (the emulator's ROCSHMEM_EMU_WAVE_SIZE values, default
# "64 32": 64 is CDNA's wave, 32 the fair match for a 32-lane NVIDIA warp), XC_TIMEOUT (seconds per job,
# default 30), XC_CASES (a subset), ROCSHMEM_EMU_PREFIX (emulator install, default
# rocshmem/cppbuild/linux-x86_64-emu, from `bash cppbuild.sh -extension=-emu install rocshmem`),
# NVSHMEM_HOME (default: found in a Python site-packages as nvidia/nvshmem), NVCC (default nvcc),
# XC_ARCH (default sm_90).
set -uo pipefail

TOP="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PES="${XC_PES:-2 4}"
TIMEOUT="${XC_TIMEOUT:-30}"
SRC="$TOP/dev/crosscheck/crosscheck.cpp"

die() { echo "check-on-nvidia: $*" >&2; exit 2; }

cases_of() {  # binary -> "name kind" lines, filtered by XC_CASES
  "$1" --list | while read -r name kind; do
    if [ -z "${XC_CASES:-}" ] || [[ " $XC_CASES " == *" $name "* ]]; then echo "$name $kind"; fi
  done
}

# verdict <rc list> <log>: PASS, HANG or FAIL, and the first line that says why.
verdict() {
  local rcs="$1" log="$2" why
  why="$(grep -m1 -E 'FAIL|rror|emulator:|abort|Abort' "$log" | tr '\t' ' ' | cut -c1-160)"
  if [[ " $rcs " == *" 124 "* || " $rcs " == *" 137 "* ]]; then echo -e "HANG\t${why:-killed after ${TIMEOUT}s}"
  elif [[ -z "$(echo "$rcs" | tr -d ' 0')" ]]; then echo -e "PASS\t"
  else echo -e "FAIL\t${why:-exit status $rcs}"; fi
}

run_emu() {
  local out="$1" prefix="${ROCSHMEM_EMU_PREFIX:-$TOP/rocshmem/cppbuild/linux-x86_64-emu}"
  [ -x "$prefix/bin/rocshmem-emu-run" ] || die "no emulator install in $prefix (bash cppbuild.sh -extension=-emu install rocshmem)"
  mkdir -p "$out/emu-build"
  local bin="$out/emu-build/crosscheck"
  echo "check-on-nvidia: building for the emulator ($prefix)" >&2
  ${CXX:-g++} -std=c++17 -O1 -Wall -Wno-attributes -Wno-deprecated-declarations \
    -I "$prefix/include/rocshmem-emu-kernel" -I "$prefix/include" \
    "$SRC" -o "$bin" -L "$prefix/lib" -lrocshmem_cpu_emu -lhip_cpu_emu -lpthread -Wl,-rpath,"$prefix/lib" \
    || die "emulator build failed"
  local wave
  for wave in ${XC_WAVES:-64 32}; do
    echo "check-on-nvidia: emulator, ROCSHMEM_EMU_WAVE_SIZE=$wave" >&2
    : > "$out/emu-wave$wave.tsv"
    cases_of "$bin" | while read -r name kind; do
      for n in $PES; do
        local log="$out/emu-build/$name.$n.wave$wave.log"
        ROCSHMEM_EMU_WAVE_SIZE=$wave timeout $((TIMEOUT + 10)) "$prefix/bin/rocshmem-emu-run" -n "$n" \
          --timeout "$TIMEOUT" -- "$bin" "$name" > "$log" 2>&1
        local rc=$?  # rocshmem-emu-run: 124 on its --timeout, else the first failing PE's status
        echo -e "$name\t$kind\t$n\t$(verdict "$rc" "$log")" | tee -a "$out/emu-wave$wave.tsv" >&2
      done
    done
  done
}

find_nvshmem() {
  if [ -n "${NVSHMEM_HOME:-}" ]; then echo "$NVSHMEM_HOME"; return; fi
  local py lib
  for py in python3 /usr/bin/python3 /usr/local/bin/python3 /opt/conda/bin/python3; do
    command -v "$py" > /dev/null || continue
    for site in $("$py" -c 'import site,sys;print(" ".join(site.getsitepackages()+[site.getusersitepackages()]))' 2>/dev/null); do
      lib="$(find "$site" -path '*nvidia/nvshmem/lib/libnvshmem_host.so.3' 2>/dev/null | head -1)"
      if [ -n "$lib" ]; then dirname "$(dirname "$lib")"; return; fi
    done
  done
  lib="$(find / -xdev -path '*nvidia/nvshmem/lib/libnvshmem_host.so.3' 2>/dev/null | head -1)"
  [ -n "$lib" ] && dirname "$(dirname "$lib")"
}

run_gpu() {
  local out="$1" nvshmem nvcc="${NVCC:-nvcc}"
  nvshmem="$(find_nvshmem)"
  [ -n "$nvshmem" ] || die "NVSHMEM not found (set NVSHMEM_HOME to the directory holding include/ and lib/)"
  command -v "$nvcc" > /dev/null || die "no nvcc"
  mkdir -p "$out/gpu-build/lib"
  ln -sf "$nvshmem/lib/libnvshmem_host.so.3" "$out/gpu-build/lib/libnvshmem_host.so"  # nvcc refuses .so.3
  local bin="$out/gpu-build/crosscheck"
  echo "check-on-nvidia: building for the GPU (NVSHMEM $nvshmem)" >&2
  "$nvcc" -x cu -std=c++17 -O2 -rdc=true -arch="${XC_ARCH:-sm_90}" -DXC_NVIDIA \
    -I "$TOP/dev/nvidia/include" -I "$nvshmem/include" -c "$SRC" -o "$out/gpu-build/crosscheck.o" \
    || die "GPU compile failed"
  "$nvcc" -rdc=true -arch="${XC_ARCH:-sm_90}" "$out/gpu-build/crosscheck.o" -o "$bin" \
    -L "$out/gpu-build/lib" -L "$nvshmem/lib" -lnvshmem_device -lnvshmem_host -Xlinker -rpath,"$nvshmem/lib" \
    || die "GPU link failed"
  {
    nvidia-smi --query-gpu=name,driver_version,compute_mode --format=csv,noheader 2>/dev/null | head -1
    "$nvcc" --version | tail -1
    grep -h 'define NVSHMEM_VENDOR_\(MAJOR\|MINOR\|PATCH\)_VERSION' "$nvshmem"/include/non_abi/nvshmem_version.h 2>/dev/null \
      | awk '{v = v (v ? "." : "") $3} END {print "NVSHMEM " v}'
  } > "$out/gpu-versions.txt"
  export LD_LIBRARY_PATH="$nvshmem/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export NVSHMEM_BOOTSTRAP_UID_SOCK_IFNAME=lo NVSHMEM_REMOTE_TRANSPORT=none NVSHMEM_DISABLE_NCCL=1 \
         NVSHMEM_DISABLE_NVLS=1 NVSHMEM_SYMMETRIC_SIZE="${NVSHMEM_SYMMETRIC_SIZE:-268435456}"
  : > "$out/gpu.tsv"
  cases_of "$bin" | while read -r name kind; do
    for n in $PES; do
      local log="$out/gpu-build/$name.$n.log" uid="$out/gpu-build/uid.$name.$n" pids=() rcs=""
      rm -f "$uid" "$uid.tmp"; : > "$log"
      for ((r = 0; r < n; r++)); do
        ROCSHMEM_XC_RANK=$r ROCSHMEM_XC_NPES=$n ROCSHMEM_XC_UID_FILE="$uid" \
          timeout -k 5 "$TIMEOUT" "$bin" "$name" >> "$log" 2>&1 &
        pids+=($!)
      done
      for p in "${pids[@]}"; do wait "$p"; rcs="$rcs $?"; done
      echo -e "$name\t$kind\t$n\t$(verdict "$rcs" "$log")" | tee -a "$out/gpu.tsv" >&2
    done
  done
}

table() {  # EMU.tsv... GPU.tsv
  python3 - "$@" <<'PY2'
import os, re, sys
def load(path):
    rows = {}
    for line in open(path):
        f = line.rstrip('\n').split('\t')
        if len(f) >= 4:
            rows[(f[0], f[2])] = (f[1], f[3], f[4] if len(f) > 4 else '')
    return rows
def label(path):
    m = re.search(r'wave(\d+)', os.path.basename(path))
    return 'emulator, wave %s' % m.group(1) if m else 'emulator (%s)' % os.path.basename(path)
emus = [(label(p), load(p)) for p in sys.argv[1:-1]]
gpu = load(sys.argv[-1])
order = list(dict.fromkeys(k[0] for _, rows in emus + [('', gpu)] for k in rows))
keys = sorted({k for _, rows in emus for k in rows} | set(gpu), key=lambda k: (order.index(k[0]), int(k[1])))
def cell(v):
    why = v[2].replace('|', '/')
    why = why[:77] + '...' if len(why) > 80 else why
    return v[1] + (' (%s)' % why if why and v[1] != 'PASS' else '')
print('| kernel | kind | PEs | ' + ' | '.join(l for l, _ in emus) + ' | GPU | same verdict as the GPU |')
print('|---|---|---|' + '---|' * len(emus) + '---|---|')
agree = {}
for k in keys:
    kind = next(rows[k][0] for rows in [r for _, r in emus] + [gpu] if k in rows)
    g = gpu.get(k, (kind, 'not run', ''))
    cells, same = [], []
    for l, rows in emus:
        e = rows.get(k, (kind, 'not run', ''))
        cells.append(cell(e))
        ok = e[1] == g[1]
        same.append('yes' if ok else '**no**')
        a = agree.setdefault((kind, l), [0, 0])
        a[0] += ok
        a[1] += 1
    print('| %s | %s | %s | %s | %s | %s |' % (k[0], kind, k[1], ' | '.join(cells), cell(g), ' / '.join(same)))
print()
for (kind, l), (a, n) in agree.items():
    print('%s kernels, %s: %d of %d runs give the same verdict as the GPU.' % (kind, l, a, n))
PY2
}

mode="${1:-}"
case "$mode" in
  emu) run_emu "${2:-$TOP/target/gpu-crosscheck}" ;;
  gpu) run_gpu "${2:-$TOP/target/gpu-crosscheck}" ;;
  table) [ $# -ge 3 ] || die "usage: $0 table EMU.tsv... GPU.tsv"; shift; table "$@" ;;
  all)
    out="${2:-$TOP/target/gpu-crosscheck}"
    emus=(); for w in ${XC_WAVES:-64 32}; do emus+=("$out/emu-wave$w.tsv"); done
    run_emu "$out" && run_gpu "$out" && table "${emus[@]}" "$out/gpu.tsv" ;;
  *) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
