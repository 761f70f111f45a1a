#!/bin/bash
# devruns driver: GPU cross-check (dev/check-on-nvidia.sh gpu) then the emulator scale benchmark (C rows).
set -u
cd "$(dirname "$0")/.."
X=$PWD/.xfer-dev
log=$OUT/log.txt
{
echo "== machine"; nproc; sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1; cat /proc/loadavg
nvidia-smi --query-gpu=name,driver_version,compute_mode,mig.mode.current --format=csv,noheader
nvidia-smi -q | grep -i -A1 "MPS\|compute mode" | head; date -u
echo "== gpu crosscheck"; s=$(date +%s)
XC_PES="2 4" bash dev/check-on-nvidia.sh gpu /tmp/xc
echo "gpu rc=$? in $(( $(date +%s) - s )) s"
(cd /tmp/xc && tar czf $OUT/gpu.tgz gpu.tsv gpu-versions.txt gpu-build/*.log)
echo "== scale"; s=$(date +%s)
B=$X/emu/bin; R=/tmp/scale; mkdir -p $R/raw $R/barrier
export ROCSHMEM_HEAP_SIZE=268435456
for n in 1 2 4 8 16; do
  t=$(date +%s)
  $B/rocshmem-emu-run -n $n --timeout 300 -- $B/rocshmem-emu-scale > $R/raw/pes-$n.txt 2>&1
  echo "scale $n PEs rc=$? rows=$(grep -c 'RESULT scale' $R/raw/pes-$n.txt) in $(( $(date +%s) - t )) s"
  (cd $R && tar czf $OUT/scale.tgz raw barrier)
done
for r in 1 2 3; do for n in 2 8 16; do
  $B/rocshmem-emu-run -n $n --timeout 120 -- $B/rocshmem-emu-bench --barrier-only > $R/barrier/final-$n-$r.txt 2>&1
  echo "barrier $n PEs round $r rc=$? $(grep -o 'median_us=[0-9.]*' $R/barrier/final-$n-$r.txt)"
done; done
(cd $R && tar czf $OUT/scale.tgz raw barrier)
echo "scale total $(( $(date +%s) - s )) s"; cat /proc/loadavg; date -u
} 2>&1 | tee $log
