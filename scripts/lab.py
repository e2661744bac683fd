#!/usr/bin/env python3
"""lab.py: the labs. Each lab (tests/labs/NAME.lab) takes one mechanism
out of the kernel, leaving stubs for a student to write, with a handout
(docs/labs/NAME.md) and a grader: tests worth points, chosen so that
they kill the mutants of the catalogue (tests/mutants/) that break the
same mechanism, so a half-done lab cannot score full marks.

    lab.py start NAME [--dir D]   copy the tree to D (build/lab/NAME),
                                  the lab's functions stubbed (make lab)
    lab.py grade NAME             build this tree, run the lab's tests,
                                  print points per test and the total
                                  (make grade)
    lab.py check                  every lab is consistent: its stubs
                                  apply and build, its handout names
                                  them, its tests kill its mutants on
                                  paper (make test runs this)
    lab.py grade-check [--clean] [NAME...]
                                  grade each lab's own stub and each of
                                  its mutants in a copy of the tree:
                                  each must build and score less than
                                  full marks; --clean: an unchanged
                                  copy too, which must score full marks
                                  (make grade-check, slow)

A .lab file:

    title = Site patching
    handout = docs/labs/patching.md
    mutant = patch-no-old-insn-check      a mutant the grader must kill
    test = 40 selftest[smp1]:ftrace       points, then a test as in .mut
    [ftrace_make_call]                    a function to stub
    file = arch/riscv/kernel/ftrace.c
    stub <<
    int ftrace_make_call(struct dyn_ftrace *rec, unsigned long addr)
    {
    	return -ENOSYS;
    }
    >>

The stub replaces the function's whole definition (scripts/mutate.py
finds it: a C function, or an assembly label up to the next label).
"""

import argparse
import glob
import os
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mutate  # noqa: E402

ROOT = mutate.ROOT
LABS = os.path.join(ROOT, 'tests', 'labs')
TEST_TIMEOUT = 600


class LabError(Exception):
    """A .lab file that cannot be read, or a lab that does not apply."""


@dataclass
class Stub:
    function: str
    file: str = ''
    text: str = ''


@dataclass
class Lab:
    name: str
    title: str = ''
    handout: str = ''
    mutants: list = field(default_factory=list)
    tests: list = field(default_factory=list)     # (points, mutate.Test)
    stubs: list = field(default_factory=list)

    def total(self):
        return sum(points for points, _ in self.tests)

    def builds(self):
        return set().union(*(t.builds() for _, t in self.tests))


def parse_lab(path):
    name = os.path.splitext(os.path.basename(path))[0]
    lab, stub = Lab(name), None
    lines = open(path).read().split('\n')
    i = 0
    while i < len(lines):
        line, where = lines[i], f'{os.path.relpath(path, ROOT)}:{i + 1}'
        i += 1
        if not line.strip() or line.startswith('#'):
            continue
        head = re.match(r'^\[(\w+)\]$', line)
        if head:
            stub = Stub(head[1])
            lab.stubs.append(stub)
            continue
        kv = mutate.KEY.match(line)
        if not kv:
            raise LabError(f'{where}: cannot parse {line!r}')
        key, value = kv['key'], kv['value']
        if kv['block']:
            if '>>' not in lines[i:]:
                raise LabError(f'{where}: no `>>` ends the block')
            end = lines.index('>>', i)
            value, i = '\n'.join(lines[i:end]), end + 1
        set_key(lab, stub, key, value, where)
    return lab


def set_key(lab, stub, key, value, where):
    if stub is None and key in ('title', 'handout'):
        setattr(lab, key, value.strip())
    elif stub is None and key == 'mutant':
        lab.mutants.append(value.strip())
    elif stub is None and key == 'test':
        points, _, spec = value.strip().partition(' ')
        try:
            lab.tests.append((int(points), mutate.parse_test(spec)))
        except (ValueError, mutate.CatalogueError) as e:
            raise LabError(f'{where}: {e}') from e
    elif stub is not None and key == 'file':
        stub.file = value.strip()
    elif stub is not None and key == 'stub':
        stub.text = value
    else:
        raise LabError(f'{where}: unexpected key {key!r}')


def load_labs():
    return {lab.name: lab for lab in map(parse_lab, sorted(
        glob.glob(os.path.join(LABS, '*.lab'))))}


def lab_named(name):
    labs = load_labs()
    if name not in labs:
        raise LabError(f'no lab {name!r}; the labs: {", ".join(labs)}')
    return labs[name]


def apply_stubs(lab, root):
    """Replace each stubbed function's definition in the tree at root."""
    for stub in lab.stubs:
        path = os.path.join(root, stub.file)
        text = open(path).read()
        try:
            start, end = mutate.function_span(text, stub.function, stub.file)
        except mutate.Stale as e:
            raise LabError(f'lab {lab.name}: {e}') from e
        with open(path, 'w') as f:
            f.write(text[:start] + stub.text + '\n' + text[end:])


# --- make lab ----------------------------------------------------------------

def start(lab, dest):
    if os.path.exists(dest):
        raise LabError(f'{dest} exists: your work may be there; remove it '
                       'to start over')
    mutate.copy_tree(ROOT, dest)
    apply_stubs(lab, dest)
    files = sorted({s.file for s in lab.stubs})
    print(f'lab {lab.name}: {lab.title}')
    print(f'  the tree to work in: {os.path.relpath(dest, ROOT)}')
    print('  stubbed: ' + ', '.join(f'{s.file}:{s.function}'
                                     for s in lab.stubs))
    print(f'  read:    {lab.handout}')
    print(f'  then:    cd {os.path.relpath(dest, ROOT)} && edit '
          f'{" ".join(files)} && make grade LAB={lab.name}')


# --- make grade --------------------------------------------------------------

@dataclass
class Grade:
    score: int
    total: int
    built: bool = True
    lost: str = ''                  # the first test that lost points


def grade(lab, root, out=sys.stdout, first_loss=False):
    """Build the tree at root and run the lab's tests, printing points
    per test and the total. first_loss: stop at the first test that
    fails (the score is then below the total, all grade-check asks)."""
    tests = [t for _, t in lab.tests]
    print(f'grade {lab.name}: {lab.title}', file=out, flush=True)
    problem = mutate.build(root, lab.builds(), tests, 2)
    if problem:
        print(f'  the tree does not build: 0/{lab.total()}\n{problem}',
              file=out)
        return Grade(0, lab.total(), built=False, lost='does not build')
    g = Grade(0, lab.total())
    for points, test in lab.tests:
        o = mutate.run_test(test, root, TEST_TIMEOUT)
        got = points if o.status == 'pass' else 0
        g.score += got
        why = '' if got else f'  ({o.case or o.status})'
        g.lost = g.lost or why.strip()
        print(f'  {got:3d}/{points:<3d} {test.spec}{why}', file=out,
              flush=True)
        if first_loss and not got:
            print('  (stopped at the first loss)', file=out)
            return g
    print(f'total: {g.score}/{g.total}', file=out)
    return g


# --- the checks --------------------------------------------------------------

def covers(graded, test):
    """Does the graded test run all of what test runs?"""
    if graded.spec == test.spec:
        return True
    if graded.kind != test.kind or graded.kind not in ('selftest',
                                                        'console'):
        return False
    if graded.kind == 'selftest':
        mine = set((graded.get('suites') or '').split(',')) - {''}
        theirs = set((test.get('suites') or '').split(',')) - {''}
        return graded.get('tag') == test.get('tag') and (
            not mine or (theirs and theirs <= mine))
    return (graded.get('module') == test.get('module') and
            graded.get('smp') == test.get('smp') and
            graded.get('func') in (None, test.get('func')))


def check_lab(lab, catalogue, suites):
    """The problems of one lab that need no kernel run."""
    problems = []
    if not lab.title or not lab.handout or not lab.stubs or not lab.tests:
        problems.append('needs a title, a handout, stubs and tests')
    handout = os.path.join(ROOT, lab.handout)
    text = open(handout).read() if os.path.exists(handout) else ''
    if not text:
        problems.append(f'no handout {lab.handout}')
    for stub in lab.stubs:
        if f'`{stub.file}:{stub.function}`' not in text:
            problems.append(f'the handout does not name '
                            f'`{stub.file}:{stub.function}`')
        if not re.search(rf'\b{re.escape(stub.function)}\b', stub.text):
            problems.append(f'stub {stub.function} defines something else')
    for _, test in lab.tests:
        why = mutate.test_problem(test, ROOT, suites)
        if why:
            problems.append(f'test {test.spec}: {why}')
        if test.spec not in text:
            problems.append(f'the handout does not name test {test.spec}')
    for name in lab.mutants:
        m = catalogue.get(name)
        if m is None:
            problems.append(f'no mutant {name} in tests/mutants/')
        elif not any(covers(g, t) for _, g in lab.tests for t in m.tests):
            problems.append(f'mutant {name}: none of its tests is graded')
        if name not in text:
            problems.append(f'the handout does not name mutant {name}')
    return problems


def stubs_build(lab):
    """Compile each stubbed file of a copy of the sources: None, or why
    not. Only those objects: the stubs must build without a warning."""
    with tempfile.TemporaryDirectory(prefix=f'lab-{lab.name}-') as tmp:
        for name in mutate.tree_files(ROOT):
            os.makedirs(os.path.join(tmp, os.path.dirname(name)),
                        exist_ok=True)
            shutil.copy2(os.path.join(ROOT, name), os.path.join(tmp, name))
        apply_stubs(lab, tmp)
        objs = sorted({'build/' + os.path.splitext(s.file)[0] + '.o'
                       for s in lab.stubs})
        status, out = mutate.run(['make', '-s', '--no-print-directory'] +
                                 objs, tmp)
        return None if status == 0 else mutate.tail(out)


def check(names):
    catalogue = {m.name: m for m in mutate.load_catalogue()}
    suites = mutate.selftest_suites(ROOT)
    labs = load_labs()
    results = []
    for name in names or labs:
        lab = lab_named(name)
        try:
            problems = check_lab(lab, catalogue, suites)
            why = stubs_build(lab)
        except LabError as e:
            problems, why = [str(e)], None
        if why:
            problems.append(f'the stubs do not build:\n{why}')
        results.append((lab.name, problems))
    print('KTAP version 1')
    print(f'1..{len(results) + 1}')
    enough = len(labs) >= 6
    print(f"{'' if enough else 'not '}ok 1 - at least six labs "
          f"({len(labs)})")
    for i, (name, problems) in enumerate(results, 2):
        print(f"{'not ' if problems else ''}ok {i} - lab {name}")
        for p in problems:
            print('    # ' + p.replace('\n', '\n    # '))
    return 0 if enough and not any(p for _, p in results) else 1


def grade_case(lab, what, edit, work):
    """Grade a copy of the tree that edit changed: Grade, and its log."""
    dst = os.path.join(work, f'{lab.name}-{what}')
    shutil.rmtree(dst, ignore_errors=True)
    mutate.copy_tree(ROOT, dst)
    edit(dst)
    with open(os.path.join(dst, 'grade.log'), 'w') as log:
        g = grade(lab, dst, log, first_loss=what != 'clean tree')
    return g, dst


def grade_check(names, clean):
    """Each lab's own stub, and each of its mutants, must build and lose
    points; with clean, an unchanged copy must score full marks."""
    catalogue = {m.name: m for m in mutate.load_catalogue()}
    labs = load_labs()
    work = os.path.join(ROOT, 'build', 'lab-check')
    failed = 0
    for name in names or labs:
        lab = lab_named(name)
        cases = [('clean tree', lambda root: None)] if clean else []
        cases += [('stub', lambda root, lab=lab: apply_stubs(lab, root))]
        cases += [(m, lambda root, m=catalogue[m]: mutate.apply(m, root))
                  for m in lab.mutants]
        for what, edit in cases:
            g, dst = grade_case(lab, what, edit, work)
            ok = g.score == g.total if what == 'clean tree' else \
                g.built and g.score < g.total
            failed += not ok
            print(f"{'ok' if ok else 'not ok'} {lab.name}, {what}: "
                  f"{g.score}/{g.total} {g.lost}".rstrip(), flush=True)
            if ok:
                shutil.rmtree(dst, ignore_errors=True)
            else:
                print(f'  # kept: {os.path.relpath(dst, ROOT)}/grade.log')
    print(f'{failed} failed')
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('action', choices=('start', 'grade', 'check',
                                           'grade-check'))
    parser.add_argument('names', nargs='*')
    parser.add_argument('--dir', help='start: where the lab tree goes')
    parser.add_argument('--clean', action='store_true',
                        help='grade-check: an unchanged copy too, which '
                        'must score full marks')
    # Intermixed: names may follow --clean (the Makefile puts them there).
    args = parser.parse_intermixed_args()
    try:
        if args.action == 'check':
            return check(args.names)
        if args.action == 'grade-check':
            return grade_check(args.names, args.clean)
        if len(args.names) != 1:
            parser.error(f'{args.action} takes one lab: '
                         f'{", ".join(load_labs())}')
        lab = lab_named(args.names[0])
        if args.action == 'start':
            start(lab, args.dir or os.path.join(ROOT, 'build', 'lab',
                                                lab.name))
            return 0
        grade(lab, ROOT)
        return 0
    except LabError as e:
        print(f'lab.py: {e}', file=sys.stderr)
        return 2


if __name__ == '__main__':
    sys.exit(main())
