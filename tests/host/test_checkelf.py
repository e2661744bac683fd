"""test_checkelf.py: scripts/checkelf.py refuses a kernel with a function
that a jal cannot take to ftrace_caller nor to a veneer (or, without
veneers, whose text a single jal cannot span), or whose addresses a
function event's 32-bit ips cannot hold, and passes one that fits.

Each case is a pair of `nm -n` listings (the first pass, with sizes, and
the final kernel) run through the script as the Makefile runs it.

Run with python3; prints KTAP.
"""

import os
import subprocess
import sys
import tempfile
import ktap

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), '..', '..'))
SCRIPT = os.path.join(ROOT, 'scripts', 'checkelf.py')


MIB = 1 << 20


def listing(text_start, text_end, sized, extra=()):
    """nm lines of a kernel whose text spans text_start..text_end, with
    the extra (offset from _text, type, name) symbols."""
    rows = [(text_start, 'T', '_text'), (text_start + 0x40, 'T', 'fib'),
            (text_end, 'R', '_etext'), (text_end + 0x1000, 'R', '_kallsyms')]
    rows = sorted(rows + [(text_start + off, k, n) for off, k, n in extra])
    if sized:
        return ''.join(f'{a:016x} {0x10:016x} {k} {n}\n' for a, k, n in rows)
    return ''.join(f'{a:016x} {k} {n}\n' for a, k, n in rows)


def run_checkelf(text_start, text_end, extra=()):
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for name, sized in (('pass1.nm', True), ('kernel.sym', False)):
            path = os.path.join(tmp, name)
            with open(path, 'w') as f:
                f.write(listing(text_start, text_end, sized, extra))
            paths.append(path)
        proc = subprocess.run([sys.executable, SCRIPT] + paths,
                              capture_output=True, text=True)
    return proc.returncode, proc.stderr


# A kernel with veneers (asm/ftrace_veneer.h): ftrace_caller near _text,
# then 3 MiB of text, functions far from it beside their object's veneers.
TRAMP = ((0x10, 'T', 'ftrace_caller'),)
FAR_OBJECT = ((3 * MIB, 't', 'ftrace_caller_veneer'),
              (3 * MIB + 8, 't', 'ftrace_regs_caller_veneer'),
              (3 * MIB + 0x100, 'T', 'far_function'))
LONE_FUNCTION = ((3 * MIB - 0x100000, 'T', 'lone_function'),)

CASES = (
    ('a kernel at 0x80200000 with 200 KiB of text passes',
     0x80200000, 0x80232000, (), None),
    ('text of 1 MiB without veneers fails: a jal reaches +-1 MiB',
     0x80200000, 0x80300000, (), 'spans 0x100000 bytes'),
    ('text that ends above 4 GiB fails: events keep 32-bit ips',
     0xfffe0000, 0x100010000, (), 'above 4 GiB'),
    ('4 MiB of text passes: each far function has a veneer in reach',
     0x80200000, 0x80600000, TRAMP + FAR_OBJECT, None),
    ('a function 1 MiB from ftrace_caller and every veneer fails',
     0x80200000, 0x80600000, TRAMP + FAR_OBJECT + LONE_FUNCTION,
     '1 functions, lone_function@0x80400000 first, lie out of'),
)


def checks():
    for name, start, end, extra, error in CASES:
        status, stderr = run_checkelf(start, end, extra)
        if error is None:
            yield name, status == 0, stderr
        else:
            yield name, status != 0 and error in stderr, stderr


def main():
    return ktap.report(list(checks()))


if __name__ == '__main__':
    sys.exit(main())
