#!/bin/sh
# Build the two outside Leiserchess players of docs/PERFORMANCE.md in a scratch folder:
# the MIT 6.172 Fall 2016 staff reference player and the seed team's final player, both
# from github.com/sillycross/Leiserchess---MIT-6.172-Fall16-Final-Project, serial, gcc -O3.
#
#   sh benchmarks/leiserchess_course_players.sh OUT [CLONE]
#
# OUT receives ref/leiserchess and seed/leiserchess; CLONE is an existing clone of the
# repository (default: cloned into OUT/src). Nothing is written inside this repository.
# Their Makefiles use Tapir clang and Cilk: a cilk/cilk.h that turns cilk_for into for and
# drops cilk_spawn and cilk_sync builds them serial. The seed's opening book and endgame
# tables (closebook.c, openbook.c) are not in the public copy: two functions answering
# "not in the table" stand in for them.
set -e
OUT=${1:?usage: leiserchess_course_players.sh OUT [CLONE]}
REPO=https://github.com/sillycross/Leiserchess---MIT-6.172-Fall16-Final-Project
REF_COMMIT=0bbb272
SEED_COMMIT=e32f2e9
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
SRC=${2:-$OUT/src}
if [ ! -d "$SRC/.git" ] && [ ! -f "$SRC/HEAD" ]; then
    git clone -q "$REPO" "$SRC" || { echo "cannot clone $REPO: not built" >&2; exit 1; }
fi
GIT="git --git-dir=$SRC/.git"
[ -d "$SRC/.git" ] || GIT="git --git-dir=$SRC"

mkdir -p "$OUT/stubs/cilk" "$OUT/ref" "$OUT/seed"
printf '%s\n' '#define cilk_spawn' '#define cilk_sync' '#define cilk_for for' \
    > "$OUT/stubs/cilk/cilk.h"
: > "$OUT/stubs/cilk/reducer.h"
cat > "$OUT/stubs/no_books.c" <<'EOF'
/* Stand-ins for the seed team's generated tables: 0 = not in the table, search normally. */
#include <stdio.h>
#include "move_gen.h"
int checkEndGame(position_t *p) { (void)p; return 0; }
int check_is_in_openbook(position_t *p, FILE *OUT) { (void)p; (void)OUT; return 0; }
EOF

extract() {  # extract COMMIT DEST: the commit's player/ sources into DEST
    for f in $($GIT ls-tree -r --name-only "$1" player | grep -E '^player/[^/]+\.[ch]$'); do
        $GIT show "$1:$f" > "$2/$(basename "$f")" 2>/dev/null || true
    done
}
extract $REF_COMMIT "$OUT/ref"
extract $SEED_COMMIT "$OUT/seed"

CFLAGS="-std=gnu99 -O3 -DNDEBUG -I$OUT/stubs -include assert.h"
(cd "$OUT/ref" && gcc $CFLAGS leiserchess.c util.c tt.c fen.c move_gen.c search.c eval.c \
    -lm -lrt -ldl -lpthread -o leiserchess)
(cd "$OUT/seed" && gcc $CFLAGS -I. all.c "$OUT/stubs/no_books.c" \
    -lm -lrt -ldl -lpthread -o leiserchess)
echo "built $OUT/ref/leiserchess (staff reference, $REF_COMMIT)"
echo "built $OUT/seed/leiserchess (seed team's final player, $SEED_COMMIT)"
