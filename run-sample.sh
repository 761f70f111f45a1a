#!/bin/bash
# The main job (README "The two commands"): builds the -emu variant and runs the ring-exchange
# sample on 2 PEs, each PE in its own JVM, on the CPU emulation backend.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$top"

dev/setup-debian.sh
dev/mvn.sh -q install -DskipTests -Djavacpp.platform.extension=-emu
dev/mvn.sh -q -pl rocshmem dependency:build-classpath -Dmdep.outputFile=target/classpath.txt -Dmdep.includeScope=runtime
javacpp_native="$top/downloads/m2/org/bytedeco/javacpp/1.5.14/javacpp-1.5.14-linux-x86_64.jar"
cp="rocshmem/target/rocshmem.jar:rocshmem/target/rocshmem-linux-x86_64-emu.jar:$(cat rocshmem/target/classpath.txt):$javacpp_native"
variant=-Dorg.bytedeco.javacpp.platform.extension=-emu
exec java "$variant" -cp "$cp" org.rocshmem.api.launch.Launcher --nproc 2 --timeout 120 --jvm-arg "$variant" \
    -- org.rocshmem.samples.RingExchange "$@"
