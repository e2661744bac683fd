"""test_mutex_order.py: the mutex's compare-and-swaps of owner
(kernel/spinlock.c) order the critical section as a lock must on RVWMO:
the one that takes the mutex is followed by `fence r,rw` (acquire:
nothing of the section reads before it), the one that gives it up is
preceded by `fence rw,w` (release: all of the section shows before the
owner is cleared), as Linux's arch_cmpxchg_acquire and
arch_cmpxchg_release. QEMU on an x86 host keeps stores in order, so no
selftest sees a missing release; this checks the code the compiler made,
in kernel.asm: GCC 12 makes lr.d and sc.d.aq of __ATOMIC_ACQ_REL,
without one.

Run with python3 [BUILD]; prints KTAP. Needs BUILD/kernel.asm (make).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from test_ops_publish import (  # noqa: E402
    functions, kernel_asm, released, report)

TAKERS = ('mutex_lock', 'mutex_trylock', 'mutex_lock_slowpath')
GIVERS = ('mutex_unlock',)


def fence_orders(args, pred, succ):
    """Does a fence with these operands order pred before succ?"""
    have_pred, have_succ = (args + ['', ''])[:2]
    return all(c in have_pred for c in pred) and \
        all(c in have_succ for c in succ)


def acquired(insns, i):
    """After the sc.d at i and its retry branch, a `fence r,rw` (or one
    stronger) before any other memory access."""
    for op, args, _ in insns[i + 1:]:
        if op == 'fence':
            return fence_orders(args, 'r', 'rw')
        if op.startswith('b'):
            continue
        return False
    return False


def lr_before(insns, i):
    """The index of the lr.d of the loop whose sc.d is at i."""
    for j in range(i - 1, -1, -1):
        if insns[j][0].startswith('lr.d'):
            return j
    return None


def checks(lines):
    """(text, ok) for each sc.d of the takers and givers."""
    for name, insns in functions(lines):
        if name not in TAKERS + GIVERS:
            continue
        for i, (op, args, _) in enumerate(insns):
            if not op.startswith('sc.d'):
                continue
            j = lr_before(insns, i)
            if name in TAKERS:
                ok = '.aq' in op or acquired(insns, i) or \
                    (j is not None and '.aq' in insns[j][0])
                what = 'an acquire'
            else:
                ok = op.endswith('.rl') or \
                    (j is not None and released(insns, j))
                what = 'a release'
            yield f'{name}: {op} {",".join(args)} is {what}', ok


def main():
    found = list(checks(kernel_asm()))
    names = {text.split(':')[0] for text, _ in found}
    return report(names == set(TAKERS + GIVERS),
                  f"an sc.d in each of {', '.join(TAKERS + GIVERS)}", found)


if __name__ == '__main__':
    sys.exit(main())
