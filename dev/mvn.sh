#!/bin/bash
# Maven with the project's settings: batch mode, and the local repository inside the build tree
# (downloads/m2) so a fresh clone caches its dependencies next to the HIP downloads.
# Also finds a JDK 22+ for the multi-release part of the jar (rocshmem's jdk22 profile) unless
# -Drocshmem.jdk22.home is given; ROCSHMEM_JDK22_HOME=none builds without it.
set -eu
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

jdk22=()
if [[ " $* " != *" -Drocshmem.jdk22.home="* ]]; then
  home="${ROCSHMEM_JDK22_HOME:-}"
  if [[ -z "$home" ]]; then
    for release in /usr/lib/jvm/*/release; do
      major="$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$release" 2>/dev/null)"
      if [[ -n "$major" && "$major" -ge 22 && -x "$(dirname "$release")/bin/javac" ]]; then
        home="$(dirname "$release")"
        break
      fi
    done
  fi
  if [[ -n "$home" && "$home" != none ]]; then
    jdk22=("-Drocshmem.jdk22.home=$home")
  else
    echo "dev/mvn.sh: no JDK 22+ found (or ROCSHMEM_JDK22_HOME=none): the jar gets the Java 17 API only; the" \
         "MemorySegment forms and their tests are skipped (pass -Drocshmem.jdk22.home=<JDK 22+ home>)" >&2
  fi
fi
exec mvn -B -ntp -Dmaven.repo.local="$top/downloads/m2" -f "$top/pom.xml" "${jdk22[@]}" "$@"
