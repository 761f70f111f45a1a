#!/bin/bash
# The project's test command (README "Building and testing"; .ci/run calls it). On a fresh Debian 12:
#   1. installs missing build tools (dev/setup-debian.sh),
#   2. builds the CPU emulator (HIP, rocSHMEM, RCCL) and runs its native tests (ctest),
#   3. builds and tests the real variant against the real libamdhip64 and librccl from Debian's archive,
#   4. builds and tests the -emu variant (Java tests on the emulator, each PE in its own JVM), javadoc included,
#      and the optional rocshmem-pytorch module with its tests (bytedeco's pytorch natives, 88 MB, are cached in
#      downloads/m2 like every other Maven download),
#   5. runs the benchmarks in smoke mode (bench/run.sh --smoke: every benchmark runs, the typed hot paths
#      allocate 0 B/op; bench/scale.sh --smoke: the scaling rows run at 1 and 2 PEs with right results;
#      timings are never judged),
#   6. runs every sample, the README quick start and the javadoc tour as printed on the installed artifacts
#      (dev/readme-snippets.sh), and srun under Slurm,
#   7. checks the hipcc compile path (dev/check-real-variant.sh, as root: ROCm's hipcc from Debian in a sid
#      root compiles and links the JNI libraries against the real libamdhip64 and every sample kernel for
#      every GPU target; ~6 min the first time, the root is cached in downloads/sid-root),
#   8. checks that the regenerated bindings and typed API equal the committed ones.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$top"
source dev/phases.sh

phase "1/8 build tools (dev/setup-debian.sh)"
dev/setup-debian.sh --tests

# Bindings are regenerated from the headers on every run; stale files cannot survive.
rm -rf rocshmem/src/gen/java

phase "2/8 CPU emulator and its native tests (cppbuild.sh, ctest)"
bash cppbuild.sh -extension=-emu install rocshmem
ctest --test-dir rocshmem/cppbuild/emu-build --output-on-failure --timeout 300

# Both variants, each with its own platform artifact (rocshmem-platform, rocshmem-platform-emu), side by side.
phase "3/8 real variant against Debian's libamdhip64 and librccl (Maven -DhipOnly)"
dev/mvn.sh install -DhipOnly
# The ROCm build's profile: here, without ROCm, it must stop at once in one line that says why.
dev/check-platform-profile.sh
phase "4/8 -emu variant: Java tests on the emulator, javadoc (Maven)"
# The emulator was built (and tested) above: no second cppbuild pass. This reactor also builds and tests pytorch/
# (symmetric PyTorch tensors, DLPack with torch) and bench/.
dev/mvn.sh install -Djavacpp.platform.extension=-emu -Djavacpp.cppbuild.skip=true
# The reactor build above also built the bench module with its native helper.
phase "5/8 benchmarks, smoke mode"
bench/run.sh --smoke --no-build
# The emulator at 1 and 2 PEs with tiny counts (bench/scale.sh --smoke: every scaling row runs, results right).
bench/scale.sh --smoke

# As users get them: every sample on the emulator (torch.TorchRing included), then the README quick start and the
# javadoc tour as printed.
# What a user sees must carry no terminal colour codes (Maven 3.8 prints ESC[0m even with -B -q).
phase "6/8 samples, README snippets, Slurm"
mkdir -p target
samples/run.sh --all 2>&1 | tee target/samples-output.log
if grep -q $'\e\[' target/samples-output.log; then
    echo "run-tests.sh: the samples' output contains ANSI escape codes (target/samples-output.log)" >&2
    exit 1
fi
dev/readme-snippets.sh
# srun as a launcher, under a real one-node Slurm started by the script.
dev/slurm-test.sh

# The GPU build of the same sources: hipcc compiles the JNI libraries and the sample kernels. It needs root
# (debootstrap, chroot); a sudoer is asked once, and gets the results back as their own files.
# RV_REUSE_TREE=1: the real variant's JNI sources come from step 3's build of this tree, not a second Maven run.
phase "7/8 hipcc compile path (dev/check-real-variant.sh)"
if [[ "${ROCSHMEM_TESTS_SKIP_HIPCC:-0}" == 1 ]]; then
    echo "run-tests.sh: hipcc compile path SKIPPED (ROCSHMEM_TESTS_SKIP_HIPCC=1); dev/check-real-variant.sh runs it"
elif [[ $(id -u) -eq 0 ]]; then
    RV_REUSE_TREE=1 dev/check-real-variant.sh
else
    RV_REUSE_TREE=1 sudo --preserve-env=ROCSHMEM_DEBIAN_MIRROR,JAVA_HOME,RV_REUSE_TREE dev/check-real-variant.sh
    sudo chown -R "$(id -u):$(id -g)" target/real-variant
fi

phase "8/8 generated bindings equal the committed ones"
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
    drift=$(git -C "$top" status --porcelain -- rocshmem/src/gen)
    if [[ -n "$drift" ]]; then
        echo "run-tests.sh: generated bindings differ from the committed ones (commit the regenerated src/gen):" >&2
        echo "$drift" | head -n 20 >&2
        exit 1
    fi
fi
phase "run-tests.sh: all test stages passed"
