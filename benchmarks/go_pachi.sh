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
. "$(dirname "$0")/clone_at.sh"
clone_at "${1:?usage: go_pachi.sh OUT [CLONE]}" pachi https://github.com/pasky/pachi b69e353 "$2"
make -j2 DCNN=0 JOSEKIFIX=0 BUILD_KATAGO=0 > build.log 2>&1 || { tail -30 build.log; exit 1; }
echo "built $OUT/pachi/pachi (Pachi 12.90, b69e353, DCNN=0)"
