"""test_checkelf.py: scripts/checkelf.py refuses a kernel whose text a
single jal cannot span, or whose addresses a function event's 32-bit
ips cannot hold, and passes one that fits.

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


def listing(text_start, text_end, sized):
    """nm lines of a kernel whose text spans text_start..text_end."""
    rows = [(text_start, 'T', '_text'), (text_start + 0x40, 'T', 'fib'),
            (text_end, 'R', '_etext'), (text_end + 0x1000, 'R', '_kallsyms')]
    if sized:
        return ''.join(f'{a:016x} {0x10:016x} {k} {n}\n' for a, k, n in rows)
    return ''.join(f'{a:016x} {k} {n}\n' for a, k, n in rows)


def run_checkelf(text_start, text_end):
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for name, sized in (('pass1.nm', True), ('kernel.sym', False)):
            path = os.path.join(tmp, name)
            with open(path, 'w') as f:
                f.write(listing(text_start, text_end, sized))
            paths.append(path)
        proc = subprocess.run([sys.executable, SCRIPT] + paths,
                              capture_output=True, text=True)
    return proc.returncode, proc.stderr


CASES = (
    ('a kernel at 0x80200000 with 200 KiB of text passes',
     0x80200000, 0x80232000, None),
    ('text of 1 MiB fails: a jal reaches +-1 MiB',
     0x80200000, 0x80300000, 'spans 0x100000 bytes'),
    ('text that ends above 4 GiB fails: events keep 32-bit ips',
     0xfffe0000, 0x100010000, 'above 4 GiB'),
)


def checks():
    for name, start, end, error in CASES:
        status, stderr = run_checkelf(start, end)
        if error is None:
            yield name, status == 0, stderr
        else:
            yield name, status != 0 and error in stderr, stderr


def main():
    return ktap.report(list(checks()))


if __name__ == '__main__':
    sys.exit(main())
