#!/bin/bash
# Runs one sample on N PEs of the CPU emulator through the project's launcher:
#   samples/run.sh <Sample> [nproc] [sample arguments...]     e.g. samples/run.sh AtomicTicketCounter 4
#                                                              or samples/run.sh rccl.AllReduceBasic 2
#   samples/run.sh --all                                       every sample, each on the PE count it is made for
#   samples/run.sh --classpath                                 prints the samples' class path (for srun, mpirun)
# Needs the emulator's platform artifact in the local repository (./run-sample.sh or ./run-tests.sh installs it).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
top="$(cd "$here/.." && pwd)"

if [[ $# -lt 1 ]]; then
    echo "usage: samples/run.sh <Sample> [nproc] [args...] | --all" >&2
    exit 2
fi

# The torch samples need the optional rocshmem-pytorch artifact (the project's full build installs it; the
# first-run ./run-sample.sh does not): its profile is on for a torch.* sample and for --all.
profiles=()
if [[ "$1" == "--all" || "$1" == torch.* ]]; then
    profiles=(-Ptorch)
fi
# Maven 3.8 writes ANSI resets (ESC[0m) even in batch mode: strip them so the samples' output is plain text.
mvn -B -ntp -q -Dstyle.color=never -Dmaven.repo.local="$top/downloads/m2" -f "$here/pom.xml" "${profiles[@]}" compile \
    dependency:build-classpath -Dmdep.outputFile="$here/target/classpath.txt" -Dmdep.includeScope=runtime 2>&1 \
    | sed 's/\x1b\[[0-9;]*m//g' >&2
classpath="$here/target/classes:$(cat "$here/target/classpath.txt")"
variant=-Dorg.bytedeco.javacpp.platform.extension=-emu

run() {
    local sample="$1" nproc="$2"
    shift 2
    java "$variant" -cp "$classpath" org.rocshmem.api.launch.Launcher --nproc "$nproc" --timeout 180 \
        -- "org.rocshmem.samples.$sample" "$@"
}

if [[ "$1" == "--classpath" ]]; then
    echo "$classpath"
elif [[ "$1" == "--all" ]]; then
    run RingExchange 2
    run AtomicTicketCounter 4
    run AlltoallTranspose 4
    run Reduction 4
    run SignalPingPong 2
    run rccl.AllReduceBasic 2
    run rccl.SendRecvBasic 2
    run rccl.GradientAllReduce 2
    run kernels.GpuRing 4
    run kernels.SignalPipeline 2
    run kernels.DeviceHistogram 4
    run kernels.DeviceAllReduce 4
    run kernels.StreamWithKernel 2
    # The kernel samples again at 32 lanes (gfx11/gfx12 wavefronts; ROCSHMEM_EMU_WAVE_SIZE, rocshmem/emu/kernel/README.md).
    for sample in "kernels.GpuRing 4" "kernels.SignalPipeline 2" "kernels.DeviceHistogram 4" "kernels.DeviceAllReduce 4" \
                  "kernels.StreamWithKernel 2"; do
        ROCSHMEM_EMU_WAVE_SIZE=32 run $sample
    done
    run torch.TorchRing 2
    echo "samples/run.sh: every sample verified its results"
else
    sample="$1"
    nproc="${2:-2}"
    shift $(( $# >= 2 ? 2 : 1 ))
    run "$sample" "$nproc" "$@"
fi
