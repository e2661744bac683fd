#!/usr/bin/env python3
"""test_recordmcount.py: host unit tests of scripts/recordmcount.py, on
ELF files built here byte by byte (so the writer under test is not also
the one that made its input). Prints KTAP, one `ok N - name` per test;
exits 1 if any failed.

Recording: an object whose .rela.text calls _mcount twice and whose
.rela.text.unlikely calls it once gains .Lmcount_K symbols on exactly
those sites, a relocated __mcount_loc, and keeps every other reference.
Checking: small linked images with good and bad tables.
"""
import os
import struct
import sys
import tempfile
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'scripts'))
sys.dont_write_bytecode = True      # leave no __pycache__ in scripts/
import recordmcount as rm  # noqa: E402  (found through the path above)

SHT_STRTAB = 3
ET_EXEC = 2
STB_GLOBAL, STT_SECTION = 1, 3
R_RISCV_RELAX = 51
E_FLAGS = 0x5              # RVC, float ABI soft: must survive a rewrite


# --- building ELF files ----------------------------------------------------

class Sec:
    def __init__(self, name, sh_type, data=b'', flags=0, link=0, info=0,
                 align=1, entsize=0, addr=0):
        self.name, self.type, self.data = name, sh_type, data
        self.flags, self.link, self.info = flags, link, info
        self.align, self.entsize, self.addr = align, entsize, addr


def elf_bytes(secs, e_type=rm.ET_REL):
    """An ELF file of secs (indexes 1..), then .shstrtab."""
    secs = secs + [Sec('.shstrtab', SHT_STRTAB)]
    names = b'\0'
    name_offs = []
    for sec in secs:
        name_offs.append(len(names))
        names += sec.name.encode() + b'\0'
    secs[-1].data = names
    out = bytearray(rm.EHDR.size)
    offsets = []
    for sec in secs:
        out += bytes(-len(out) % sec.align)
        offsets.append(len(out))
        out += sec.data
    out += bytes(-len(out) % 8)
    shoff = len(out)
    out += bytes(rm.SHDR.size)
    for sec, name_off, off in zip(secs, name_offs, offsets):
        out += rm.SHDR.pack(name_off, sec.type, sec.flags, sec.addr, off,
                            len(sec.data), sec.link, sec.info, sec.align,
                            sec.entsize)
    ident = b'\x7fELF\x02\x01\x01' + bytes(9)
    rm.EHDR.pack_into(out, 0, ident, e_type, rm.EM_RISCV, 1, 0, 0, shoff,
                      E_FLAGS, rm.EHDR.size, 0, 0, rm.SHDR.size,
                      len(secs) + 1, len(secs))
    return bytes(out)


def symtab(syms, first_global, link):
    """(symtab data, strtab data) of (name, bind, type, shndx, value,
    size) tuples, after the null symbol."""
    strtab, data = b'\0', bytes(rm.SYM.size)
    for name, bind, sym_type, shndx, value, size in syms:
        data += rm.SYM.pack(len(strtab), bind << 4 | sym_type, 0, shndx,
                            value, size)
        strtab += name.encode() + b'\0'
    return (Sec('.symtab', rm.SHT_SYMTAB, data, link=link,
                info=first_global, align=8, entsize=rm.SYM.size),
            Sec('.strtab', SHT_STRTAB, strtab))


def rela_sec(name, target, relocs):
    data = b''.join(rm.RELA.pack(off, sym << 32 | rtype, 0)
                    for off, sym, rtype in relocs)
    return Sec(name, rm.SHT_RELA, data, flags=rm.SHF_INFO_LINK, link=4,
               info=target, align=8, entsize=rm.RELA.size)


# Symbols: 1 .text (section), 2 helper (local) | 3 _mcount, 4 f, 5 other.
MCOUNT_SYM, F_SYM, OTHER_SYM = 3, 4, 5
TEXT_CODE = bytes(range(0x40))


def test_object(data_relocs=((0, F_SYM, rm.R_RISCV_64),)):
    syms, strs = symtab([
        ('', rm.STB_LOCAL, STT_SECTION, 1, 0, 0),
        ('helper', rm.STB_LOCAL, rm.STT_FUNC, 1, 0x20, 0x20),
        ('_mcount', STB_GLOBAL, rm.STT_NOTYPE, 0, 0, 0),
        ('f', STB_GLOBAL, rm.STT_FUNC, 1, 0, 0x20),
        ('other', STB_GLOBAL, rm.STT_NOTYPE, 0, 0, 0),
    ], first_global=3, link=5)
    code = rm.SHF_ALLOC | rm.SHF_EXECINSTR
    return elf_bytes([
        Sec('.text', rm.SHT_PROGBITS, TEXT_CODE, flags=code, align=4),
        Sec('.text.unlikely', rm.SHT_PROGBITS, bytes(16), flags=code),
        Sec('.data', rm.SHT_PROGBITS, bytes(8), flags=rm.SHF_ALLOC | 1),
        syms, strs,
        rela_sec('.rela.text', 1, [(0x8, MCOUNT_SYM, rm.R_RISCV_CALL_PLT),
                                   (0x8, 0, R_RISCV_RELAX),
                                   (0x14, OTHER_SYM, rm.R_RISCV_CALL_PLT),
                                   (0x28, MCOUNT_SYM, rm.R_RISCV_CALL)]),
        rela_sec('.rela.text.unlikely', 2,
                 [(0x4, MCOUNT_SYM, rm.R_RISCV_CALL_PLT)]),
        rela_sec('.rela.data', 3, data_relocs),
    ])


SITES = [(1, 0x8), (1, 0x28), (2, 0x4)]


def recorded():
    elf = rm.Elf(test_object())
    rm.add_mcount_loc(elf, rm.mcount_sites(elf))
    return rm.Elf(elf.to_bytes())


def section(elf, name):
    for i, sec in enumerate(elf.sections):
        if elf.section_name(sec) == name:
            return i, sec
    raise AssertionError(f'no section {name}')


def reloc_names(elf, name):
    """(offset, type, symbol name) of each relocation of a section."""
    names = [n for n, _ in elf.symbols()]
    return [(off, info & 0xffffffff, names[info >> 32])
            for off, info, _ in rm.relas(section(elf, name)[1])]


def expect_error(fn, words):
    try:
        fn()
    except rm.RecordError as e:
        assert words in str(e), f'error {e!r} lacks {words!r}'
        return
    raise AssertionError(f'no error about {words!r}')


# --- recording ---------------------------------------------------------------

def finds_calls_of_mcount_only():
    assert rm.mcount_sites(rm.Elf(test_object())) == SITES


def site_symbols_sit_on_sites():
    elf = recorded()
    syms = elf.symbols()
    placed = [(s[3], s[4]) for name, s in syms if name.startswith('.L')]
    assert placed == SITES, placed
    assert all(s[1] >> 4 == rm.STB_LOCAL for name, s in syms
               if name.startswith('.Lmcount_'))
    first_global = elf.sections[elf.symtab_index()].info
    assert first_global == 3 + len(SITES)
    assert [name for name, _ in syms[first_global:]] == \
        ['_mcount', 'f', 'other']


def table_is_relocated_to_sites():
    elf = recorded()
    index, table = section(elf, '__mcount_loc')
    assert table.data == bytes(8 * len(SITES))
    assert table.flags == rm.SHF_ALLOC and table.addralign == 8
    _, rela = section(elf, '.rela__mcount_loc')
    assert (rela.link, rela.info) == (elf.symtab_index(), index)
    assert reloc_names(elf, '.rela__mcount_loc') == [
        (8 * k, rm.R_RISCV_64, f'.Lmcount_{k}') for k in range(3)]


def other_references_keep_their_symbols():
    before, after = rm.Elf(test_object()), recorded()
    for name in ('.rela.text', '.rela.text.unlikely', '.rela.data'):
        assert reloc_names(before, name) == reloc_names(after, name), name


def code_and_header_flags_unchanged():
    elf = recorded()
    assert section(elf, '.text')[1].data == TEXT_CODE
    assert elf.header[7] == E_FLAGS


def second_run_is_refused():
    elf = recorded()
    expect_error(lambda: rm.add_mcount_loc(elf, rm.mcount_sites(elf)),
                 'already has __mcount_loc')


def data_reference_to_mcount_is_refused():
    elf = rm.Elf(test_object([(0, MCOUNT_SYM, rm.R_RISCV_64)]))
    expect_error(lambda: rm.mcount_sites(elf), 'other than by a call')


def object_without_calls_is_untouched():
    syms, strs = symtab([('f', STB_GLOBAL, rm.STT_FUNC, 1, 0, 4)], 1, 3)
    blob = elf_bytes([Sec('.text', rm.SHT_PROGBITS, bytes(4),
                          flags=rm.SHF_ALLOC | rm.SHF_EXECINSTR),
                      syms, strs])
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'plain.o')
        with open(path, 'wb') as f:
            f.write(blob)
        rm.record(path)
        with open(path, 'rb') as f:
            assert f.read() == blob


# --- checking a linked kernel ------------------------------------------------

MCOUNT_ADDR, TABLE_ADDR = 0x1000, 0x2000
RET, C_MV_A0_RA, C_RET = 0x00008067, 0x8506, 0x8082


def enc_jal(pc, target, rd=rm.RV_REG_RA):
    imm = target - pc
    return (rm.bits(imm, 20, 20) << 31 | rm.bits(imm, 10, 1) << 21 |
            rm.bits(imm, 11, 11) << 20 | rm.bits(imm, 19, 12) << 12 |
            rd << 7 | rm.OP_JAL)


def enc_auipc_jalr(pc, target):
    off = target - pc
    hi, lo = (off + 0x800) >> 12, off & 0xfff
    return ((hi & 0xfffff) << 12 | 1 << 7 | rm.OP_AUIPC,
            lo << 20 | 1 << 15 | 1 << 7 | rm.OP_JALR)


def traced(pc, calls=1):
    """A function at pc: c.mv a0, ra; `calls` jal ra, _mcount; c.ret."""
    code = C_MV_A0_RA.to_bytes(2, 'little')
    for k in range(calls):
        code += enc_jal(pc + 2 + 4 * k, MCOUNT_ADDR).to_bytes(4, 'little')
    return code + C_RET.to_bytes(2, 'little')


def kernel(funcs, records):
    """A linked image: _mcount, then funcs [(name, code)], and a table."""
    text = RET.to_bytes(4, 'little')
    syms = [('_mcount', STB_GLOBAL, rm.STT_NOTYPE, 1, MCOUNT_ADDR, 0)]
    for name, code in funcs:
        syms.append((name, STB_GLOBAL, rm.STT_FUNC, 1,
                     MCOUNT_ADDR + len(text), len(code)))
        text += code
    table = b''.join(ip.to_bytes(8, 'little') for ip in records)
    syms += [('__start_mcount_loc', STB_GLOBAL, rm.STT_NOTYPE, 2,
              TABLE_ADDR, 0),
             ('__stop_mcount_loc', STB_GLOBAL, rm.STT_NOTYPE, 2,
              TABLE_ADDR + len(table), 0)]
    symsec, strs = symtab(syms, 1, link=4)
    return rm.Elf(elf_bytes([
        Sec('.text', rm.SHT_PROGBITS, text, addr=MCOUNT_ADDR, align=4,
            flags=rm.SHF_ALLOC | rm.SHF_EXECINSTR),
        Sec('.mcount_loc', rm.SHT_PROGBITS, table, addr=TABLE_ADDR,
            align=8, flags=rm.SHF_ALLOC),
        symsec, strs], e_type=ET_EXEC))


# f at 0x1004 (site 0x1006), g at 0x100c (site 0x100e)
F_SITE, G_SITE = 0x1006, 0x100e
GOOD_FUNCS = [('f', traced(0x1004)), ('g', traced(0x100c))]


def check_accepts_one_record_per_site():
    assert rm.check_kernel(kernel(GOOD_FUNCS, [F_SITE, G_SITE])) == []


def check_finds_missing_and_stray_records():
    errors = rm.check_kernel(kernel(GOOD_FUNCS, [F_SITE, 0x1004]))
    assert errors == ['g: its site 0x100e has 0 records',
                      'record 0x1004 is not a call of _mcount'], errors


def check_finds_duplicate_record():
    errors = rm.check_kernel(kernel(GOOD_FUNCS, [F_SITE, G_SITE, G_SITE]))
    assert errors == ['g: its site 0x100e has 2 records'], errors


def check_finds_second_call():
    funcs = [('f', traced(0x1004, calls=2))]
    errors = rm.check_kernel(kernel(funcs, [F_SITE, F_SITE + 4]))
    assert errors == ['f: calls _mcount 2 times'], errors


def check_finds_unrelaxed_call():
    auipc, jalr = enc_auipc_jalr(0x1004, MCOUNT_ADDR)
    code = (auipc.to_bytes(4, 'little') + jalr.to_bytes(4, 'little') +
            C_RET.to_bytes(2, 'little'))
    errors = rm.check_kernel(kernel([('h', code)], []))
    assert len(errors) == 1 and 'did not relax' in errors[0], errors


def jal_target_decodes_both_directions():
    for pc, target in ((0x1000, 0x1000 + 0xffffe), (0x100000, 0x1000),
                       (0x2002, 0x2000)):
        assert rm.jal_target(pc, enc_jal(pc, target)) == target


TESTS = [
    finds_calls_of_mcount_only,
    site_symbols_sit_on_sites,
    table_is_relocated_to_sites,
    other_references_keep_their_symbols,
    code_and_header_flags_unchanged,
    second_run_is_refused,
    data_reference_to_mcount_is_refused,
    object_without_calls_is_untouched,
    check_accepts_one_record_per_site,
    check_finds_missing_and_stray_records,
    check_finds_duplicate_record,
    check_finds_second_call,
    check_finds_unrelaxed_call,
    jal_target_decodes_both_directions,
]


def main():
    print(f'KTAP version 1\n1..{len(TESTS)}')
    failed = 0
    for num, test in enumerate(TESTS, 1):
        try:
            test()
            print(f'ok {num} - {test.__name__}')
        except Exception:
            failed += 1
            for line in traceback.format_exc().splitlines():
                print(f'    # {line}')
            print(f'not ok {num} - {test.__name__}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
