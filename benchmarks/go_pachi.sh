#!/bin/sh
# Build Pachi 12.90, the outside Go engine of docs/PERFORMANCE.md, in a scratch folder:
# github.com/pasky/pachi at b69e353, without its neural network, joseki fixes and KataGo
# (pure MCTS with its MM patterns, CPU only).
#
#   sh benchmarks/go_pachi.sh OUT [CLONE]
#
# OUT receives pachi/ with the program OUT/pachi/pachi; CLONE is an existing clone of the
# repository (default: cloned into OUT/pachi). Nothing is written inside this repository.
# Play it with its playouts fixed and one thread, for instance
#   bitgames go match nodes:9000 'cmd:"OUT/pachi/pachi -t =5000 threads=1"'
set -e
OUT=${1:?usage: go_pachi.sh OUT [CLONE]}
REPO=https://github.com/pasky/pachi
COMMIT=b69e353
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
if [ ! -d "$OUT/pachi/.git" ]; then
    git clone -q "${2:-$REPO}" "$OUT/pachi" || { echo "cannot clone ${2:-$REPO}: not built" >&2; exit 1; }
fi
cd "$OUT/pachi"
git checkout -q "$COMMIT"
make -j2 DCNN=0 JOSEKIFIX=0 BUILD_KATAGO=0 > build.log 2>&1 || { tail -30 build.log; exit 1; }
echo "built $OUT/pachi/pachi (Pachi 12.90, $COMMIT, DCNN=0)"
