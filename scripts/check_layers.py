#!/usr/bin/env python3
"""check_layers.py: a layer calls only down, checked on the linked kernel.

    scripts/check_layers.py BUILD/kernel.map

Reads the cross-reference table GNU ld writes with -Map and --cref:
for each global symbol, the object that defines it, then every object
that refers to it (a call, a jump or an address taken). Each object
belongs to a room (ROOMS, lowest first, docs/architecture.md draws
them); a reference from an object to one in a higher room is an upward
call, which must go through a registered callback or a table instead
(initcalls, BOOT_PROGRAM, SHELL_COMMAND, WORKLOAD, the unwinder hook).
Symbols the linker script defines (_text, __start_shell_cmds) belong
to no object and are skipped, as is _mcount, which -pg calls from every
traced function, and the trampolines the veneers of every traced object
jump to (asm/ftrace_veneer.h). An object in no room is an error too, so
a new folder must be given its place.

The map's objects are BUILD's (BUILD/trace/ftrace.o is trace/ftrace).
Prints one line per upward reference and exits 1 if there is any.
"""

import fnmatch
import os
import re
import sys

# (room, object patterns), lowest first; an object is named by its
# source's path without the extension (trace/ftrace for trace/ftrace.c,
# kallsyms for the generated table).
ROOMS = (
    ('core', ('arch/riscv/*', 'kernel/*', 'lib/*', 'kallsyms', 'pad_text')),
    ('fs', ('kernel/fs/*',)),
    ('trace', ('trace/*', 'arch/riscv/kernel/ftrace',
               'arch/riscv/kernel/mcount', 'arch/riscv/kernel/mcount-*',
               'arch/riscv/kernel/ftrace_fast')),
    ('fixtures', ('kernel/trace_fixtures',)),
    ('shell', ('kernel/shell/*',)),
    ('demo', ('kernel/demo/*',)),
    ('selftests', ('*_test', '*_selftest')),
)
RANK = {room: rank for rank, (room, _) in enumerate(ROOMS)}
# Most specific first: a selftest in kernel/fs/ is a selftest, the arch
# half of ftrace is trace/'s, and kernel/* matches kernel/fs/vfs too.
ROOM_MATCH_ORDER = ('selftests', 'fixtures', 'demo', 'shell', 'fs',
                    'trace', 'core')
# The call -pg puts in every traced function is the site itself, not a
# call the code makes; so are the jumps of each traced object's veneers.
COMPILER_SYMBOLS = {'_mcount', 'ftrace_caller', 'ftrace_regs_caller'}
ASSIGNMENT = re.compile(r'^\s+0x[0-9a-f]+\s+(\w+) = ', re.M)


def unit_of(obj, build):
    """An object's name in ROOMS: build/trace/ftrace.o is trace/ftrace,
    the generated build/kallsyms.o is kallsyms."""
    unit = os.path.relpath(obj, build)
    return unit[:-2] if unit.endswith('.o') else unit


def room_of(unit):
    patterns = dict(ROOMS)
    for room in ROOM_MATCH_ORDER:
        if any(fnmatch.fnmatchcase(unit, p) for p in patterns[room]):
            return room
    return None


def parse_cref(text):
    """[(symbol, defining object, [referring objects])] of the map's
    cross-reference table, linker script symbols left out."""
    head, sep, table = text.partition('Cross Reference Table')
    if not sep:
        raise ValueError('no cross reference table: link with --cref')
    script_symbols = set(ASSIGNMENT.findall(head))
    entries, current = [], None
    for line in table.splitlines()[1:]:
        if not line.strip() or line.startswith('Symbol'):
            continue
        if not line[0].isspace():
            name, *files = line.split()
            current = [name, files]
            entries.append(current)
        elif current:
            current[1].append(line.strip())
    return [(name, files[0], files[1:]) for name, files in entries
            if files and name not in script_symbols | COMPILER_SYMBOLS]


def violations(text, build):
    """Lines naming each upward reference or object in no room, for a
    map of build's objects."""
    found = set()
    for name, definer, users in parse_cref(text):
        to_unit = unit_of(definer, build)
        to = room_of(to_unit)
        for user in users:
            frm_unit = unit_of(user, build)
            frm = room_of(frm_unit)
            for unit, room in ((to_unit, to), (frm_unit, frm)):
                if room is None:
                    found.add(f'{unit}: in no room')
            if to and frm and RANK[to] > RANK[frm]:
                found.add(f'{frm_unit} ({frm}) -> {to_unit} ({to}): {name}')
    return sorted(found)


def main(argv):
    if len(argv) != 2:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        bad = violations(f.read(), os.path.dirname(argv[1]))
    for line in bad:
        print(f'check_layers: upward: {line}' if '->' in line
              else f'check_layers: {line}')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
