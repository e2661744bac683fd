#!/usr/bin/env python3
"""test_mutants.py: the mutant catalogue (tests/mutants/*.mut) still fits
the tree. Each mutant's text must be in its file (and function) exactly
once, and each test it names must exist, so that a change elsewhere
cannot leave a mutant that silently tests nothing: `make test` reports
it here, long before `make mutate` would. Also checks the catalogue's
parser and make test's sample on small inputs. Prints KTAP.

    python3 tests/host/test_mutants.py
"""
import os
import sys
import tempfile
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'scripts'))
sys.dont_write_bytecode = True      # leave no __pycache__ in scripts/
import mutate  # noqa: E402  (found through the path above)

# Two mutants of one file, in the catalogue's format; \t is a tab.
SMALL = '''# a comment
[one]
file = f.c
function = two
reason = r
test = selftest[smp1]:ftrace
find = x = 1;
replace = x = 2;

[two-lines]
file = f.c
reason = r
test = console/test_shell.py::test_echo[smp4]
test = boot[smp1]:fgraph_fp_test expect Bad frame pointer
find <<
\\tint x = 1;
}
>>
replace =
'''

F_C = '''int one(void)
{
\tint x = 1;
}

int two(void)
{
\tint x = 1;
}
'''


def parse_small():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'area.mut')
        with open(path, 'w') as f:
            f.write(SMALL.replace('\\t', '\t'))
        return mutate.load_catalogue([path])


def test_parse_small():
    one, two = parse_small()
    assert (one.name, one.area, one.function) == ('one', 'area', 'two')
    assert (one.find, one.replace) == ('x = 1;', 'x = 2;')
    assert two.find == '\tint x = 1;\n}' and two.replace == ''
    assert [t.kind for t in two.tests] == ['console', 'boot']
    assert two.tests[1].get('expect') == 'Bad frame pointer'
    assert one.builds() == {'patchable'}


def test_apply_in_function_only():
    one, two = parse_small()
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, 'f.c'), 'w') as f:
            f.write(F_C)
        text = mutate.mutated_text(one, d)
        assert text.count('x = 2;') == 1 and text.index('x = 2;') > \
            text.index('int two(void)')
        try:
            mutate.mutated_text(two, d)     # in both functions: stale
        except mutate.Stale as e:
            assert '2 times' in str(e), e
        else:
            raise AssertionError('a text found twice was applied')


def test_bad_forms_refused():
    for bad in ('selftest[smp1]:ftrace extra', 'console/test_x[smp1]',
                'host/foo', 'boot[smp1]:x'):
        try:
            mutate.parse_test(bad)
        except mutate.CatalogueError:
            continue
        raise AssertionError(f'{bad!r} was accepted')


def test_sample_five_areas():
    mutants = mutate.load_catalogue()
    for seed in (0, 1, 0xdeadbeef):
        picked = mutate.sample(mutants, seed)
        assert len({m.area for m in picked}) == mutate.SAMPLE_AREAS == \
            len(picked), picked
        assert not any(m.survives for m in picked)
        assert picked == mutate.sample(mutants, seed)


def catalogue_checks():
    """(name, check) for each mutant: it applies, its tests exist."""
    mutants = mutate.load_catalogue()
    suites = mutate.selftest_suites(ROOT)

    def check(m):
        def run():
            mutate.mutated_text(m, ROOT)
            for t in m.tests:
                problem = mutate.test_problem(t, ROOT, suites)
                assert problem is None, f'{t.spec}: {problem}'
        return run
    return [(f'mutant {m.name} applies', check(m)) for m in mutants]


def main():
    tests = [(name, fn) for name, fn in globals().items()
             if name.startswith('test_') and callable(fn)]
    tests += catalogue_checks()
    print('KTAP version 1')
    print(f'1..{len(tests)}')
    failed = 0
    for i, (name, fn) in enumerate(tests, 1):
        try:
            fn()
            print(f'ok {i} - {name}')
        except Exception as e:
            failed += 1
            for line in traceback.format_exception_only(type(e), e):
                print(f'# {line.rstrip()}')
            print(f'not ok {i} - {name}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
