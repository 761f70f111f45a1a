#!/bin/bash
# rocshmem/cppbuild.sh finds an installed rocSHMEM through its CMake package (find_package(rocshmem CONFIG),
# the layout ROCm and TheRock install) and reports the GPU targets its static library holds. Runs the
# script's own helper functions against a fake install prefix.
set -euo pipefail
script="$1/rocshmem/cppbuild.sh"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
mkdir -p "$prefix/lib/cmake/rocshmem" "$prefix/include/rocshmem" "$work/out/lib"
echo '#define ROCSHMEM_OFFLOAD_TARGETS "gfx90a gfx942 gfx950"' > "$prefix/include/rocshmem/rocshmem_config.h"
touch "$prefix/include/rocshmem/rocshmem.hpp" "$prefix/lib/librocshmem.a"
cat > "$prefix/lib/cmake/rocshmem/rocshmem-config.cmake" <<'CONFIG'
get_filename_component(_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
add_library(roc::rocshmem STATIC IMPORTED)
set_target_properties(roc::rocshmem PROPERTIES IMPORTED_LOCATION "${_prefix}/lib/librocshmem.a"
  INTERFACE_INCLUDE_DIRECTORIES "${_prefix}/include")
CONFIG
sed -n '/^find_rocshmem_package() {/,/^}/p;/^report_offload_targets() {/,/^}/p' "$script" > "$work/helpers.sh"
CMAKE="${CMAKE:-cmake}" CPPBUILD_PATH="$work" INSTALL_PATH="$work/out"
source "$work/helpers.sh"
find_rocshmem_package "/nonexistent;$prefix" || { echo "FAIL: the package was not found"; exit 1; }
[[ "$SHMEM_INCLUDE" == "$prefix/include" && "$SHMEM_LIB" == "$prefix/lib/librocshmem.a" ]] \
    || { echo "FAIL: include '$SHMEM_INCLUDE', library '$SHMEM_LIB'"; exit 1; }
out="$(report_offload_targets "$SHMEM_INCLUDE/rocshmem")"
[[ "$out" == *'-Drocshmem.offload.targets=gfx90a,gfx942,gfx950 '* ]] \
    || { echo "FAIL: offload targets not reported: $out"; exit 1; }
if find_rocshmem_package "$work/nothing-here"; then echo "FAIL: found a package where there is none"; exit 1; fi
echo "PASS cppbuild.sh finds rocSHMEM's CMake package and its GPU targets"
