#!/usr/bin/env python3
"""checkelf.py: check the final kernel against its first link pass.

    checkelf.py PASS1_NM FINAL_SYM     (`nm -n -S` and `nm -n` listings)

1. Every symbol below _kallsyms has the same address in both passes, and
   none appeared or vanished: the table made from pass one describes the
   final kernel only if filling it in moved nothing.
2. Every ftrace call site reaches the trampolines with one `jal`, whose
   reach is +-1 MiB: directly, or, in a kernel with veneers (the
   patchable build, asm/ftrace_veneer.h), through the nearest one. With
   veneers, every function in text must lie within reach of
   ftrace_caller or of a veneer; without (the -pg builds, whose call of
   _mcount ld must relax into one jal), text spans less than 1 MiB.
3. _etext lies below 4 GiB: a function event keeps its ip and parent ip
   in 32 bits each (trace/trace.h, struct ftrace_entry), and both are
   addresses in text.
"""
import bisect
import sys
from collections import Counter

from kallsyms import die, marker, parse_nm

JAL_REACH = 1 << 20
EVENT_IP_LIMIT = 1 << 32


def image_symbols(syms):
    """(name, address) of every symbol in front of the table, and _kallsyms."""
    end = marker(syms, '_kallsyms')
    return Counter((sym.name, sym.addr) for sym in syms
                   if sym.addr < end or sym.name == '_kallsyms')


def describe(pairs):
    return ', '.join(f'{name}@{addr:#x}' for name, addr in sorted(pairs))


def check_unmoved(pass1, final):
    before, after = image_symbols(pass1), image_symbols(final)
    if before == after:
        return
    die('symbols differ between the two link passes, so the kallsyms '
        'table would name the wrong addresses.\n'
        f'  only in pass one: {describe(before - after) or "none"}\n'
        f'  only in the final kernel: {describe(after - before) or "none"}\n'
        'The .kallsyms section must stay last in linker.ld, and the '
        'generated table must put everything in section .kallsyms.')


VENEER = 'ftrace_caller_veneer'
VENEER_PAIR_SIZE = 16


def far_functions(final, veneers):
    """Text functions out of jal's reach of ftrace_caller and of every
    veneer pair (the site may be anywhere in its first bytes, the
    veneer anywhere in its pair: a margin of one pair)."""
    reach = JAL_REACH - VENEER_PAIR_SIZE
    start, end = marker(final, '_text'), marker(final, '_etext')
    tramp = marker(final, 'ftrace_caller')
    near = sorted(veneers + [tramp])
    far = []
    for sym in final:
        if sym.kind not in 'tT' or not start <= sym.addr < end:
            continue
        i = bisect.bisect_left(near, sym.addr)
        if all(abs(sym.addr - near[j]) >= reach
               for j in (i - 1, i) if 0 <= j < len(near)):
            far.append(sym)
    return far


def check_text_reach(final):
    veneers = [sym.addr for sym in final if sym.name == VENEER]
    if veneers:
        far = far_functions(final, veneers)
        if far:
            die(f'{len(far)} functions, {far[0].name}@{far[0].addr:#x} '
                'first, lie out of jal\'s +-1 MiB reach of ftrace_caller '
                'and of every veneer (asm/ftrace_veneer.h): is one '
                'object\'s text over 1 MiB?')
        return
    span = marker(final, '_etext') - marker(final, '_text')
    if span >= JAL_REACH:
        die(f'.text (_text.._etext) spans {span:#x} bytes, 1 MiB or more: '
            'the ftrace call sites reach the trampoline at the start of '
            'text with a single jal, which reaches only +-1 MiB, and '
            'this build has no veneers (asm/ftrace.h).')


def check_ips_fit_events(final):
    end = marker(final, '_etext')
    if end > EVENT_IP_LIMIT:
        die(f'.text ends at {end:#x}, above 4 GiB: a function event keeps '
            'its ip and parent ip in 32 bits each (trace/trace.h, struct '
            'ftrace_entry), so the trace would name the wrong functions.')


def main(argv):
    if len(argv) != 2:
        die('usage: checkelf.py PASS1_NM FINAL_SYM')
    with open(argv[0]) as pass1, open(argv[1]) as final:
        pass1_syms, final_syms = parse_nm(pass1), parse_nm(final)
    check_unmoved(pass1_syms, final_syms)
    check_text_reach(final_syms)
    check_ips_fit_events(final_syms)


if __name__ == '__main__':
    main(sys.argv[1:])
