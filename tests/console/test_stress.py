"""test_stress.py: short forms of what `make stress` runs for minutes
(scripts/stress.py): a patch storm, stop_machine rounds from each CPU,
graph tracing started and stopped while threads come and go, and a soak
whose trace and trace_pipe reads are checked line by line
(tests/console/trace_format.py) while every CPU's writers overwrite the
buffer."""

import os
import time

import harness
from trace_format import TraceChecker, symbols_of
from tracing import T, reset, write

STORM_OPS = 200
SOAK_ROUNDS = 3


def test_storm(k):
    out = k.run(f'stress storm {STORM_OPS} 5', timeout=300)
    assert out.endswith('stress: ok\n'), out
    assert f'storm: {STORM_OPS} operations, seed 5\n' in out, out
    assert 'outside a filter 0, after unregister 0, without regs 0' in out
    k.check(k.run(f'cat {T}/enabled_functions'), '')


def test_rendezvous(k):
    out = k.run('stress rendezvous 8', timeout=120)
    assert out.endswith('rendezvous: fn wrong 0, returned frame written 0\n'
                        'stress: ok\n'), out
    assert f' 8 rounds from {k.smp} CPUs\n' in out, out


def test_graph(k):
    out = k.run('stress graph 3', timeout=120)
    assert out.endswith(' bytes leaked 0\nstress: ok\n'), out
    assert 'graph: 3 starts, errors 0, ' in out, out


def test_stress_usage(k):
    usage = ('usage: stress storm N [SEED] | stress rendezvous N | '
             'stress graph N | stress start | stress stop\n')
    for args in ('', 'storm', 'storm 0', 'storm x', 'storm 1 2 3', 'go',
                 'rendezvous', 'rendezvous 0', 'rendezvous 1 2', 'graph x',
                 'graph 1 2'):
        k.check(k.run(f'stress {args}'), usage)
    k.check(k.run('stress stop'), 'stress: not started\n')


def read_pipe(k, path):
    k.type(f'cat {path}\r')
    time.sleep(0.3)
    k.type('\x03')
    out = k.read_until_prompt(30).partition('\n')[2]
    return out[:out.rfind('^C')]


def read_rounds(k, checker):
    for i in range(SOAK_ROUNDS):
        cpu = i % k.smp
        for text, cpu_file, merged in (
                (k.run(f'cat {T}/trace', 60), None, True),
                (k.run(f'cat {T}/per_cpu/cpu{cpu}/trace', 60), cpu, True),
                (read_pipe(k, f'{T}/trace_pipe'), None, False),
                (read_pipe(k, f'{T}/per_cpu/cpu{cpu}/trace_pipe'), cpu,
                 False)):
            problems = checker.check(text, cpu_file, merged)
            assert not problems, '\n'.join(problems)
    assert checker.events > 100, checker.events


def test_soak_readers(k):
    """function, then function_graph, switched while the workers run."""
    reset(k)
    functions = k.run(f'cat {T}/available_filter_functions').split()
    symbols = symbols_of(os.path.join(harness.BUILD, 'kernel.sym'))
    write(k, 'buffer_size_kb', '8')
    k.check(k.run('stress start'), f'soak: {k.smp} workers started\n')
    k.check(k.run('stress start'), 'stress: already started\n')
    for tracer in ('function', 'function_graph'):
        write(k, 'current_tracer', tracer)
        write(k, 'trace', '')
        read_rounds(k, TraceChecker(functions, symbols, k.smp,
                                    graph=tracer == 'function_graph'))
    out = k.run('stress stop', 60)
    assert out.endswith('soak: unbalanced returns 0\nstress: ok\n'), out
    write(k, 'buffer_size_kb', '1408')
    reset(k)
