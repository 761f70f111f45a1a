#!/bin/bash
# The main job (README "The two commands"): builds and installs the -emu variant (rocshmem-platform-emu) and runs
# the ring-exchange sample of samples/ on 2 PEs, each PE in its own JVM, on the CPU emulation backend.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$top"

dev/setup-debian.sh
# Maven 3.8 writes ANSI resets (ESC[0m) even in batch mode: strip them so the job's output is plain text.
dev/mvn.sh -q install -DskipTests -Djavacpp.platform.extension=-emu 2>&1 | sed 's/\x1b\[[0-9;]*m//g'
exec samples/run.sh RingExchange 2 "$@"
