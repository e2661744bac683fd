"""test_debug_script.py: `make debug`'s gdb script names only symbols
the kernel has, so each breakpoint it sets can be placed.

Run with python3; prints KTAP. Needs build/kernel.sym (make).
"""

import os
import re
import sys

ROOT = os.path.join(os.path.dirname(__file__), '..', '..')


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else 'build'
    with open(os.path.join(ROOT, build, 'kernel.sym')) as f:
        symbols = {line.split()[-1] for line in f if line.strip()}
    with open(os.path.join(ROOT, 'scripts', 'rvftrace.gdb')) as f:
        breaks = re.findall(r'^break (\S+)', f.read(), re.M)
    print('KTAP version 1')
    print(f'1..{len(breaks)}')
    bad = 0
    for i, name in enumerate(breaks, 1):
        ok = name in symbols
        bad += not ok
        print(f"{'' if ok else 'not '}ok {i} - break {name}")
    return 1 if bad or not breaks else 0


if __name__ == '__main__':
    sys.exit(main())
