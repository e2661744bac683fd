"""test_ret_stack_publish.py: trace/fgraph.c:graph_init_task publishes a
task's ret_stack with a compare-and-swap after it zeroed the task's
graph fields (curr_ret_stack, trace_overrun, ...), so a CPU that finds
the stack finds them zeroed too: Linux puts smp_wmb() before its store
of ret_stack. GCC 12 makes a bare lr.d and sc.d of a compare-and-swap
with __ATOMIC_RELEASE, no fence, and QEMU on an x86 host keeps stores
in order, so no selftest could see it: this checks kernel.asm. Each
sc.d of the functions that publish a stack (graph_init_task, or those
it is inlined into) comes after a fence that orders stores before
stores (`fence w,w` or stronger), with no store between the fence and
its lr.d.

Run with python3 [BUILD]; prints KTAP. Needs BUILD/kernel.asm (make).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from test_ops_publish import (  # noqa: E402
    STORE, functions, kernel_asm, report)

PUBLISHERS = ('graph_init_task', 'graph_on_create', 'give_ret_stack')


def fenced(insns, lr):
    """Is the last fence or store before the lr.d at lr a fence that
    orders earlier stores before later ones?"""
    for op, args, _ in reversed(insns[:lr]):
        if op == 'fence':
            pred, succ = (args + ['', ''])[:2]
            return 'w' in pred and 'w' in succ
        if STORE.match(op):
            return False
    return False


def checks(lines):
    """(text, ok) for each compare-and-swap loop of the publishers."""
    for name, insns in functions(lines):
        if name not in PUBLISHERS:
            continue
        for i, (op, args, _) in enumerate(insns):
            if op.startswith('lr.d'):
                yield (f'{name}: {op} {",".join(args)} comes after a '
                       f'store fence'), fenced(insns, i)


def main():
    found = list(checks(kernel_asm()))
    return report(bool(found), 'a publish of a ret_stack is found', found)


if __name__ == '__main__':
    sys.exit(main())
