#!/bin/bash
# Maven with the project's settings: batch mode, and the local repository inside the build tree
# (downloads/m2) so a fresh clone caches its dependencies next to the HIP downloads.
set -eu
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec mvn -B -ntp -Dmaven.repo.local="$top/downloads/m2" -f "$top/pom.xml" "$@"
