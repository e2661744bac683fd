"""test_unused.py: no function is defined and never called.

The Makefile links the kernel again with a section per function and
--gc-sections (its $(B)/gc/ build); a function whose section the
linker removed is referenced by nothing that the kernel keeps, however
indirectly. A static inline from a header leaves a copy in each object
that calls it, so a name counts as unused only when no copy of it is
left in the linked kernel. The second case links one more object,
tests/host/fixtures/unused_probe.c, and the check must name its
function: a check that cannot fail proves nothing.

Run with python3 [BUILD]; prints KTAP. It runs make for the two links,
which `make test` has already brought up to date.
"""

import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), '..', '..'))
REMOVED = re.compile(r"removing unused section '\.text\.(?:unlikely\.|hot\.)?"
                     r"([\w.]+)' in file '([^']+)'")
# GCC's clones keep the name they were made from before the first dot.
CLONE = re.compile(r'\..*$')


def make(build, target):
    proc = subprocess.run(['make', '-s', '--no-print-directory',
                           f'B={build}', f'{build}/gc/{target}'],
                          cwd=ROOT, capture_output=True, text=True)
    if proc.returncode:
        raise SystemExit(f'make {target} failed:\n{proc.stdout}'
                         f'{proc.stderr}')


def unused(build, link):
    """(function, object) for each function of this link that nothing
    references."""
    make(build, f'{link}.removed')
    prefix = os.path.join(ROOT, build, 'gc', link)
    with open(f'{prefix}.sym') as f:
        kept = {CLONE.sub('', line.split()[-1]) for line in f
                if line.strip()}
    with open(f'{prefix}.removed') as f:
        found = {(CLONE.sub('', m[1]), os.path.relpath(m[2], build))
                 for m in REMOVED.finditer(f.read())}
    return sorted((name, obj) for name, obj in found if name not in kept)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else 'build'
    kernel = unused(build, 'kernel')
    probe = unused(build, 'probe')
    print('KTAP version 1')
    print('1..2')
    for name, obj in kernel:
        print(f'# never called: {name} ({obj})')
    print(f"{'not ' if kernel else ''}ok 1 - no_unused_functions")
    added = sorted({name for name, _ in probe} - {name for name, _ in kernel})
    if added != ['unused_probe']:
        print(f'# with unused_probe.o linked in, newly found: {added}')
    print(f"{'' if added == ['unused_probe'] else 'not '}ok 2 - "
          'finds_an_added_function')
    return 0 if not kernel and added == ['unused_probe'] else 1

if __name__ == '__main__':
    sys.exit(main())
