#!/bin/bash
# Runs the code the documentation prints, as printed, against the installed artifacts (test command, stage 6):
#   1. the README's quick start: its pom.xml and Java file become a throwaway project outside the reactor, which
#      depends only on the installed org.rocshmem:rocshmem-platform-emu coordinates in the local repository
#      (nothing of the build tree is on its class path: checked below); its build-and-run commands are run
#      unchanged, on 2 PEs;
#   2. every <pre>{@code} block of the package javadoc of org.rocshmem.api (the API tour), compiled as the body of
#      a main() against the same class path and run on 2 PEs.
# Extraction: dev/snippets.py. The only help the project gets is .mvn/maven.config, which points Maven at the build
# tree's repository (downloads/m2) as the user's ~/.m2 would be.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$top/target/readme-snippets"
rm -rf "$work"
mkdir -p "$work/quickstart/.mvn" "$work/tour"
fail() { echo "readme-snippets: $*" >&2; exit 1; }

python3 "$top/dev/snippets.py" quickstart "$top/README.md" "$work/quickstart" >/dev/null
python3 "$top/dev/snippets.py" javadoc "$top/rocshmem/src/main/java/org/rocshmem/api/package-info.java" \
    "$work/tour" >/dev/null

# The README must name the version the build installs.
version=$(sed -n 's|.*<version>\(3\.[^<]*\)</version>.*|\1|p' "$top/platform/emu/pom.xml" | head -n 1)
grep -q "<version>$version</version>" "$work/quickstart/pom.xml" \
    || fail "the README's pom.xml does not depend on version $version (platform/emu/pom.xml)"

cd "$work/quickstart"
printf -- '-B\n-ntp\n-Dstyle.color=never\n-Dmaven.repo.local=%s\n' "$top/downloads/m2" > .mvn/maven.config
output=$(bash -euo pipefail run.sh) || { echo "$output"; fail "the README's quick start failed"; }
echo "$output"
classpath="target/classes:$(cat cp.txt)"
if tr ':' '\n' <<<"$classpath" | grep -q "$top/rocshmem/"; then
    fail "the class path reaches into the build tree"
fi
tr ':' '\n' <<<"$classpath" | grep -q "/org/rocshmem/rocshmem-platform-emu/" \
    || fail "rocshmem-platform-emu was not resolved from the local repository"
[[ $(grep -c "PE [01] got .* on rocSHMEM" <<<"$output") -eq 2 ]] || fail "both PEs of the quick start must report"
echo "readme-snippets: the README's quick start built and ran on 2 PEs as printed"

cd "$work/tour"
libraries=$(cat "$work/quickstart/cp.txt")
javac --release 17 -d classes -cp "$libraries" Tour*.java
for source in Tour*.java; do
    name=${source%.java}
    java -Dorg.bytedeco.javacpp.platform.extension=-emu -cp "classes:$libraries" \
        org.rocshmem.api.launch.Launcher --nproc 2 --timeout 120 -- "$name" \
        || fail "block ${name#Tour} of the package javadoc failed on 2 PEs"
done
echo "readme-snippets: the $(ls Tour*.java | wc -l) code blocks of the package javadoc compiled and ran on 2 PEs"
