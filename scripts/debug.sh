#!/bin/sh
# debug.sh: `make debug`. Start QEMU halted with a gdb stub on
# localhost:1234 and attach gdb-multiarch with scripts/rvftrace.gdb,
# which loads the symbols and stops where dynamic ftrace does its work.
# The console is on a Unix socket beside the kernel, for scripts/console.py
# (`make console`).
# usage: debug.sh KERNEL.ELF SMP MEM
set -eu
elf=$1 smp=$2 mem=$3
sock=$(dirname "$elf")/console.sock
rm -f "$sock"
if ! command -v gdb-multiarch >/dev/null 2>&1; then
	if [ "$(id -u)" = 0 ]; then
		apt-get install -y gdb-multiarch
	else
		echo "debug.sh: gdb-multiarch is missing; run:" >&2
		echo "  sudo apt-get install -y gdb-multiarch" >&2
		exit 1
	fi
fi
qemu-system-riscv64 -machine virt -smp "$smp" -m "$mem" -bios default \
	-kernel "$elf" -display none -monitor none \
	-serial "unix:$sock,server=on,wait=off" -s -S &
qemu=$!
trap 'kill $qemu 2>/dev/null' EXIT
echo "debug.sh: the shell's console: \`make console\` in another terminal"
gdb-multiarch -q -x scripts/rvftrace.gdb "$elf"
