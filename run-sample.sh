#!/bin/bash
# The main job (README "The two commands"): builds and installs the -emu variant (rocshmem-platform-emu) and runs
# the ring-exchange sample of samples/ on 2 PEs, each PE in its own JVM, on the CPU emulation backend. It builds
# only what the sample needs: the emulator's libraries without its native test programs (ROCSHMEM_EMU_TESTS=OFF),
# and the rocshmem and platform-emu modules without the benchmarks; ./run-tests.sh builds the rest.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$top"
source dev/phases.sh

phase "1/3 build tools (dev/setup-debian.sh)"
dev/setup-debian.sh
phase "2/3 the -emu variant: emulator libraries, bindings, JNI libraries, install (Maven)"
# Maven 3.8 writes ANSI resets (ESC[0m) even in batch mode: strip them so the job's output is plain text.
ROCSHMEM_EMU_TESTS=OFF dev/mvn.sh -q install -DskipTests -Djavacpp.platform.extension=-emu -pl platform/emu -am 2>&1 \
    | sed 's/\x1b\[[0-9;]*m//g'
phase "3/3 RingExchange on 2 PEs (samples/run.sh)"
samples/run.sh RingExchange 2 "$@"
phase "done"
