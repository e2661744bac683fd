#!/bin/bash
# deps.sh: check for what `make run` and `make test` need (the RISC-V
# cross compiler, QEMU with its OpenSBI firmware, Python 3, a host C
# compiler, gdb-multiarch for `make debug` and the backtrace test), and
# for what they want: clang with its sanitizer and libFuzzer runtimes,
# for the sanitized host tests and the fuzz targets; Debian's trace-cmd
# and KernelShark, which read the guest's trace.dat (make record; the
# test takes KernelShark's picture under Xvfb with ImageMagick's import).
# As root, install whatever is missing with apt-get (Debian 12).
# Otherwise print the command that would, and fail if something needed
# is missing; without clang alone, say that those tests will be skipped.
set -euo pipefail

PACKAGES="gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf \
qemu-system-misc opensbi python3 gcc make gdb-multiarch clang \
libclang-rt-14-dev trace-cmd kernelshark xvfb imagemagick"
# What QEMU's `-bios default` loads for -machine virt.
FIRMWARE=/usr/share/qemu/opensbi-riscv64-generic-fw_dynamic.bin
CLANG=${CLANG:-clang}
HAVE_FUZZER="$(dirname "$0")/have_fuzzer.sh"

missing() {
	local tool

	for tool in "${CROSS:-riscv64-unknown-elf-}gcc" \
		    "${QEMU:-qemu-system-riscv64}" "${HOSTCC:-cc}" python3 make \
		    gdb-multiarch
	do
		command -v "$tool" >/dev/null 2>&1 || echo "$tool"
	done
	[ -e "$FIRMWARE" ] || echo "$FIRMWARE"
}

need=$(missing)
fuzzer=yes
"$HAVE_FUZZER" "$CLANG" || fuzzer=
tracecmd=yes
for tool in trace-cmd kernelshark xvfb-run import; do
	command -v $tool >/dev/null 2>&1 || tracecmd=
done
[ -z "$need" ] && [ -n "$fuzzer" ] && [ -n "$tracecmd" ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
	if [ -z "$need" ]; then
		[ -n "$fuzzer" ] ||
		echo "deps: $CLANG cannot build sanitized libFuzzer binaries:" \
		     "the sanitized host tests and fuzz targets will be" \
		     "skipped. To run them:" \
		     "sudo apt-get install -y clang libclang-rt-14-dev" >&2
		[ -n "$tracecmd" ] ||
		echo "deps: no trace-cmd: the trace.dat tests will be" \
		     "skipped. To run them: sudo apt-get install -y trace-cmd kernelshark xvfb imagemagick" >&2
		exit 0
	fi
	echo "deps: missing:" $need >&2
	echo "deps: install them with:" >&2
	echo "  sudo apt-get update && sudo apt-get install -y $PACKAGES" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y $PACKAGES
need=$(missing)
"$HAVE_FUZZER" "$CLANG" || need="$need $CLANG (with libclang-rt-14-dev)"
command -v trace-cmd >/dev/null 2>&1 || need="$need trace-cmd kernelshark xvfb imagemagick"
if [ -n "$need" ]; then
	echo "deps: still missing after apt-get install:" $need >&2
	exit 1
fi
