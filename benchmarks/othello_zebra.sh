#!/bin/sh
# Build Zebra, the outside Othello engine of docs/PERFORMANCE.md, in a scratch folder:
# github.com/lk16/zebra at bee2dade (Gunnar Andersson's program with its own trained
# weights, coeffs2.bin), both its console player and its script-mode solver.
#
#   sh benchmarks/othello_zebra.sh OUT [CLONE]
#
# OUT receives zebra/ with OUT/zebra/zebra and OUT/zebra/scrzebra; CLONE is an existing
# clone of the repository (default: cloned into OUT/zebra). Nothing is written inside
# this repository. -fwrapv is needed (without it Zebra crashes in its endgame code); the
# script-mode build lacks the global "quiet" that two of the fork's files use, so a
# one-line file defines it. Then, for instance,
#   python benchmarks/othello_zebra_ffo.py OUT/zebra/scrzebra 40-49 21
#   bitgames othello match level:8,exact:16,wld:18 \
#     'cmd:"python benchmarks/othello_zebra_gtp.py OUT/zebra/zebra 8 16 18",protocol:gtp'
set -e
. "$(dirname "$0")/clone_at.sh"
clone_at "${1:?usage: othello_zebra.sh OUT [CLONE]}" zebra https://github.com/lk16/zebra bee2dade "$2"
echo 'int quiet = 0;' > quiet_defined.c
FLAGS="-O2 -march=native -fwrapv -fno-strict-aliasing"
{
    make zebra OPTS="$FLAGS" LDFLAGS="-lm -lz" &&
    make scrzebra OPTS="$FLAGS" LDFLAGS="quiet_defined.c -lm -lz"
} > build.log 2>&1 || { tail -30 build.log; exit 1; }
echo "built $OUT/zebra/zebra and $OUT/zebra/scrzebra (lk16/zebra bee2dade)"
