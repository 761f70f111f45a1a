# Sourced by the top-level scripts: `phase "what"` prints one line with the seconds since the script started, so a
# person watching a long first run sees where it is (the same form as dev/check-real-variant.sh's steps).
PHASES_START=$SECONDS
phase() {
    echo "== [$((SECONDS - PHASES_START))s] $*"
}
