#!/bin/bash
# Rehearses the real (ROCm) variant's native build on a machine without ROCm or rocSHMEM.
#
# On a ROCm host `mvn -Pplatform` compiles the JavaCPP-generated JNI sources with hipcc and relocatable
# device code (-fgpu-rdc), and links jnirocshmem against rocSHMEM's static library. This script
# proves as much of that as can be proven here:
#   1. generates jnihip.cpp / jnirocshmem.cpp with the real variant's Maven build (compile step off),
#      from a copy of the working tree, with the header twin standing in for rocshmem.hpp;
#   2. builds (once, cached) a Debian sid root holding Debian's real hipcc and HIP, ROCm 7.2.4 from
#      experimental, the HIP version the presets are generated from (sid's hipcc 7.0 pulls HIP 6.4
#      headers, older than the 7.x API that jnihip.cpp is generated for);
#   3. in that root, compiles and links both JNI libraries with the platform profile's flags:
#      jnihip fully (-Wl,--no-undefined against the real libamdhip64); jnirocshmem as a shared
#      library whose unresolved symbols must be exactly rocSHMEM host functions that the manifest
#      says the real library defines (what librocshmem.a would satisfy); then once more against a
#      stub librocshmem.a (-fgpu-rdc objects with device code, generated from the manifest) to
#      rehearse the final `-lrocshmem` device link with --no-undefined;
#   4. (dev/real-variant-kernels.sh) compiles every sample kernel and standalone emulator device-test
#      kernel into a .hsaco with KernelCompiler's hipcc command (--genco -fgpu-rdc), device-linked
#      against a stub rocSHMEM device library generated from the twin, and checks that each code
#      object holds each kernel for every GPU target and leaves no device symbol unresolved.
# Ends with one VERDICT line. Part of the test command (run-tests.sh, step 7). Measured on 2 cores: ~6 min
# with a fresh root (debootstrap + ~100 packages, ~80 s; ~1.1 GB in downloads/sid-root), ~4.5 min with the root
# cached (Maven ~1 min, the JNI hipcc runs for 6 targets ~2 min, the kernels ~1.5 min). Needs root
# (debootstrap, chroot).
#
# Environment: RV_REUSE_TREE=1 (run-tests.sh: take step 1's JNI sources from the hip-only build the test command
# just ran in this tree, target/real-variant-jni, instead of a second Maven build), RV_WORK (scratch dir, default
# target/real-variant), RV_SID_ROOT (default
# downloads/sid-root), RV_OFFLOAD_ARCHS (GPU targets, space-separated; default rocshmem.offload.targets
# of rocshmem/pom.xml, rocSHMEM's own list, less what the root's clang does not know),
# ROCSHMEM_DEBIAN_MIRROR.
set -euo pipefail

TOP="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="${RV_WORK:-$TOP/target/real-variant}"
SID_ROOT="${RV_SID_ROOT:-$TOP/downloads/sid-root}"
MIRROR="${ROCSHMEM_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
RESULTS="$WORK/results"
STAGE_IN_ROOT=/work/real-variant          # where the sources sit inside the sid root
STAGE="$SID_ROOT$STAGE_IN_ROOT"

fail() {
    echo "check-real-variant: error: $*" >&2
    echo "VERDICT: FAIL - $*"
    exit 1
}

STEP_START=$SECONDS
step() {
    echo "== [$((SECONDS - STEP_START))s] $*"
}

for tool in git tar mvn javac python3 debootstrap chroot mount mountpoint nm readelf objcopy c++filt; do
    command -v "$tool" >/dev/null 2>&1 || fail "missing tool '$tool' (debootstrap: apt-get install debootstrap)"
done
[[ $(id -u) -eq 0 ]] || fail "needs root (debootstrap, chroot, mounting /proc in the sid root)"
mkdir -p "$RESULTS"

# /proc is mounted only while this script uses the root, and always unmounted on exit.
PROC_MOUNTED=
cleanup() {
    [[ -n "$PROC_MOUNTED" ]] && umount "$PROC_MOUNTED" 2>/dev/null || true
}
trap cleanup EXIT
mount_proc() {
    local root=$1
    mountpoint -q "$root/proc" || { mount -t proc proc "$root/proc" && PROC_MOUNTED="$root/proc"; }
}
# Never rm -rf through a mounted /proc (left behind by an interrupted run).
remove_root() {
    if mountpoint -q "$1/proc" 2>/dev/null; then umount "$1/proc" || fail "cannot unmount $1/proc"; fi
    rm -rf "$1"
}
in_root() {
    chroot "$SID_ROOT" /bin/sh -c "$1"
}

# ---------------------------------------------------------------------------------------------
if [[ "${RV_REUSE_TREE:-0}" == 1 ]]; then
# The test command has just built the real variant of this very tree (dev/mvn.sh install -DhipOnly), whose
# hip-only profile also generated the whole real variant's JNI sources (target/real-variant-jni): use them
# and the tree's twin and targets instead of repeating that Maven build in a copy.
step "1/6 the real variant's JNI sources from the test command's build (RV_REUSE_TREE=1)"
SRC="$TOP"
GEN="$TOP/rocshmem/target/real-variant-jni"
for f in jnihip.cpp jnijavacpp.cpp jnirocshmem.cpp; do
    [[ -s "$GEN/$f" ]] || fail "$GEN/$f is missing: run dev/mvn.sh install -DhipOnly first, or unset RV_REUSE_TREE"
done
else
step "1/6 generating the real variant's JNI sources (Maven, compile step off)"
SRC="$WORK/src"
rm -rf "$SRC" && mkdir -p "$SRC"
# The working tree as it is (tracked and new files, not ignored ones), not just the last commit.
(cd "$TOP" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) | tar -C "$SRC" -xf - \
    || fail "copying the working tree to $SRC failed"
# Without ROCSHMEM_HOME the module parses against the header twin; compile=false keeps javacpp
# from calling g++ (which cannot link -lrocshmem here) and leaves the .cpp files in place.
# process-classes, not install: nothing reaches the shared Maven repository.
if ! (cd "$SRC" && DOWNLOADS_PATH="$TOP/downloads" mvn -B -ntp -q -Dmaven.repo.local="$TOP/downloads/m2" \
        -pl rocshmem process-classes -Djavacpp.compile=false -Djavacpp.deleteJniFiles=false) \
        > "$RESULTS/maven.log" 2>&1; then
    fail "the real variant's Maven build failed: $(grep -m1 -E 'ERROR|error:' "$RESULTS/maven.log" || tail -n1 "$RESULTS/maven.log")"
fi
GEN="$SRC/rocshmem/target/native/org/rocshmem/linux-x86_64"
for f in jnihip.cpp jnijavacpp.cpp jnirocshmem.cpp; do
    [[ -s "$GEN/$f" ]] || fail "JavaCPP did not generate $f (see $RESULTS/maven.log)"
done
fi
# The one list of GPU targets, as Maven's resource filtering wrote it for KernelCompiler.
TARGETS_FILE="$SRC/rocshmem/target/classes/org/rocshmem/api/kernel/offload-targets.properties"
[[ -f "$TARGETS_FILE" ]] || fail "Maven did not write $TARGETS_FILE"
POM_ARCHS=$(sed -n 's/^targets=//p' "$TARGETS_FILE" | tr ',' ' ')
[[ -n "$POM_ARCHS" && "$POM_ARCHS" != *'${'* ]] || fail "no targets in $TARGETS_FILE (unfiltered?)"
TWIN="$SRC/rocshmem/cppbuild/linux-x86_64/include/rocshmem"
[[ -f "$TWIN/rocshmem.hpp" ]] || fail "the header twin is missing from $TWIN"

# ---------------------------------------------------------------------------------------------
step "2/6 sid root with Debian's hipcc from experimental at $SID_ROOT"
READY="$SID_ROOT/.real-variant-ready"
if [[ ! -f "$READY" ]]; then
    TMP_ROOT="$SID_ROOT.tmp"
    remove_root "$TMP_ROOT"
    debootstrap --variant=minbase sid "$TMP_ROOT" "$MIRROR" > "$RESULTS/debootstrap.log" 2>&1 \
        || fail "debootstrap of sid failed: $(tail -n1 "$RESULTS/debootstrap.log")"
    echo "deb $MIRROR experimental main" > "$TMP_ROOT/etc/apt/sources.list.d/experimental.list"
    # A throwaway build root: signatures are still checked, but a mirror snapshot whose Release
    # file is past Valid-Until must not stop the rehearsal.
    echo 'Acquire::Check-Valid-Until "false";' > "$TMP_ROOT/etc/apt/apt.conf.d/99real-variant"
    mount_proc "$TMP_ROOT"
    if ! chroot "$TMP_ROOT" /bin/sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
            apt-get install -y -qq --no-install-recommends -t experimental hipcc libamdhip64-dev binutils && apt-get clean" \
            > "$RESULTS/apt.log" 2>&1; then
        fail "installing hipcc in the sid root failed: $(grep -m1 '^E:' "$RESULTS/apt.log" || tail -n1 "$RESULTS/apt.log")"
    fi
    umount "$TMP_ROOT/proc" && PROC_MOUNTED=
    remove_root "$SID_ROOT" && mv "$TMP_ROOT" "$SID_ROOT"
    touch "$READY"
fi
mount_proc "$SID_ROOT"
in_root 'command -v hipcc >/dev/null' || fail "hipcc is missing from $SID_ROOT (delete it to rebuild)"
{
    in_root 'hipcc --version'
    in_root "dpkg-query -W -f '\${Package} \${Version}\n' hipcc libamdhip64-dev 'libamdhip64-[0-9]*' \
             'clang-[0-9]*' 'lld-[0-9]*' 'rocm-device-libs-[0-9]*' libc6 2>/dev/null"
} > "$RESULTS/versions.txt" 2>&1 || fail "cannot query versions in the sid root"
# rocSHMEM's CMake keeps the targets the compiler supports; the same filter, asked of the root's clang.
if [[ -n "${RV_OFFLOAD_ARCHS:-}" ]]; then
    OFFLOAD_ARCHS="$RV_OFFLOAD_ARCHS"
else
    OFFLOAD_ARCHS="" UNSUPPORTED=""
    CLANG=$(in_root 'ls /usr/lib/llvm-*/bin/clang 2>/dev/null | sort -V | tail -n1')
    for a in $POM_ARCHS; do
        if in_root "echo | $CLANG -x c --target=amdgcn-amd-amdhsa -mcpu=$a -nogpulib -S -o /dev/null - 2>/dev/null"; then
            OFFLOAD_ARCHS+="${OFFLOAD_ARCHS:+ }$a"
        else
            UNSUPPORTED+=" $a"
        fi
    done
    [[ -z "$UNSUPPORTED" ]] || echo "   targets the root's clang does not support, left out:$UNSUPPORTED"
    [[ -n "$OFFLOAD_ARCHS" ]] || fail "the root's clang supports none of $POM_ARCHS"
fi
echo "   GPU targets: $OFFLOAD_ARCHS (rocshmem.offload.targets: $POM_ARCHS)"

# ---------------------------------------------------------------------------------------------
step "3/6 staging sources, twin, JDK headers and manifest-derived probe/stub in the root"
rm -rf "$STAGE" && mkdir -p "$STAGE/include" "$STAGE/out"
cp "$GEN"/jnihip.cpp "$GEN"/jnijavacpp.cpp "$GEN"/jnirocshmem.cpp "$STAGE/"
cp -a "$TWIN" "$STAGE/include/rocshmem"
# the typed API's address-typed natives are compiled into jnirocshmem: their inline shims come along
cp "$SRC/rocshmem/src/gen/include/rocshmem_java_calls.h" "$STAGE/include/"
ln -s /usr/include/hip "$STAGE/include/hip"     # the root's real HIP headers, as /opt/rocm would be
JDK_HOME="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}"
[[ -f "$JDK_HOME/include/jni.h" ]] || fail "jni.h not found under $JDK_HOME/include (set JAVA_HOME)"
cp -a "$JDK_HOME/include" "$STAGE/jdk-include"

# The probe takes the address of every host function the manifest marks as defined by the real
# library, so its unresolved symbols are exactly what librocshmem.a exports (mangled by the same
# compiler). The stub defines those functions plus a kernel: a stand-in librocshmem.a with GPU code.
python3 - "$TOP/rocshmem/manifest" "$STAGE" "$TOP/rocshmem/emu/twin" <<'PY' || fail "generating the probe/stub sources failed"
import re, sys
manifest, stage = sys.argv[1], sys.argv[2]
sys.path.insert(0, sys.argv[3])
import manifest_rows as mf
# The MPI_Comm overloads are only declared when <mpi.h> is seen; the presets skip them.
functions = [(r["name"], r["return_type"].strip(), mf.params(r)) for r in mf.defined_host_rows(manifest)
             if not mf.has_flag(r, mf.MPI_ONLY_FLAG)]
# Host globals the library defines (the predefined team handles), e.g.
# "host: extern rocshmem_team_t rocshmem::host::ROCSHMEM_TEAM_WORLD".
variables = []
with open(f"{manifest}/constants.tsv", encoding="utf-8") as f:
    for line in f:
        m = re.search(r"host: extern (\w+) rocshmem::host::(\w+)", line)
        if m:
            variables.append(m.groups())

def without_default(param):
    return param.split("=", 1)[0].strip()

def scope(name):
    return "" if name == "RocshmemGetFunctionTable" else "rocshmem::"

head = '#include <rocshmem/rocshmem.hpp>\n#include <rocshmem/qp_introspect.hpp>\n#include <rocshmem/api_trace.h>\n'
with open(f"{stage}/probe.cpp", "w") as out:
    out.write(head + "using namespace rocshmem;\nextern \"C\" void *rocshmem_probe_table[] = {\n")
    for name, ret, params in functions:
        types = ", ".join(mf.param_type_and_name(p)[0] for p in params)
        out.write(f"    reinterpret_cast<void *>(static_cast<{ret} (*)({types})>(&{scope(name)}{name})),\n")
    for _, name in variables:
        out.write(f"    reinterpret_cast<void *>(&rocshmem::host::{name}),\n")
    out.write("};\n")
with open(f"{stage}/stub.cpp", "w") as out:
    out.write(head + "using namespace rocshmem;\n"
              "__global__ void rocshmem_stub_kernel(int *flag) { *flag = 1; }\n")
    for name, ret, params in functions:
        body = "" if ret == "void" else " return {};"
        out.write(f"{ret} {scope(name)}{name}({', '.join(without_default(p) for p in params)}) {{{body} }}\n")
    for type_, name in variables:
        out.write(f"{type_} rocshmem::host::{name} = {{}};\n")
# Demangled names without parameters, for the check that does not depend on the twin's spelling.
with open(f"{stage}/defined-names.txt", "w") as out:
    names = {n for n, _, _ in functions} | {f"host::{n}" for _, n in variables}
    out.write("".join(f"{n}\n" for n in sorted(names)))
print(f"   manifest: {len(functions)} defined host functions (MPI overloads excluded), {len(variables)} host globals")
PY

# ---------------------------------------------------------------------------------------------
step "4/6 compiling and linking with hipcc -fgpu-rdc in the root"
# One comma-separated flag, as the platform profile's rocshmem.offload.archs spells it.
ARCH_FLAGS=" --offload-arch=${OFFLOAD_ARCHS// /,}"
# The platform profile's flags (platform.compiler.default = -O3 -fgpu-rdc --hip-link) plus JavaCPP's
# cpp17 and linux-x86_64 output flags, as javacpp's Builder would pass them.
CXXFLAGS="-Iinclude -Ijdk-include -Ijdk-include/linux -D__HIP_PLATFORM_AMD__ -O3 -fgpu-rdc --hip-link$ARCH_FLAGS -std=c++17"
LIBFLAGS="-Wl,-z,noexecstack -Wl,-Bsymbolic -Wall -fPIC -pthread -shared"
echo "hipcc $CXXFLAGS <sources> $LIBFLAGS -o <lib> <libs>" > "$RESULTS/commands.txt"
hipcc_step() {   # hipcc_step LABEL ARGS...: runs hipcc in the root, logs, times, fails with a reason
    local label=$1; shift
    local t0=$SECONDS
    echo "$label: hipcc $*" >> "$RESULTS/commands.txt"
    if ! in_root "cd $STAGE_IN_ROOT && hipcc $*" > "$RESULTS/$label.log" 2>&1; then
        fail "$label failed: $(grep -m1 -E 'error' "$RESULTS/$label.log" || tail -n1 "$RESULTS/$label.log")"
    fi
    echo "   $label: ok in $((SECONDS - t0))s ($(grep -c 'warning:' "$RESULTS/$label.log" || true) warnings, log $RESULTS/$label.log)"
}
hipcc_step jnihip "$CXXFLAGS jnihip.cpp jnijavacpp.cpp $LIBFLAGS -Wl,--no-undefined -o out/libjnihip.so -lamdhip64"
hipcc_step jnirocshmem "$CXXFLAGS jnirocshmem.cpp jnijavacpp.cpp $LIBFLAGS -o out/libjnirocshmem.so -lamdhip64"
hipcc_step probe "$CXXFLAGS probe.cpp $LIBFLAGS -o out/libprobe.so -lamdhip64"
hipcc_step stub-object "-Iinclude -D__HIP_PLATFORM_AMD__ -O1 -fgpu-rdc$ARCH_FLAGS -std=c++17 -fPIC -c stub.cpp -o out/stub.o"
in_root "cd $STAGE_IN_ROOT/out && rm -f librocshmem.a && ar rcs librocshmem.a stub.o" || fail "ar of the stub librocshmem.a failed"
hipcc_step jnirocshmem-stublink "$CXXFLAGS jnirocshmem.cpp jnijavacpp.cpp $LIBFLAGS -Wl,--no-undefined -o out/libjnirocshmem-stub.so -Lout -lrocshmem -lamdhip64"

# ---------------------------------------------------------------------------------------------
step "5/6 comparing jnirocshmem's unresolved symbols with the manifest's defined host functions"
OUT="$STAGE/out"
# The stub's kernel in the linked library's code objects shows that --hip-link really device-linked
# the -fgpu-rdc archive (what rocSHMEM's device code needs), for every requested GPU target.
objcopy -O binary --only-section=.hip_fatbin "$OUT/libjnirocshmem-stub.so" "$RESULTS/stub-link.fatbin" \
    || fail "no .hip_fatbin section in the stub-linked jnirocshmem"
grep -q rocshmem_stub_kernel "$RESULTS/stub-link.fatbin" \
    || fail "the stub librocshmem.a's kernel is missing from the linked device code: no device link of the archive"
for a in $OFFLOAD_ARCHS; do
    grep -aq "amdgcn-amd-amdhsa--$a" "$RESULTS/stub-link.fatbin" || fail "no $a code object in the stub-linked jnirocshmem"
done
# unresolved LIB: strong undefined dynamic symbols that none of LIB's DT_NEEDED libraries (in the
# root) define, i.e. what the final link still has to find elsewhere. Versions (@hip_6.0) dropped.
unresolved() {
    local lib=$1 needed dir provided
    provided=$(mktemp)
    for needed in $(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
        for dir in "$SID_ROOT/usr/lib/x86_64-linux-gnu" "$SID_ROOT/lib/x86_64-linux-gnu"; do
            [[ -e "$dir/$needed" ]] && { nm -D --defined-only "$dir/$needed" | awk '{print $3}' >> "$provided"; break; }
        done
    done
    nm -D --undefined-only "$lib" | awk '$1 == "U" {print $2}' | sed 's/@.*//' | sort -u \
        | grep -vxF -f <(sed 's/@.*//' "$provided" | sort -u) || true
    rm -f "$provided"
}
unresolved "$OUT/libjnihip.so" > "$RESULTS/jnihip-unresolved.txt"
unresolved "$OUT/libjnirocshmem.so" > "$RESULTS/jnirocshmem-unresolved.txt"
unresolved "$OUT/libprobe.so" > "$RESULTS/manifest-defined-symbols.txt"
comm -23 "$RESULTS/jnirocshmem-unresolved.txt" "$RESULTS/manifest-defined-symbols.txt" > "$RESULTS/not-in-real-library.txt"
comm -13 "$RESULTS/jnirocshmem-unresolved.txt" "$RESULTS/manifest-defined-symbols.txt" > "$RESULTS/defined-but-unbound.txt"
c++filt < "$RESULTS/defined-but-unbound.txt" > "$RESULTS/defined-but-unbound.demangled.txt"
# Independent of the twin's spelling: every unresolved symbol must name a defined manifest function.
bad_names=$(c++filt < "$RESULTS/jnirocshmem-unresolved.txt" | sed -E 's/^rocshmem:://; s/\(.*$//' | sort -u \
    | grep -vxF -f "$STAGE/defined-names.txt" || true)

n_jni=$(wc -l < "$RESULTS/jnirocshmem-unresolved.txt")
n_def=$(wc -l < "$RESULTS/manifest-defined-symbols.txt")
n_bad=$(wc -l < "$RESULTS/not-in-real-library.txt")
n_unbound=$(wc -l < "$RESULTS/defined-but-unbound.txt")
n_hip=$(wc -l < "$RESULTS/jnihip-unresolved.txt")
hipcc_version=$(sed -n 's/^HIP version: //p' "$RESULTS/versions.txt")
echo "   jnihip unresolved after linking libamdhip64: $n_hip"
echo "   jnirocshmem unresolved: $n_jni; manifest-defined host symbols: $n_def; unresolved but not defined by the real library: $n_bad; defined but not bound: $n_unbound"

[[ $n_hip -eq 0 ]] || fail "jnihip has $n_hip symbols that libamdhip64 does not define (see $RESULTS/jnihip-unresolved.txt)"
[[ $n_jni -gt 0 ]] || fail "jnirocshmem references no rocSHMEM symbol: the comparison would prove nothing"
[[ $n_bad -eq 0 ]] || fail "jnirocshmem needs $n_bad symbols the real rocSHMEM does not define (see $RESULTS/not-in-real-library.txt)"
[[ -z "$bad_names" ]] || fail "unresolved symbols name functions the manifest does not mark defined: $(echo $bad_names)"

# ---------------------------------------------------------------------------------------------
step "6/6 kernels: hipcc --genco -fgpu-rdc against a stub rocSHMEM device library, for every target"
source "$TOP/dev/real-variant-kernels.sh"
echo "   results in $RESULTS (took $((SECONDS - STEP_START))s)"
echo "VERDICT: PASS - hipcc $hipcc_version (-fgpu-rdc,$ARCH_FLAGS): jnihip links against libamdhip64 with --no-undefined;" \
     "jnirocshmem leaves exactly $n_jni unresolved symbols, all rocSHMEM host functions the real library defines" \
     "($n_unbound defined ones unbound); link against a stub librocshmem.a with device code succeeds with --no-undefined;" \
     "$N_KERNELS kernels ($N_KERNEL_SOURCES sources) compile to code objects device-linked against a stub rocSHMEM device" \
     "library, each kernel present for all $N_ARCHS targets ($OFFLOAD_ARCHS) with no unresolved device symbol"
