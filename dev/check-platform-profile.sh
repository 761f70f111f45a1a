#!/bin/bash
# `mvn -Pplatform` is the ROCm build (rocshmem/pom.xml). On a host without ROCm it must stop before building
# anything, in one line that names what is missing and points to the emulator. Checks both cases: ROCM_PATH unset,
# and ROCM_PATH naming a directory without hipcc. Part of the test command (run-tests.sh, step 3).
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if command -v hipcc >/dev/null 2>&1 || [[ -x "${ROCM_PATH:-/nonexistent}/bin/hipcc" ]]; then
    echo "check-platform-profile: SKIPPED (this host has ROCm's hipcc: -Pplatform would build)"
    exit 0
fi
empty="$(mktemp -d)"
trap 'rm -rf "$empty"' EXIT

check() {   # check LABEL EXPECTED-TEXT ENV...: mvn -Pplatform validate must fail with EXPECTED-TEXT on one line
    local label=$1 expected=$2; shift 2
    local out status=0
    out=$(env "$@" "$top/dev/mvn.sh" -q -Pplatform validate -pl rocshmem 2>&1) || status=$?
    if [[ $status -eq 0 ]]; then
        echo "check-platform-profile: FAIL ($label): mvn -Pplatform validate succeeded without ROCm" >&2
        exit 1
    fi
    local line
    line=$(grep -F -e "$expected" <<<"$out" | head -n1)
    if [[ -z "$line" || "$line" != *"without ROCm use the CPU emulator: ./run-sample.sh"* ]]; then
        echo "check-platform-profile: FAIL ($label): no line saying '$expected' and pointing to the emulator:" >&2
        echo "$out" | tail -n 20 >&2
        exit 1
    fi
    if grep -q 'requested profile "platform" could not be activated' <<<"$out"; then
        echo "check-platform-profile: FAIL ($label): Maven does not know the profile" >&2
        exit 1
    fi
    echo "check-platform-profile: ok ($label): ${line#*: }"
}
check "ROCM_PATH unset" "-Pplatform builds the real variant with ROCm's hipcc, but ROCM_PATH is not set" -u ROCM_PATH
check "no hipcc" "but $empty/bin/hipcc is missing" ROCM_PATH="$empty"
