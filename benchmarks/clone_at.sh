# Sourced by the scripts that build outside engines (go_pachi.sh, othello_zebra.sh):
#   clone_at OUT NAME REPO COMMIT [CLONE]
# makes OUT (an absolute path from then on, in $OUT), clones REPO (or the existing clone
# CLONE) into OUT/NAME unless it is there already, checks out COMMIT and enters OUT/NAME;
# exits 1 with a message when the source cannot be reached.
clone_at() {
    mkdir -p "$1"
    OUT=$(cd "$1" && pwd)
    if [ ! -d "$OUT/$2/.git" ]; then
        git clone -q "${5:-$3}" "$OUT/$2" || { echo "cannot clone ${5:-$3}: not built" >&2; exit 1; }
    fi
    cd "$OUT/$2"
    git checkout -q "$4"
}
