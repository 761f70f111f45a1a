# Fetches the real HIP runtime (and RCCL) from Debian's archive with a private apt state.
# Sourced by rocshmem/cppbuild.sh; uses fail/require_tools/sha256_ok/DOWNLOADS_PATH from ../cppbuild.sh.
#
# Nothing here touches the system: apt reads its own sources list, lists and cache under
# $DOWNLOADS_PATH/debian/apt, and packages are only extracted (dpkg-deb -x), never installed.
# Verified .deb files are kept in $DOWNLOADS_PATH/debian, so later builds need no network.

HIP_LOCK_FILE="$TOP_PATH/rocshmem/hip-debian.lock"
DEBIAN_CACHE="$DOWNLOADS_PATH/debian"
DEBIAN_MIRROR="${ROCSHMEM_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
DEBIAN_KEYRING="${ROCSHMEM_DEBIAN_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}"
APT_INDEX_READY=

private_apt() {
    local state="$DEBIAN_CACHE/apt"
    apt-get -qq \
        -o Dir::Etc::SourceList="$state/sources.list" -o Dir::Etc::SourceParts=/nonexistent \
        -o Dir::State::Lists="$state/lists" -o Dir::Cache="$state/cache" \
        -o Dir::State::Status=/dev/null -o Debug::NoLocking=1 -o APT::Sandbox::User=root "$@"
}

# The index is fetched only when a package is missing from the cache (about 11 MB, a few seconds).
ensure_apt_index() {
    [[ -n "$APT_INDEX_READY" ]] && return 0
    [[ -f "$DEBIAN_KEYRING" ]] || fail "Debian archive keyring $DEBIAN_KEYRING not found (apt-get install debian-archive-keyring)"
    local state="$DEBIAN_CACHE/apt"
    mkdir -p "$state/lists/partial" "$state/cache/archives/partial"
    printf 'deb [signed-by=%s] %s sid main\ndeb [signed-by=%s] %s experimental main\n' \
        "$DEBIAN_KEYRING" "$DEBIAN_MIRROR" "$DEBIAN_KEYRING" "$DEBIAN_MIRROR" > "$state/sources.list"
    echo "Updating the private apt index for sid and experimental"
    private_apt update >/dev/null 2>"$state/update.err" \
        || fail "apt-get update of sid/experimental failed: $(tail -n 1 "$state/update.err")"
    APT_INDEX_READY=1
}

# apt_download PKG[=VER] DIR: downloads into DIR (apt checks the hash against the signed index).
apt_download() {
    rm -rf "$2" && mkdir -p "$2"
    (cd "$2" && private_apt download "$1" >/dev/null 2>"$2.err") && rm -f "$2.err"
}

# fetch_package ROLE PKG VERSION SHA256 -> prints the path of a verified .deb in the cache.
fetch_package() {
    local role=$1 pkg=$2 version=$3 sha=$4
    local cached="$DEBIAN_CACHE/${pkg}_${version//:/%3a}_amd64.deb"
    if sha256_ok "$cached" "$sha"; then
        echo "$cached"; return 0
    fi
    rm -f "$cached"
    local partial="$DEBIAN_CACHE/partial-$pkg"
    if apt_download "$pkg=$version" "$partial"; then
        local deb=("$partial"/*.deb)
        # A partial or corrupt file never reaches the cache: it is checked first, then moved.
        sha256_ok "${deb[0]}" "$sha" || { rm -rf "$partial"; fail "checksum mismatch for $pkg=$version (expected $sha)"; }
        mv "${deb[0]}" "$cached" && rm -rf "$partial"
        echo "$cached"; return 0
    fi
    if [[ $role != loader && -z "${ROCSHMEM_HIP_FOLLOW_ARCHIVE:-}" ]]; then
        fail "pinned $pkg=$version is no longer served by Debian's archive; update rocshmem/hip-debian.lock or set ROCSHMEM_HIP_FOLLOW_ARCHIVE=1 (see README, Troubleshooting)"
    fi
    echo "cppbuild.sh: warning: $pkg=$version is gone from the archive; using its current version" >&2
    apt_download "$pkg" "$partial" || fail "cannot download $pkg from Debian's archive: $(tail -n 1 "$partial.err")"
    local deb=("$partial"/*.deb)
    local floating="$DEBIAN_CACHE/$(basename "${deb[0]}")"
    mv "${deb[0]}" "$floating" && rm -rf "$partial"
    echo "cppbuild.sh: warning: took $(basename "$floating") sha256 $(sha256sum "$floating" | cut -d' ' -f1)" >&2
    echo "$floating"
}

# extract_packages ROLES DEST: extracts every locked package whose role is in ROLES (e.g. "hip loader").
extract_packages() {
    local roles=" $1 " dest=$2 role pkg version sha path deb
    require_tools apt-get dpkg-deb sha256sum
    mkdir -p "$DEBIAN_CACHE" "$dest"
    # Refresh the index once, in this shell, if any wanted package is not cached yet.
    while read -r role pkg version sha path; do
        [[ -z "$role" || "$role" == \#* || "$roles" != *" $role "* ]] && continue
        sha256_ok "$DEBIAN_CACHE/${pkg}_${version//:/%3a}_amd64.deb" "$sha" || { ensure_apt_index; break; }
    done < "$HIP_LOCK_FILE"
    while read -r role pkg version sha path; do
        [[ -z "$role" || "$role" == \#* ]] && continue
        [[ "$roles" == *" $role "* ]] || continue
        deb=$(fetch_package "$role" "$pkg" "$version" "$sha")
        dpkg-deb -x "$deb" "$dest" || fail "cannot extract $deb"
    done < "$HIP_LOCK_FILE"
}

# extract_packages_once ROLES DEST: like extract_packages, but skipped when DEST already holds exactly
# the locked packages of ROLES (a stamp of their lock lines). Meant for the large RCCL library: its
# .deb is downloaded once per clean tree and unpacked (about 20 s) only when the pin changes.
extract_packages_once() {
    local roles=" $1 " dest=$2 stamp role rest
    stamp=$(while read -r role rest; do
        [[ -z "$role" || "$role" == \#* || "$roles" != *" $role "* ]] || echo "$role $rest"
    done < "$HIP_LOCK_FILE" | sha256sum | cut -d' ' -f1)
    if [[ -f "$dest/.lock-stamp" && "$(cat "$dest/.lock-stamp")" == "$stamp" ]]; then
        return 0
    fi
    rm -rf "$dest"
    extract_packages "$1" "$dest"
    echo "$stamp" > "$dest/.lock-stamp"
}

# hip_lock_version PKG: the pinned version of PKG (used for messages and the README check).
hip_lock_version() {
    awk -v p="$1" '$2 == p { print $3 }' "$HIP_LOCK_FILE"
}
