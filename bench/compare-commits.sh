#!/usr/bin/env bash
# Runs a benchmark command against several commits, interleaved, in one sitting: each commit is
# checked out as a detached worktree under $TMPDIR with this checkout's node_modules and
# generated bench site linked in, then the sides run in turn (round 1: A B C, round 2: A B C…).
# Results land in each worktree's bench/results/<name>-<commit>-<round>.{json,md}.
#
#   bash bench/compare-commits.sh --rounds 2 --commits 4148a1d,c7567fc -- \
#     bench/scrape.bench.ts --pages 2000 --requests 400 --rounds 2 --concurrency 1,8,32 --out i12-scrape
#
# A side may be prepared before it runs with PREPARE_<short commit>='shell command' run in its
# worktree (e.g. to force a converter), which the report must then say.
set -euo pipefail
rounds=1
commits=''
while [[ $# -gt 0 ]]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --commits) commits="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
[[ -n "$commits" && $# -gt 0 ]] || { echo "usage: $0 --commits A,B[,C] [--rounds N] -- BENCH.ts ARGS... --out NAME" >&2; exit 2; }
repo="$(git rev-parse --show-toplevel)"
[[ -d "$repo/bench/site/out" ]] || (cd "$repo" && node --import tsx bench/generate-site.ts)
args=("$@")
out=''
for ((i = 0; i < ${#args[@]}; i++)); do [[ "${args[$i]}" == --out ]] && out="${args[$((i + 1))]}"; done
[[ -n "$out" ]] || { echo "the benchmark arguments need --out NAME" >&2; exit 2; }
declare -A dirs
IFS=, read -r -a list <<< "$commits"
for c in "${list[@]}"; do
  dir="${TMPDIR:-/tmp}/gleaner-bench-$c"
  [[ -d "$dir" ]] || git -C "$repo" worktree add -q --detach "$dir" "$c"
  ln -sfn "$repo/node_modules" "$dir/node_modules"
  mkdir -p "$dir/bench/site" && ln -sfn "$repo/bench/site/out" "$dir/bench/site/out"
  prepare="PREPARE_$c"
  if [[ -n "${!prepare:-}" ]]; then (cd "$dir" && bash -c "${!prepare}"); fi
  dirs[$c]="$dir"
done
for ((round = 1; round <= rounds; round++)); do
  for c in "${list[@]}"; do
    run=("${args[@]}")
    for ((i = 0; i < ${#run[@]}; i++)); do [[ "${run[$i]}" == --out ]] && run[$((i + 1))]="$out-$c-$round"; done
    echo "== round $round, $c: ${run[*]}"
    (cd "${dirs[$c]}" && node --import tsx "${run[@]}")
  done
done
