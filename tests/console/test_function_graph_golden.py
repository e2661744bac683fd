"""test_function_graph_golden.py: a whole function_graph trace, byte for
byte. Under `qemu -icount shift=0,sleep=off` a guest instruction is a tick of the
instret clock, so with trace_clock instret each duration is an exact
instruction count (printed as if ns) and `run fib 6` traces the same
every time: the file golden/function_graph_fib6.txt is the trace. A
change to the traced path changes the counts: look at the new trace,
then GOLDEN_UPDATE=1 writes it."""

import os

import harness

from tracing import reset, cat, write

SMP = 1
QEMU_ARGS = harness.ICOUNT
GOLDEN = os.path.join(os.path.dirname(__file__), 'golden',
                      'function_graph_fib6.txt')


def test_fib6_golden(k):
    reset(k)
    write(k, 'trace_clock', 'instret')
    write(k, 'set_graph_function', 'fib')
    write(k, 'current_tracer', 'function_graph')
    for _ in range(3):      # again if a tick lands in the call tree
        write(k, 'trace', '')
        k.run('run fib 6')
        out = cat(k, 'trace')
        if '==========>' not in out:
            break
    if os.environ.get('GOLDEN_UPDATE'):
        with open(GOLDEN, 'w') as f:
            f.write(out)
    with open(GOLDEN) as f:
        k.check(out, f.read())
    write(k, 'set_graph_function', '')
    reset(k)

