#!/bin/bash
# The emulator's scaling benchmark (bench/README.md, "Scaling"): rocshmem-emu-scale at 1, 2, 4, 8 and 16 PEs,
# then bench/scale_report.py writes the table.
#
#   bench/scale.sh               every PE count (on fewer CPUs than PEs the PEs share them, and it shows),
#                                writes bench/results/emu-scale-<CPUs>.md
#   bench/scale.sh --smoke       seconds: 1 and 2 PEs with tiny counts; checks that every row ran and every
#                                result was right (timings not judged), report in bench/target/scale-smoke/
#   options: --pes "1 2 4" (PE counts), --out FILE, --no-java
# Uses the installed emulator (bash cppbuild.sh -extension=-emu install rocshmem builds it) and, where java and
# the bench module's build are there (bench/run.sh builds it), the Java rows: org.rocshmem.bench.ScaleMain, one JVM
# per PE through the project's launcher.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top"

mode=full
pes="1 2 4 8 16"
out=""
java_rows=1
while [[ $# -gt 0 ]]; do
    case "$1" in
        --smoke) mode=smoke ;;
        --pes) pes="${2:?--pes needs a list}"; shift ;;
        --out) out="${2:?--out needs a file}"; shift ;;
        --no-java) java_rows=0 ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "bench/scale.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

bin="$top/rocshmem/cppbuild/linux-x86_64-emu/bin"
for tool in rocshmem-emu-run rocshmem-emu-scale; do
    [[ -x "$bin/$tool" ]] || { echo "bench/scale.sh: $bin/$tool is missing; run bash cppbuild.sh -extension=-emu install rocshmem" >&2; exit 1; }
done

if [[ $mode == smoke ]]; then
    [[ "$pes" == "1 2 4 8 16" ]] && pes="1 2"
    work="$top/bench/target/scale-smoke"; args=(--quick); timeout=60
    out="${out:-$work/emu-scale-smoke.md}"
else
    work="$top/bench/target/scale"; args=(); timeout=600
    out="${out:-$top/bench/results/emu-scale-$(nproc).md}"
fi
rm -rf "$work"
mkdir -p "$work/raw"

expected=""
for n in $pes; do
    echo "bench/scale.sh: $n PE(s)"
    "$bin/rocshmem-emu-run" -n "$n" --timeout "$timeout" -- "$bin/rocshmem-emu-scale" "${args[@]}" \
        > "$work/raw/pes-$n.txt" 2>&1 || { cat "$work/raw/pes-$n.txt" >&2; echo "bench/scale.sh: $n PEs failed" >&2; exit 1; }
    rows=$(grep -c "RESULT scale" "$work/raw/pes-$n.txt" || true)
    expected=${expected:-$rows}
    if [[ "$rows" -lt 19 || "$rows" != "$expected" ]]; then
        echo "bench/scale.sh: $n PEs produced $rows rows (expected ${expected}, at least 19)" >&2; exit 1
    fi
done

# The Java rows: the same PE counts, each PE its own JVM (bench/run.sh's properties: the -emu variant, a JavaCPP
# cache in the build tree).
if [[ $java_rows == 1 ]] && command -v java >/dev/null && [[ -e bench/target/rocshmem-bench.jar && -e bench/target/classpath.txt ]]; then
    cp="$top/bench/target/rocshmem-bench.jar:$(cat bench/target/classpath.txt)"
    for n in $pes; do
        echo "bench/scale.sh: Java, $n PE(s)"
        java -Dorg.bytedeco.javacpp.platform.extension=-emu \
            "-Dorg.bytedeco.javacpp.cachedir=$top/bench/target/javacpp-cache" -cp "$cp" org.rocshmem.api.launch.Launcher \
            --nproc "$n" --timeout "$timeout" -- org.rocshmem.bench.ScaleMain "${args[@]}" > "$work/raw/java-$n.txt" 2>&1 \
            || { cat "$work/raw/java-$n.txt" >&2; echo "bench/scale.sh: Java at $n PEs failed" >&2; exit 1; }
        rows=$(grep -c "RESULT scale" "$work/raw/java-$n.txt" || true)
        [[ "$rows" -ge 7 ]] || { echo "bench/scale.sh: Java at $n PEs produced $rows rows (expected 7)" >&2; exit 1; }
    done
elif [[ $java_rows == 1 ]]; then
    echo "bench/scale.sh: no Java rows (java or bench/target/rocshmem-bench.jar missing; bench/run.sh builds it)"
fi

commit=unknown
if git rev-parse --git-dir >/dev/null 2>&1; then
    commit="$(git rev-parse --short=12 HEAD)"
    [[ -n "$(git status --porcelain -- rocshmem/emu bench/scale.sh bench/scale_report.py)" ]] && commit="$commit (with uncommitted changes)"
fi
cpu=$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n1)
python3 bench/scale_report.py --raw "$work/raw" --out "$out" --commit "$commit" \
    --machine "$(nproc) CPUs ($cpu), load average $(cut -d' ' -f1-3 /proc/loadavg) at the end" \
    --date "$(date -u '+%Y-%m-%d %H:%M UTC')"
