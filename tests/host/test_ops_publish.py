"""test_ops_publish.py: trace/ftrace.c:add_ftrace_ops publishes an ops
with a release store (Linux's rcu_assign_pointer), so a CPU walking
the list in ftrace_ops_list_func never finds the ops before its next
pointer. A weak memory model (RVWMO) may otherwise make the two stores
visible in either order, and the compiler may swap them too; a test
in QEMU cannot see the first on an x86 host, which keeps stores in
order. So this checks the code the compiler made: in kernel.asm, each
store to ftrace_ops_list comes after a `fence rw,w` or a stronger one
(GCC writes `fence iorw,ow` and an amoswap) with no store in between.

Run with python3 [BUILD]; prints KTAP. Needs BUILD/kernel.asm (make).
"""

import os
import re
import sys

ROOT = os.path.join(os.path.dirname(__file__), '..', '..')
LIST = '<ftrace_ops_list>'
FUNC = re.compile(r'^[0-9a-f]+ <(\S+)>:$')
INSN = re.compile(r'^\s+[0-9a-f]+:\s+[0-9a-f]+\s+(\S+)\s*([^#]*?)\s*'
                  r'(?:#(.*))?$')
STORE = re.compile(r'^(s[bhwd]|sc\.[wd].*|amo.*)$')
MEM_BASE = re.compile(r'^(-?\d+)?\((\w+)\)$')


def functions(lines):
    """(name, [(mnemonic, operands, comment)]) for each function."""
    name, insns = None, []
    for line in lines:
        m = FUNC.match(line)
        if m:
            if name:
                yield name, insns
            name, insns = m[1], []
            continue
        m = INSN.match(line)
        if m and name:
            insns.append((m[1], m[2].split(','), m[3] or ''))
    if name:
        yield name, insns


def list_stores(insns):
    """Indexes of the stores to ftrace_ops_list: through a register
    that an add of its address set, or by name."""
    holds, found = set(), []
    for i, (op, args, comment) in enumerate(insns):
        if STORE.match(op):
            base = MEM_BASE.match(args[-1])
            if LIST in comment or (base and base[2] in holds and
                                   int(base[1] or 0) == 0):
                found.append(i)
            continue
        if op.startswith('b') or op.startswith('j') or not args[0]:
            continue
        holds.discard(args[0])
        if op in ('add', 'addi') and LIST in comment:
            holds.add(args[0])
    return found


def released(insns, i):
    """Is the last fence or store before insns[i] a `fence rw,w` (or
    one stronger)?"""
    for op, args, _ in reversed(insns[:i]):
        if op == 'fence':
            pred, succ = (args + ['', ''])[:2]
            return 'r' in pred and 'w' in pred and 'w' in succ
        if STORE.match(op):
            return False
    return False


def kernel_asm():
    """The lines of BUILD/kernel.asm, BUILD the first argument."""
    build = sys.argv[1] if len(sys.argv) > 1 else 'build'
    with open(os.path.join(ROOT, build, 'kernel.asm')) as f:
        return f.read().splitlines()


def report(found, first, checks):
    """KTAP: the case `first` (true if the code looked for was found),
    then each (text, ok) of checks; the exit status."""
    print('KTAP version 1')
    print(f'1..{len(checks) + 1}')
    print(f"{'' if found else 'not '}ok 1 - {first}")
    for n, (text, ok) in enumerate(checks, 2):
        print(f"{'' if ok else 'not '}ok {n} - {text}")
    return 0 if found and all(ok for _, ok in checks) else 1


def main():
    stores = [(name, insns, i) for name, insns in functions(kernel_asm())
              for i in list_stores(insns)]
    return report(bool(stores), 'a store to ftrace_ops_list is found',
                  [(f"{name}: {insns[i][0]} {','.join(insns[i][1])} is a "
                    f"release store", released(insns, i))
                   for name, insns, i in stores])


if __name__ == '__main__':
    sys.exit(main())
