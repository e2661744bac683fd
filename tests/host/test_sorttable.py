"""test_sorttable.py: scripts/sorttable.py sorts the record table of a
linked kernel and makes each site's two c.nop one nop, refuses a site
holding anything else, and leaves a kernel without the table alone.

Each case is a small ELF64 image: a .text of three sites (each behind
its 8-byte ops literal) and a .mcount_loc naming them out of order.

Run with python3; prints KTAP.
"""

import os
import struct
import sys
import ktap

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..',
                                'scripts'))
import sorttable  # noqa: E402

TEXT_ADDR = 0x80200000
FUNC = 16			# literal (8), site (4), a body word (4)
SITE = 8
C_NOPS = struct.pack('<HH', 1, 1)
BODY = struct.pack('<I', 0x00008067)	# ret


def image(sites=3, order=(2, 0, 1), table=True, site_bytes=C_NOPS):
    """The ELF64 bytes: [null, .text, .mcount_loc, .shstrtab]."""
    text = b''.join(b'\1\0' * 4 + site_bytes + BODY for _ in range(sites))
    loc = struct.pack('<%dQ' % len(order),
                      *(TEXT_ADDR + i * FUNC for i in order))
    names = b'\0.text\0.mcount_loc\0.shstrtab\0'
    body = text + (loc if table else b'') + names
    secs = [(0, 0, 0, 0, 0)]
    off = sorttable.EHDR.size
    secs.append((1, 1, TEXT_ADDR, off, len(text)))
    off += len(text)
    if table:
        secs.append((7, 1, 0x80300000, off, len(loc)))
        off += len(loc)
    secs.append((19, 3, 0, off, len(names)))
    shoff = sorttable.EHDR.size + len(body)
    hdr = sorttable.EHDR.pack(b'\x7fELF\2\1\1' + b'\0' * 9, 2, 243, 1, 0,
                              0, shoff, 0, sorttable.EHDR.size, 0, 0,
                              sorttable.SHDR.size, len(secs), len(secs) - 1)
    shdrs = b''.join(sorttable.SHDR.pack(n, t, 0, a, o, s, 0, 0, 8, 0)
                     for n, t, a, o, s in secs)
    return bytearray(hdr + body + shdrs)


def table_of(blob, n=3):
    off = sorttable.EHDR.size + n * FUNC
    return list(struct.unpack_from('<%dQ' % n, blob, off))


def site_of(blob, i):
    off = sorttable.EHDR.size + i * FUNC + SITE
    return bytes(blob[off:off + 4])


def test_table_sorted():
    blob = image()
    sorttable.sort_table(blob)
    ok = table_of(blob) == [TEXT_ADDR, TEXT_ADDR + FUNC, TEXT_ADDR + 2 * FUNC]
    return ok and site_of(blob, 0) == C_NOPS, table_of(blob)


def test_sites_become_one_nop():
    blob = image()
    sorttable.sort_table(blob, SITE)
    sites = [site_of(blob, i) for i in range(3)]
    return sites == [sorttable.NOP] * 3, sites


def test_other_site_refused():
    blob = image(site_bytes=BODY)
    try:
        sorttable.sort_table(blob, SITE)
    except sorttable.SortError as e:
        return 'not two c.nop' in str(e), str(e)
    return False, 'accepted'


def test_no_table_left_alone():
    blob = image(table=False)
    before = bytes(blob)
    n = sorttable.sort_table(blob, SITE)
    return n == 0 and bytes(blob) == before, n


def main():
    return ktap.report([(name, *fn()) for name, fn in
                        sorted(globals().items())
                        if name.startswith('test_')])


if __name__ == '__main__':
    sys.exit(main())
