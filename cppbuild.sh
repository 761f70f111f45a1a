#!/bin/bash
# Native build driver, in the javacpp-presets style: detects the platform, parses
# `-platform=X -extension=Y install|clean [modules...]`, offers helper functions and
# then *sources* each module's cppbuild.sh from inside <module>/cppbuild/.
#
# Module scripts see: PLATFORM, EXTENSION, TOP_PATH, DOWNLOADS_PATH, MAKEJ, CMAKE and the
# helpers `fail`, `require_tools`, `sha256_ok`.
set -eu

KERNEL=(`uname -s | tr [A-Z] [a-z]`)
ARCH=(`uname -m | tr [A-Z] [a-z]`)
case $KERNEL in
    darwin) OS=macosx ;;
    mingw32*|mingw64*) OS=windows ;;
    *) OS=$KERNEL ;;
esac
case $ARCH in
    arm*) ARCH=arm ;;
    aarch64*) ARCH=arm64 ;;
    i386|i486|i586|i686) ARCH=x86 ;;
    amd64|x86-64) ARCH=x86_64 ;;
esac
PLATFORM=$OS-$ARCH
EXTENSION=
OPERATION=
PROJECTS=()

while [[ $# -gt 0 ]]; do
    case "$1" in
        -platform=*) PLATFORM="${1#-platform=}" ;;
        -platform) shift; PLATFORM="$1" ;;
        -extension=*) EXTENSION="${1#-extension=}" ;;
        -extension) shift; EXTENSION="$1" ;;
        install|clean) OPERATION="$1" ;;
        -*) echo "cppbuild.sh: unknown option '$1'" >&2; exit 2 ;;
        *) PROJECTS+=("$1") ;;
    esac
    shift
done

if [[ -z "$OPERATION" ]]; then
    echo "Usage: bash cppbuild.sh [-platform=<os-arch>] [-extension=<-emu|...>] install|clean [module...]" >&2
    exit 1
fi
if [[ ${#PROJECTS[@]} -eq 0 ]]; then
    PROJECTS=(rocshmem)
fi

TOP_PATH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# Downloads are cached inside the build tree so that a second build needs no network.
DOWNLOADS_PATH="${DOWNLOADS_PATH:-$TOP_PATH/downloads}"
MAKEJ="${MAKEJ:-$(nproc 2>/dev/null || echo 2)}"
CMAKE="${CMAKE:-cmake}"
export PLATFORM EXTENSION TOP_PATH DOWNLOADS_PATH MAKEJ CMAKE

# One-line reason on stderr, non-zero exit: every failure of a module script goes through here.
fail() {
    echo "cppbuild.sh: error: $*" >&2
    exit 1
}

# Fails with the list of missing commands, so a fresh machine tells the user what to install.
require_tools() {
    local missing=()
    for tool in "$@"; do
        command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
    done
    [[ ${#missing[@]} -eq 0 ]] || fail "missing tool(s): ${missing[*]} (on Debian: ./dev/setup-debian.sh installs them)"
}

# sha256_ok FILE EXPECTED: true when FILE exists and has exactly that SHA-256.
sha256_ok() {
    [[ -f "$1" ]] && [[ "$(sha256sum "$1" | cut -d' ' -f1)" == "$2" ]]
}

for PROJECT in "${PROJECTS[@]}"; do
    [[ -f "$TOP_PATH/$PROJECT/cppbuild.sh" ]] || fail "unknown module '$PROJECT'"
    case $OPERATION in
        install)
            echo "Installing \"$PROJECT\" for $PLATFORM$EXTENSION"
            mkdir -p "$TOP_PATH/$PROJECT/cppbuild"
            pushd "$TOP_PATH/$PROJECT/cppbuild" >/dev/null
            source ../cppbuild.sh
            popd >/dev/null
            ;;
        clean)
            echo "Cleaning \"$PROJECT\""
            rm -Rf "$TOP_PATH/$PROJECT/cppbuild"
            ;;
    esac
done
