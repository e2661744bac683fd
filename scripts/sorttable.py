#!/usr/bin/env python3
"""sorttable.py: the build-time half of ftrace_init, on the linked kernel.

    sorttable.py ELF            sort the record table (.mcount_loc)
    sorttable.py --nop N ELF    also write each site's disabled form

It sorts the table of site addresses in place, as Linux's
scripts/sorttable.c does under CONFIG_BUILDTIME_MCOUNT_SORT, so that
ftrace_init only checks the order while it copies the records.

With --nop N (FTRACE=patchable), the site N bytes after each entry (past
the ops literal: FTRACE_OPS_LITERAL_SIZE in asm/ftrace.h) must hold
GCC's two c.nop, and becomes one 4-byte nop, the form a site has while
tracing is off. Linux has its sites made nops at build time too, by
objtool --mnop on x86 and by GCC's -mnop-mcount on s390; ftrace_init
then only checks that every site holds that nop (ftrace_init_nop).
Anything else at a site fails the build. A kernel without the section
(FTRACE=none: ld drops it empty) has no sites, and is left as it is.
"""
import struct
import sys

EHDR = struct.Struct('<16sHHIQQQIHHHHHH')
SHDR = struct.Struct('<IIQQQQIIQQ')
SHT_NOBITS = 8
TABLE = '.mcount_loc'
C_NOP_PAIR = struct.pack('<HH', 0x0001, 0x0001)
NOP = struct.pack('<I', 0x00000013)	# addi x0, x0, 0


class SortError(Exception):
    pass


def sections(blob):
    """[(name, type, addr, offset, size)] of the ELF64 image blob."""
    hdr = EHDR.unpack_from(blob)
    shoff, shentsize, shnum, shstrndx = hdr[6], hdr[11], hdr[12], hdr[13]
    raw = [SHDR.unpack_from(blob, shoff + i * shentsize)
           for i in range(shnum)]
    strtab = raw[shstrndx][4]
    out = []
    for s in raw:
        end = blob.index(b'\0', strtab + s[0])
        out.append((blob[strtab + s[0]:end].decode(), s[1], s[3], s[4],
                    s[5]))
    return out


def file_offset(secs, addr, size):
    """Where the size bytes at addr lie in the file."""
    for _, sh_type, sh_addr, offset, sh_size in secs:
        if sh_type != SHT_NOBITS and sh_addr <= addr and \
                addr + size <= sh_addr + sh_size:
            return offset + addr - sh_addr
    raise SortError('%#x is in no section of the file' % addr)


def sort_table(blob, nop_at=None):
    """Sort the table in blob (a bytearray); write the nops if asked."""
    secs = sections(blob)
    table = [s for s in secs if s[0] == TABLE]
    if not table:
        return 0
    _, _, _, offset, size = table[0]
    n = size // 8
    entries = sorted(struct.unpack_from('<%dQ' % n, blob, offset))
    struct.pack_into('<%dQ' % n, blob, offset, *entries)
    if nop_at is None:
        return n
    for entry in entries:
        site = file_offset(secs, entry + nop_at, 4)
        if blob[site:site + 4] != C_NOP_PAIR:
            raise SortError('site %#x holds %s, not two c.nop' %
                            (entry + nop_at, blob[site:site + 4].hex()))
        blob[site:site + 4] = NOP
    return n


def main(argv):
    nop_at = None
    if len(argv) == 3 and argv[0] == '--nop':
        nop_at, argv = int(argv[1]), argv[2:]
    if len(argv) != 1:
        sys.exit('usage: sorttable.py [--nop N] ELF')
    with open(argv[0], 'rb') as f:
        blob = bytearray(f.read())
    try:
        sort_table(blob, nop_at)
    except SortError as e:
        sys.exit('sorttable.py: %s: %s' % (argv[0], e))
    with open(argv[0], 'wb') as f:
        f.write(blob)


if __name__ == '__main__':
    main(sys.argv[1:])
