#!/bin/bash
# The main job (README "Run the sample"): builds the -emu variant and runs the diagnostic program.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$top"

dev/setup-debian.sh
dev/mvn.sh -q install -DskipTests -Djavacpp.platform.extension=-emu
dev/mvn.sh -q -pl rocshmem dependency:build-classpath -Dmdep.outputFile=target/classpath.txt -Dmdep.includeScope=runtime
cp="rocshmem/target/rocshmem.jar:rocshmem/target/rocshmem-linux-x86_64-emu.jar:$(cat rocshmem/target/classpath.txt)"
exec java -Dorg.bytedeco.javacpp.platform.extension=-emu -cp "$cp" org.rocshmem.api.Diagnostics
