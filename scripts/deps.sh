#!/bin/bash
# deps.sh: check for what `make run` and `make test` need (the RISC-V
# cross compiler, QEMU with its OpenSBI firmware, Python 3, a host C
# compiler). As root, install whatever is missing with apt-get (Debian
# 12); otherwise print the command that would and fail.
set -euo pipefail

PACKAGES="gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf \
qemu-system-misc opensbi python3 gcc make"
# What QEMU's `-bios default` loads for -machine virt.
FIRMWARE=/usr/share/qemu/opensbi-riscv64-generic-fw_dynamic.bin

missing() {
	local tool

	for tool in "${CROSS:-riscv64-unknown-elf-}gcc" \
		    "${QEMU:-qemu-system-riscv64}" "${HOSTCC:-cc}" python3 make
	do
		command -v "$tool" >/dev/null 2>&1 || echo "$tool"
	done
	[ -e "$FIRMWARE" ] || echo "$FIRMWARE"
}

need=$(missing)
[ -z "$need" ] && exit 0
echo "deps: missing:" $need >&2
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
	echo "deps: install them with:" >&2
	echo "  sudo apt-get update && sudo apt-get install -y $PACKAGES" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y $PACKAGES
need=$(missing)
if [ -n "$need" ]; then
	echo "deps: still missing after apt-get install:" $need >&2
	exit 1
fi
