#!/bin/sh
# Runs every fuzz target for SECONDS each (default 300), one after another, each from seeds in
# the repository and the corpus earlier runs grew (tests/fuzz/corpus, not committed). Needs a
# nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`). A failure stops the run; its
# input is in tests/fuzz/artifacts/<target>/, and `cargo +nightly fuzz run -O -a --fuzz-dir
# tests/fuzz <target> <that file>` runs it again.
#   usage: tests/fuzz/run.sh [SECONDS] [TARGET...]
set -eu
cd "$(dirname "$0")/../.."
secs=${1:-300}
[ $# -gt 0 ] && shift
targets=${*:-payload store_row log_file fold}
corpus=tests/fuzz/corpus
logs="storage/tests/fixtures/log-v1.jsonl storage/tests/fixtures/logs-v1/*.jsonl tests/fuzz/seeds/logs/*.jsonl"
for t in payload store_row log_file fold; do mkdir -p "$corpus/$t"; done
# A store row's seeds: each event line of those log files (the first line is the file's header).
for f in $logs; do
  tail -n +2 "$f" | awk -v out="$corpus/store_row/seed-$(basename "$f" .jsonl)" \
    '{ printf "%s", $0 > (out "-" NR); close(out "-" NR) }'
done
# Leak checking is off: a thread's exit leaves glibc's list of its thread-local destructors
# behind (`__cxa_thread_atexit_impl`), which LeakSanitizer reports as a leak of ours.
# run TARGET [FLAGS] [SEED_DIR...]: FLAGS are libFuzzer's, beyond the time and memory limits.
run() {
  target=$1 flags=${2:-}
  shift; [ $# -gt 0 ] && shift
  # shellcheck disable=SC2086 # FLAGS are words
  cargo +nightly fuzz run -O -a --fuzz-dir tests/fuzz "$target" "$corpus/$target" "$@" -- \
    -max_total_time="$secs" -rss_limit_mb=4096 -detect_leaks=0 $flags
}
for t in $targets; do
  case $t in
    payload) run payload "" examples tests/fixtures/payloads ;;
    store_row) run store_row ;;
    log_file) mkdir -p "$corpus/log_seeds" && cp $logs "$corpus/log_seeds/" && run log_file "" "$corpus/log_seeds" ;;
    # Long inputs from the start: a deep key sequence is where the fold's bugs would hide.
    fold) run fold "-max_len=4096 -len_control=0" ;;
    *) echo "no fuzz target $t" >&2; exit 64 ;;
  esac
done
