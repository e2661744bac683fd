#!/usr/bin/env python3
"""recordmcount.py: Linux's recordmcount for the -pg build (FTRACE=mcount):
find every call of _mcount and give the kernel a table of their addresses.

    recordmcount.py OBJ            add the __mcount_loc table to OBJ
    recordmcount.py --check ELF    check the table of the linked kernel

OBJ is an ELF64 RISC-V object compiled with -pg. Each site is GCC's
`call _mcount` after the prologue: auipc ra + jalr ra, one
R_RISCV_CALL_PLT (or R_RISCV_CALL) relocation against _mcount in an
executable section. For the N sites this adds, as Linux's does, a section
__mcount_loc of N 8-byte slots and its .rela__mcount_loc; unlike Linux's,
each R_RISCV_64 there points at a new local symbol .Lmcount_K placed on
the site, not at a section or function symbol plus an offset. That is
what keeps the table right under linker relaxation: ld turns each call
into a 4-byte `jal ra, _mcount` and shifts the code after it, moving the
symbols with the code they label but never a relocation's addend. The
.L prefix makes ld leave the symbols out of the kernel, so nm, kallsyms
and backtraces never see them. An object without sites is left as is.

--check reads the linked kernel: every function that calls _mcount must
do so once, as a 4-byte `jal ra, _mcount` (the form ftrace_init expects),
and have exactly one table entry; the table must hold nothing else. An
8-byte call ld could not relax (its function over 1 MiB from _mcount)
is refused, not patched: the -pg build has no veneers, which the
patchable build gives its far sites (asm/ftrace_veneer.h), because a
site past the prologue would need the auipc's high bits rewritten too,
two instructions, and scripts/checkelf.py keeps its text within 1 MiB.
"""
import os
import struct
import sys
from collections import Counter

EHDR = struct.Struct('<16sHHIQQQIHHHHHH')
SHDR = struct.Struct('<IIQQQQIIQQ')
SYM = struct.Struct('<IBBHQQ')
RELA = struct.Struct('<QQq')

ET_REL = 1
EM_RISCV = 243
SHT_PROGBITS, SHT_SYMTAB, SHT_RELA, SHT_NOBITS, SHT_REL = 1, 2, 4, 8, 9
SHT_GROUP, SHT_SYMTAB_SHNDX = 17, 18
SHF_ALLOC, SHF_EXECINSTR, SHF_INFO_LINK = 0x2, 0x4, 0x40
STB_LOCAL, STT_NOTYPE, STT_FUNC = 0, 0, 2
R_RISCV_64, R_RISCV_CALL, R_RISCV_CALL_PLT = 2, 18, 19

MCOUNT = '_mcount'
TABLE = '__mcount_loc'
RV_REG_RA = 1
OP_AUIPC, OP_JALR, OP_JAL = 0x17, 0x67, 0x6f


class RecordError(Exception):
    pass


class Section:
    """One section header and its contents (empty for SHT_NOBITS)."""

    def __init__(self, fields, data):
        (self.name, self.type, self.flags, self.addr, self.offset,
         self.size, self.link, self.info, self.addralign,
         self.entsize) = fields
        self.data = data

    def fields(self):
        return (self.name, self.type, self.flags, self.addr, self.offset,
                self.size, self.link, self.info, self.addralign,
                self.entsize)


class Elf:
    """An ELF64 little-endian RISC-V file: its header and sections."""

    def __init__(self, blob):
        if blob[:4] != b'\x7fELF' or blob[4:6] != b'\x02\x01':
            raise RecordError('not a little-endian ELF64 file')
        self.header = list(EHDR.unpack_from(blob))
        if self.header[2] != EM_RISCV:
            raise RecordError('not a RISC-V file')
        shoff, shnum = self.header[6], self.header[12]
        if not shnum:
            raise RecordError('no section headers')
        self.sections = []
        for i in range(shnum):
            sec = Section(SHDR.unpack_from(blob, shoff + i * SHDR.size), b'')
            if sec.type != SHT_NOBITS:
                sec.data = blob[sec.offset:sec.offset + sec.size]
            self.sections.append(sec)

    @property
    def e_type(self):
        return self.header[1]

    def section_name(self, sec):
        return cstring(self.sections[self.header[13]].data, sec.name)

    def symtab_index(self):
        for i, sec in enumerate(self.sections):
            if sec.type == SHT_SYMTAB:
                return i
        raise RecordError('no symbol table')

    def symbols(self):
        """(name, fields) of each symbol, fields as SYM unpacks them."""
        symtab = self.sections[self.symtab_index()]
        strtab = self.sections[symtab.link].data
        syms = [SYM.unpack_from(symtab.data, off)
                for off in range(0, len(symtab.data), SYM.size)]
        return [(cstring(strtab, s[0]), s) for s in syms]

    def add_section(self, name, data, sh_type, flags, link=0, info=0,
                    entsize=0):
        """Append a section (8-aligned); return its index."""
        shstrtab = self.sections[self.header[13]]
        name_off = len(shstrtab.data)
        shstrtab.data += name.encode() + b'\0'
        self.sections.append(Section((name_off, sh_type, flags, 0, 0, 0,
                                      link, info, 8, entsize), data))
        return len(self.sections) - 1

    def to_bytes(self):
        """Lay the sections out again, in order, then their headers."""
        out = bytearray(EHDR.size)
        for sec in self.sections[1:]:
            if sec.type == SHT_NOBITS:
                sec.offset = len(out)
                continue
            out += bytes(-len(out) % max(sec.addralign, 1))
            sec.offset, sec.size = len(out), len(sec.data)
            out += sec.data
        out += bytes(-len(out) % 8)
        self.header[6], self.header[12] = len(out), len(self.sections)
        for sec in self.sections:
            out += SHDR.pack(*sec.fields())
        EHDR.pack_into(out, 0, *self.header)
        return bytes(out)


def cstring(table, offset):
    return table[offset:table.index(b'\0', offset)].decode()


def relas(sec):
    return [RELA.unpack_from(sec.data, off)
            for off in range(0, len(sec.data), RELA.size)]


# --- recording: one object ------------------------------------------------

def mcount_sites(elf):
    """Sorted (section index, offset) of every call of _mcount."""
    mcount = {i for i, (name, _) in enumerate(elf.symbols())
              if name == MCOUNT}
    sites = []
    for sec in elf.sections:
        if sec.type != SHT_RELA:
            continue
        target = elf.sections[sec.info]
        for offset, info, _ in relas(sec):
            if info >> 32 not in mcount:
                continue
            where = f'{elf.section_name(target)}+{offset:#x}'
            if (info & 0xffffffff) not in (R_RISCV_CALL, R_RISCV_CALL_PLT):
                raise RecordError(f'{where}: {MCOUNT} is used other than '
                                  'by a call')
            if not target.flags & SHF_EXECINSTR:
                raise RecordError(f'{where}: call of {MCOUNT} outside '
                                  'code')
            sites.append((sec.info, offset))
    return sorted(sites)


def renumber_relas(sec, renumber):
    sec.data = b''.join(RELA.pack(off, renumber(info >> 32) << 32 |
                                  (info & 0xffffffff), addend)
                        for off, info, addend in relas(sec))


def add_site_symbols(elf, sites):
    """Put local symbol .Lmcount_K on site K; return the first's index.

    Locals come before globals in a symbol table, so the new ones go at
    the end of the locals and every reference to a global moves up.
    """
    symtab = elf.sections[elf.symtab_index()]
    strtab = elf.sections[symtab.link]
    first_global, count = symtab.info, len(sites)
    new = b''
    for k, (shndx, offset) in enumerate(sites):
        new += SYM.pack(len(strtab.data), STB_LOCAL << 4 | STT_NOTYPE, 0,
                        shndx, offset, 0)
        strtab.data += f'.Lmcount_{k}'.encode() + b'\0'
    cut = first_global * SYM.size
    symtab.data = symtab.data[:cut] + new + symtab.data[cut:]
    symtab.info += count

    def renumber(index):
        return index + count if index >= first_global else index

    for sec in elf.sections:
        if sec.type in (SHT_REL, SHT_SYMTAB_SHNDX):
            raise RecordError(f'{elf.section_name(sec)}: section type '
                              f'{sec.type} is not supported')
        if sec.type == SHT_RELA:
            renumber_relas(sec, renumber)
        elif sec.type == SHT_GROUP:
            sec.info = renumber(sec.info)
    return first_global


def add_mcount_loc(elf, sites):
    """The table: one slot per site, relocated to the site's symbol."""
    if any(elf.section_name(sec) == TABLE for sec in elf.sections):
        raise RecordError(f'already has {TABLE}: record an object once')
    first = add_site_symbols(elf, sites)
    table = elf.add_section(TABLE, bytes(8 * len(sites)), SHT_PROGBITS,
                            SHF_ALLOC, entsize=8)
    relocs = b''.join(RELA.pack(8 * k, (first + k) << 32 | R_RISCV_64, 0)
                      for k in range(len(sites)))
    elf.add_section('.rela' + TABLE, relocs, SHT_RELA, SHF_INFO_LINK,
                    link=elf.symtab_index(), info=table, entsize=RELA.size)


def record(path):
    with open(path, 'rb') as f:
        elf = Elf(f.read())
    if elf.e_type != ET_REL:
        raise RecordError('not a relocatable object')
    sites = mcount_sites(elf)
    if not sites:
        return
    add_mcount_loc(elf, sites)
    with open(path + '.tmp', 'wb') as f:
        f.write(elf.to_bytes())
    os.replace(path + '.tmp', path)


# --- checking: the linked kernel ------------------------------------------

def bits(x, hi, lo):
    return (x >> lo) & ((2 << (hi - lo)) - 1)


def sext(x, width):
    return x - (1 << width) if x >> (width - 1) & 1 else x


def jal_target(pc, insn):
    return pc + sext(bits(insn, 31, 31) << 20 | bits(insn, 19, 12) << 12 |
                     bits(insn, 20, 20) << 11 | bits(insn, 30, 21) << 1, 21)


def auipc_jalr_target(pc, auipc, jalr):
    return pc + sext(auipc & 0xfffff000, 32) + sext(bits(jalr, 31, 20), 12)


def instructions(code, addr):
    """(pc, 32-bit word or halfword) of each instruction, in order."""
    off = 0
    while off + 2 <= len(code):
        half = int.from_bytes(code[off:off + 2], 'little')
        size = 4 if half & 3 == 3 else 2
        yield addr + off, int.from_bytes(code[off:off + size], 'little')
        off += size


def calls_of(code, addr, target):
    """pc of each `jal ra, target` in code; 8-byte calls are errors."""
    found, prev = [], (None, 0)
    for pc, insn in instructions(code, addr):
        op, rd = bits(insn, 6, 0), bits(insn, 11, 7)
        if op == OP_JAL and jal_target(pc, insn) == target:
            if rd != RV_REG_RA:
                raise RecordError(f'{pc:#x}: jumps to {MCOUNT} without '
                                  'linking ra')
            found.append(pc)
        elif (op == OP_JALR and prev[1] & 0x7f == OP_AUIPC and
              auipc_jalr_target(prev[0], prev[1], insn) == target):
            raise RecordError(f'{prev[0]:#x}: 8-byte call of {MCOUNT} '
                              'that the linker did not relax to a jal '
                              '(over 1 MiB away: the -pg build has no '
                              'veneers, asm/ftrace.h)')
        prev = (pc, insn)
    return found


def read_vaddr(elf, vaddr, size):
    for sec in elf.sections:
        if sec.addr <= vaddr and vaddr + size <= sec.addr + len(sec.data) \
           and sec.flags & SHF_ALLOC:
            off = vaddr - sec.addr
            return sec.data[off:off + size]
    raise RecordError(f'{vaddr:#x}: not in any loaded section')


def symbol_value(values, name):
    if name not in values:
        raise RecordError(f'no symbol {name}')
    return values[name]


def check_kernel(elf):
    """Errors (strings) in the record table of a linked kernel."""
    syms = elf.symbols()
    values = {name: s[4] for name, s in syms if name}
    start = symbol_value(values, '__start_mcount_loc')
    stop = symbol_value(values, '__stop_mcount_loc')
    mcount = symbol_value(values, MCOUNT)
    records = Counter(struct.unpack(f'<{(stop - start) // 8}Q',
                                    read_vaddr(elf, start, stop - start)))
    funcs = {(s[4], s[5]): name for name, s in syms
             if s[1] & 0xf == STT_FUNC and s[5]}
    errors, sites = [], {}
    for (addr, size), name in sorted(funcs.items()):
        try:
            calls = calls_of(read_vaddr(elf, addr, size), addr, mcount)
        except RecordError as e:
            errors.append(f'{name}: {e}')
            continue
        if len(calls) > 1:
            errors.append(f'{name}: calls {MCOUNT} {len(calls)} times')
        sites.update((pc, name) for pc in calls)
    errors += [f'{name}: its site {pc:#x} has {records[pc]} records'
               for pc, name in sorted(sites.items()) if records[pc] != 1]
    errors += [f'record {ip:#x} is not a call of {MCOUNT}'
               for ip in sorted(records) if ip not in sites]
    return errors


def check(path):
    with open(path, 'rb') as f:
        errors = check_kernel(Elf(f.read()))
    if errors:
        raise RecordError('bad mcount records:\n  ' + '\n  '.join(errors))


def main(argv):
    try:
        if len(argv) == 2 and argv[0] == '--check':
            check(argv[1])
        elif len(argv) == 1 and not argv[0].startswith('-'):
            record(argv[0])
        else:
            raise RecordError('usage: recordmcount.py OBJ | '
                              'recordmcount.py --check ELF')
    except RecordError as e:
        sys.exit(f'recordmcount.py: {argv[-1] if argv else ""}: {e}')


if __name__ == '__main__':
    main(sys.argv[1:])
