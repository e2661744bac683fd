#!/bin/sh
# have_fuzzer.sh [CLANG]: succeed if CLANG (default clang) can build a
# libFuzzer target under ASan and UBSan. clang alone is not enough: on
# Debian the runtimes come from libclang-rt-14-dev.
CLANG=${1:-clang}
command -v "$CLANG" >/dev/null 2>&1 || exit 1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n)
{ return d && n; }' |
	"$CLANG" -x c - -fsanitize=fuzzer,address,undefined -o "$out" \
		>/dev/null 2>&1
