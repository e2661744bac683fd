"""ktap.py: the KTAP report every host test in Python prints.

run() calls test functions and reports each, its traceback as comment
lines when it raises; report() prints results already computed. Both
return the exit status run_all.py reads: 0 only if all passed.
"""
import traceback


def tests_in(namespace):
    """The test_* functions of a module's globals(), in file order."""
    return [(name[len('test_'):], fn) for name, fn in namespace.items()
            if name.startswith('test_') and callable(fn)]


def run(tests):
    """Call each (name, fn); an exception is that test's verdict."""
    print('KTAP version 1')
    print(f'1..{len(tests)}')
    failed = 0
    for number, (name, fn) in enumerate(tests, 1):
        try:
            fn()
        except Exception:       # any failure is the test's verdict
            for line in traceback.format_exc().splitlines():
                print(f'# {line}')
            print(f'not ok {number} - {name}', flush=True)
            failed += 1
        else:
            print(f'ok {number} - {name}', flush=True)
    return 1 if failed else 0


def report(results):
    """Print (name, ok) or (name, ok, got) results; got shown on failure."""
    print('KTAP version 1')
    print(f'1..{len(results)}')
    for number, (name, ok, *got) in enumerate(results, 1):
        if not ok and got:
            print(f'# got: {str(got[0]).strip()}')
        print(f"{'' if ok else 'not '}ok {number} - {name}")
    return 0 if results and all(r[1] for r in results) else 1
