#!/bin/bash
# Runs the benchmarks of the Java layers on the CPU emulator and writes the report (bench/README.md).
#
#   bench/run.sh                 build what is missing or stale, run everything (a few minutes),
#                                write bench/results/emu-2pe.md
#   bench/run.sh --smoke         seconds: every benchmark once with tiny iteration counts, then check that
#                                each produced a result and that the typed hot paths allocate 0 B/op
#                                (report in bench/target/bench-smoke/, timings not judged)
#   options: --no-build (use what is built), --rounds N (default 3)
#
# Steps: the emulator (cppbuild) and the rocshmem module are rebuilt only when their sources are newer
# than the build; the bench module is always rebuilt. Then 2 PEs (one JVM each, started by the project's
# launcher) run the JMH plan, fresh PE JVMs run each steady-state curve, the C driver measures the
# emulator's own ceiling at 2, 4 and 8 PEs, and ReportMain writes the markdown table.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top"

mode=full
build=1
rounds=3
while [[ $# -gt 0 ]]; do
    case "$1" in
        --smoke) mode=smoke ;;
        --no-build) build=0 ;;
        --rounds) rounds="${2:?--rounds needs a number}"; shift ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) echo "bench/run.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "bench/run.sh: --rounds must be a positive integer" >&2; exit 2; }

emu="$top/rocshmem/cppbuild/linux-x86_64-emu"
version=$(sed -n 's:.*<rocshmem.version>\(.*\)</rocshmem.version>.*:\1:p' bench/pom.xml)
emu_jar="$top/downloads/m2/org/rocshmem/rocshmem/$version/rocshmem-$version-linux-x86_64-emu.jar"
maven_emu=(-Djavacpp.platform.extension=-emu -Djavacpp.cppbuild.skip=true -DskipTests)

# True when a file under the given paths is newer than $1 (or $1 is missing).
stale() {
    local target="$1"; shift
    [[ ! -e "$target" ]] && return 0
    [[ -n "$(find "$@" -type f -newer "$target" -print -quit 2>/dev/null)" ]]
}

if [[ $build == 1 ]]; then
    dev/setup-debian.sh
    if stale "$emu/lib/librocshmem_cpu_emu.so" rocshmem/emu rocshmem/manifest \
            || [[ ! -x "$emu/bin/rocshmem-emu-bench" ]]; then
        echo "bench/run.sh: building the emulator"
        bash cppbuild.sh -extension=-emu install rocshmem
    fi
    if stale "$emu_jar" rocshmem/src rocshmem/manifest rocshmem/pom.xml pom.xml "$emu/lib"; then
        echo "bench/run.sh: building the rocshmem module (-emu)"
        dev/mvn.sh -q -pl rocshmem install "${maven_emu[@]}"
    fi
    echo "bench/run.sh: building the bench module"
    dev/mvn.sh -q -pl bench install "${maven_emu[@]}"
fi
for needed in bench/target/rocshmem-bench.jar bench/target/classpath.txt "$emu/bin/rocshmem-emu-bench"; do
    [[ -e "$needed" ]] || { echo "bench/run.sh: $needed is missing; run without --no-build" >&2; exit 1; }
done

if [[ $mode == smoke ]]; then
    work="$top/bench/target/bench-smoke"
    out="$work/emu-2pe-smoke.md"
    plan=smoke; steady=steady-smoke; timeout=600
else
    work="$top/bench/target/bench-run"
    out="$top/bench/results/emu-2pe.md"
    plan=full; steady=steady; timeout=1800
fi
rm -rf "$work"
mkdir -p "$work/logs"

cp="$top/bench/target/rocshmem-bench.jar:$(cat bench/target/classpath.txt)"
# Every PE JVM inherits these (the launcher forwards -Dorg.bytedeco.*): the emulator variant, and a JavaCPP
# cache inside the build tree.
props=(-Dorg.bytedeco.javacpp.platform.extension=-emu "-Dorg.bytedeco.javacpp.cachedir=$top/bench/target/javacpp-cache")
# The benchmarks measure what the Java layers add over C, not the emulator's completion model: immediate delivery
# keeps the rows comparable with earlier reports (deferred completion, the emulator's default, queues every put and
# adds its own cost and variance to all three variants alike).
export ROCSHMEM_EMU_COMPLETION="${ROCSHMEM_EMU_COMPLETION:-immediate}"
# launch TIMEOUT [--jvm-arg ARG]... BenchMain-options...
launch() {
    local timeout=$1; shift
    local jvm=()
    while [[ "${1:-}" == --jvm-arg ]]; do jvm+=(--jvm-arg "$2"); shift 2; done
    java "${props[@]}" -cp "$cp" org.rocshmem.api.launch.Launcher --nproc 2 --timeout "$timeout" \
        --jvm-arg -Xms512m --jvm-arg -Xmx512m "${jvm[@]}" -- org.rocshmem.bench.BenchMain "$@"
}

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
echo "bench/run.sh: $mode run, load average $load_start on $(nproc) CPUs"
launch "$timeout" --plan "$plan" --rounds "$([[ $mode == smoke ]] && echo 1 || echo "$rounds")" \
    --records "$work/rounds.tsv" --logs "$work/logs"
# -Xbatch curves: each method waits for its own compilation, so they count calls, not compile-queue latency.
xbatch=(--jvm-arg -Xbatch)
if [[ $mode == smoke ]]; then
    launch 600 --plan "$steady" --records "$work/steady.tsv" --logs "$work/logs"
    launch 600 "${xbatch[@]}" --plan "$steady" --curves typed_p,empty_native --records "$work/steady-xbatch.tsv" \
        --logs "$work/logs"
else
    # Each warm-up curve in fresh PE JVMs, so every one starts cold.
    for curve in typed_p empty_native typed_putmem_8B raw_p; do
        launch 600 --plan "$steady" --curves "$curve" --records "$work/steady-$curve.tsv" --logs "$work/logs"
    done
    for curve in typed_p empty_native; do
        launch 600 "${xbatch[@]}" --plan "$steady" --curves "$curve" --records "$work/steady-xbatch-$curve.tsv" \
            --logs "$work/logs"
    done
fi

echo "bench/run.sh: the emulator's own ceiling (C driver)"
if [[ $mode == smoke ]]; then
    "$emu/bin/rocshmem-emu-run" -n 2 --timeout 120 -- "$emu/bin/rocshmem-emu-bench" --quick > "$work/emu-2pe.txt"
else
    "$emu/bin/rocshmem-emu-run" -n 2 --timeout 300 -- "$emu/bin/rocshmem-emu-bench" > "$work/emu-2pe.txt"
    for pes in 4 8; do
        "$emu/bin/rocshmem-emu-run" -n "$pes" --timeout 300 -- "$emu/bin/rocshmem-emu-bench" --barrier-only \
            > "$work/emu-${pes}pe.txt"
    done
fi
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

commit=unknown
if git rev-parse --git-dir >/dev/null 2>&1; then
    commit="$(git rev-parse --short=12 HEAD)"
    if [[ -n "$(git status --porcelain -- . ':(exclude)bench/results')" ]]; then
        commit="$commit (with uncommitted changes)"
    fi
fi
report=(--work "$work" --out "$out" --commit "$commit" --date "$(date -u '+%Y-%m-%d %H:%M UTC')"
        --load-start "$load_start" --load-end "$load_end")
[[ $mode == smoke ]] && report+=(--smoke)
java -cp "$cp" org.rocshmem.bench.report.ReportMain "${report[@]}"
