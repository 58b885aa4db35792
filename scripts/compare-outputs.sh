#!/usr/bin/env bash
# Compares what two builds of toolscope write for the same lint runs: every
# catalog of ../shared/catalogs (and a 1,000- and a 5,000-tool merge of
# them), in every format (the HTML page and the badge too) and as the
# text report alone, with the built-in encoder, the mock embedder as a
# gate, and the mock with cosine scoring report-only; then the other commands: the text report a pipe
# gets, diff between neighbouring catalogs in every format, check-args,
# period, snapshot, rules, help and the one-line errors broken inputs get.
# Any byte that differs is a failure.
#
#   scripts/compare-outputs.sh BASE [HEAD]
#
# BASE and HEAD are git revisions (HEAD defaults to the work tree as it is).
# Both builds share one vector cache, so the encoder embeds each text once.
# The progress lines a long run writes to stderr ("toolscope lint: embed
# 10% · 2s", "toolscope: verdicts · 2s", "toolscope diff (NEW): embed
# 29% · 2s") say how long it has taken, which no two runs share: they are
# left out of the comparison, every other byte is compared.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:?usage: scripts/compare-outputs.sh BASE [HEAD]}
head=${2:-}
shared=${TOOLSCOPE_SHARED:-../shared}
if [ ! -d "$shared/catalogs" ]; then
  echo "SKIP: no $shared/catalogs beside the repository"; exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Built without version control stamps: the HTML page names the build.
build() { # REV OUT: builds REV ("" for the work tree) into OUT
  if [ -z "$1" ]; then go build -buildvcs=false -o "$2" . ; return; fi
  mkdir -p "$work/src-$1"
  git archive "$1" | tar -x -C "$work/src-$1"
  (cd "$work/src-$1" && go build -buildvcs=false -o "$2" .)
}
build "$base" "$work/base"
build "$head" "$work/head"

# The merged catalogs: distinct names, drawn in turn from each catalog.
go run ./internal/cmd/mergecatalogs -n 1000 -o "$work/merged-1000.json" "$shared"/catalogs/*/*.json
go run ./internal/cmd/mergecatalogs -n 5000 -o "$work/merged-5000.json" "$shared"/catalogs/*/*.json

export TOOLSCOPE_CACHE_DIR=${TOOLSCOPE_CACHE_DIR:-$work/cache}
formats=(text json sarif markdown github junit html badge)
fail=0 runs=0
for cat in "$shared"/catalogs/*/*.json "$work"/merged-*.json; do
  for mode in use mock mockcos; do
    case $mode in
      use) args=() ;;
      mock) args=(--embedder mock) ;;
      mockcos) args=(--embedder mock --scoring cosine --threshold off) ;;
    esac
    for bin in base head; do
      out="$work/out/$bin/$(basename "$cat" .json)/$mode"
      mkdir -p "$out"
      fargs=()
      for f in "${formats[@]}"; do fargs+=(--format "$f=$out/$f"); done
      set +e
      "$work/$bin" lint --no-config "${args[@]}" "${fargs[@]}" "$cat" >"$out/stdout" 2>"$out/stderr.all"
      echo $? >"$out/exit"
      grep -v -E '^toolscope( [a-z]+)?( \([A-Z]+\))?: .* · [0-9hms]+$' "$out/stderr.all" >"$out/stderr"
      rm "$out/stderr.all"
      # The text report alone: a text-only run details only what it shows.
      "$work/$bin" lint --no-config "${args[@]}" "$cat" >"$out/text-only" 2>/dev/null
      echo $? >"$out/text-only-exit"
      set -e
    done
    runs=$((runs + 1))
    if ! diff -r "$work/out/base/$(basename "$cat" .json)/$mode" "$work/out/head/$(basename "$cat" .json)/$mode" >"$work/diff" 2>&1; then
      echo "DIFFERS: $(basename "$cat") $mode"; head -20 "$work/diff"; fail=1
    fi
  done
done
lint_runs=$runs

# compare NAME -- ARGS...: runs both builds with ARGS (a file "@OUT" in
# ARGS is a path in the build's own output folder, "@BIN" the build's
# name) and compares stdout, stderr, the exit code and any file written
# there.
compare() {
  local name=$1; shift 2
  for bin in base head; do
    local out="$work/cmd/$bin/$name"
    mkdir -p "$out/files"
    local a=() x
    for x in "$@"; do x=${x//@OUT/$out/files}; a+=("${x//@BIN/$bin}"); done
    set +e
    "$work/$bin" "${a[@]}" </dev/null >"$out/stdout" 2>"$out/stderr.all"
    echo $? >"$out/exit"
    grep -v -E '^toolscope( [a-z]+)?( \([A-Z]+\))?: .* · [0-9hms]+$' "$out/stderr.all" | sed "s#$out/files#OUT#g; s#$work/cmd/$bin/#CMD/#g" >"$out/stderr"
    set -e
    sed -i "s#$out/files#OUT#g; s#$work/cmd/$bin/#CMD/#g" "$out/stdout"
    rm "$out/stderr.all"
  done
  runs=$((runs + 1))
  if ! diff -r "$work/cmd/base/$name" "$work/cmd/head/$name" >"$work/diff" 2>&1; then
    echo "DIFFERS: $name"; head -20 "$work/diff"; fail=1
  fi
}

prev=""
for cat in "$shared"/catalogs/*/*.json; do
  n=$(basename "$cat" .json)
  compare "report-$n" -- "$cat"
  compare "report-mock-$n" -- --embedder mock "$cat"
  if [ -n "$prev" ]; then
    for f in text json markdown sarif github; do
      compare "diff-$f-$n" -- diff --no-config --format "$f" "$prev" "$cat"
    done
  fi
  prev=$cat
done
demo=fixtures/demo/ops-demo.json

# Runs over several catalogs: a folder, a pattern, a merge; the baseline
# written and then read; --fix on a copy; the gate's other flags.
mcp=("$shared"/catalogs/mcp/*.json)
for f in text json sarif markdown github junit; do
  compare "folder-$f" -- lint --no-config --embedder mock --format "$f" "$shared/catalogs/mcp"
  compare "merge-$f" -- lint --no-config --embedder mock --merge --format "$f" "${mcp[@]:0:4}"
done
compare pattern -- lint --no-config --no-similarity "$shared/catalogs/*/*-mcp*.json"
compare merge-html -- lint --no-config --embedder mock --merge --format html=@OUT/page.html --format badge=@OUT/badge.svg "${mcp[@]:4:3}"
compare baseline-write -- lint --no-config --embedder mock --write-baseline @OUT/base.json "${mcp[@]:0:3}"
compare baseline-read -- lint --no-config --embedder mock --baseline "$work/cmd/@BIN/baseline-write/files/base.json" --format json "${mcp[@]:0:4}"
compare baseline-one -- lint --no-config --embedder mock --write-baseline @OUT/one.json --format json "$demo"
compare gate-flags -- lint --no-config --embedder mock --quiet --max-warnings 3 --fail-on stale,review --strict "${mcp[@]:0:3}"
for bin in base head; do
  mkdir -p "$work/cmd/$bin/fix/files"
  cp "$demo" "$work/cmd/$bin/fix/files/ops.json"
  cp "${mcp[0]}" "$work/cmd/$bin/fix/files/first.json"
done
compare fix -- lint --no-config --no-similarity --fix @OUT/ops.json @OUT/first.json
compare folder-broken -- lint --no-config --no-similarity fixtures/broken
compare snapshot -- snapshot -o @OUT/snap.json "$demo"
compare check-args-ok -- check-args "$demo" list_volumes '{}'
compare check-args-bad -- check-args "$demo" resize_volume '{"size": "big", "extra": 1}'
compare check-args-json -- check-args --format json "$demo" resize_volume '{"size": 5'
compare check-args-notool -- check-args "$demo" no_such_tool '{}'
compare period-lookback -- period --now 2026-03-01T12:00:00Z lookback 7d
compare period-iso -- period iso-range 2026-03-01T09:00:00Z..2026-03-02T09:00:00+01:00
compare period-bad -- period wall-range 2026-02-30T09:00..2026-03-01T17:30
compare rules -- rules
compare rules-all -- rules --rule-set all
compare rules-json -- rules --format json
compare help -- --help
for c in cache check-args diff init lint period probe rules snapshot; do
  compare "help-$c" -- "$c" --help
done
compare init-stdout -- init -
compare no-such-file -- lint no-such-file.json
compare bad-flag -- lint --no-such-flag "$demo"
for b in fixtures/broken/*.json fixtures/shapes/*.json; do
  compare "lint-$(basename "$b" .json)" -- lint --no-config "$b"
done

if [ $fail -ne 0 ]; then echo "outputs differ"; exit 1; fi
echo "$lint_runs lint runs x ${#formats[@]} formats and $((runs - lint_runs)) other command runs, stdout, stderr, exit codes and written files: byte-identical"
