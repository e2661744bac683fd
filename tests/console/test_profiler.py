"""test_profiler.py: the function profiler as a user sees it
(shared/reference/linux-6.1/i, i2, l-errors): function_profile_enabled
and trace_stat/functionN, with Linux's columns and units, and its
filter beside other ftrace users."""

import re

from tracing import T, EINVAL, reset, cat, write

EBUSY = 'sh: write error: Device or resource busy\n'
STACK_TRACER = '/proc/sys/kernel/stack_tracer_enabled'

HEADER = ('  Function                               '
          'Hit    Time            Avg             s^2\n'
          '  --------                               '
          '---    ----            ---             ---\n')
# Name cut at 30, hits in 10, then three durations of Linux's
# trace_print_graph_duration, each followed by 4 spaces but the last.
DURATION = r'(\d+)(?:\.(\d+))? us ( *)'
ROW = re.compile(r'^  (.{30})  ( *\d+)    ' + DURATION + '    ' + DURATION +
                 '    ' + DURATION + '$')


def check_duration(usecs, frac, pad):
    """usecs.nsecs in at most 7 digits, then ' us ', padded to 12."""
    digits = len(usecs) + (len(frac) + 1 if frac else 0)
    if len(usecs) < 7:
        assert frac is not None and len(frac) == min(3, 7 - len(usecs))
    else:
        assert frac is None
    assert len(pad) == max(0, 8 - digits), (usecs, frac, pad)


def usecs(m, i):
    """A duration as printed, and how much its cut digits may hide."""
    frac = m[i + 1] or ''
    return float(m[i] + '.' + (frac or '0')), 10.0 ** -len(frac)


def check_avg(hits, time, avg, s2):
    """Avg is Time / Hit; s^2 of a single call is 0."""
    (t, t_err), (a, a_err) = time, avg
    assert abs(a * hits - t) <= hits * a_err + t_err, (hits, time, avg)
    if hits == 1:
        assert s2[0] == 0, s2


def stat(k, cpu):
    """One trace_stat/functionN as [(name, hits, time_us)], in order."""
    text = cat(k, f'trace_stat/function{cpu}')
    assert text.startswith(HEADER), text
    rows = []
    for line in text[len(HEADER):].splitlines():
        m = ROW.match(line)
        assert m and len(m[2]) == 10, f'bad row {line!r}'
        for i in (3, 6, 9):
            check_duration(m[i], m[i + 1], m[i + 2])
        check_avg(int(m[2]), usecs(m, 3), usecs(m, 6), usecs(m, 9))
        rows.append((m[1].rstrip(), int(m[2]), usecs(m, 3)[0]))
    times = [t for _, _, t in rows]
    assert times == sorted(times, reverse=True), rows
    return rows


def hits(k, name):
    """name's hits summed over every CPU's file (a task may move)."""
    return sum(h for cpu in range(k.smp) for f, h, _ in stat(k, cpu)
               if f == name)


def profile(k, workload):
    write(k, 'function_profile_enabled', '1')
    k.run(workload)
    write(k, 'function_profile_enabled', '0')


def test_files(k):
    reset(k)
    k.check(cat(k, 'function_profile_enabled'), '0\n')
    k.check(k.run(f'ls {T}/trace_stat'),
            ''.join(f'function{cpu}\n' for cpu in range(k.smp)))
    for cpu in range(k.smp):
        k.check(cat(k, f'trace_stat/function{cpu}'), HEADER)


def test_fib_177_hits(k):
    reset(k)
    profile(k, 'run fib 10')
    k.check(cat(k, 'function_profile_enabled'), '0\n')
    assert hits(k, 'fib') == 177
    assert hits(k, 'fib_main') == 1
    rows = [r for cpu in range(k.smp) for r in stat(k, cpu)]
    assert all(t > 0 for f, _, t in rows if f in ('fib', 'fib_main')), rows
    reset(k)


def test_enable_again_starts_over(k):
    """Only 0 -> 1 resets: a second 1 keeps counting (Linux's)."""
    reset(k)
    write(k, 'function_profile_enabled', '1')
    k.run('run fib 5')
    write(k, 'function_profile_enabled', '1')
    k.run('run fib 5')
    write(k, 'function_profile_enabled', '0')
    assert hits(k, 'fib') == 30
    k.run('run fib 5')
    assert hits(k, 'fib') == 30
    profile(k, 'run fib 3')
    assert hits(k, 'fib') == 5
    write(k, 'function_profile_enabled', '1')
    write(k, 'function_profile_enabled', '0')
    assert hits(k, 'fib') == 0
    reset(k)


def test_values(k):
    reset(k)
    k.check(write(k, 'function_profile_enabled', '2'), '')
    k.check(cat(k, 'function_profile_enabled'), '1\n')
    k.check(write(k, 'function_profile_enabled', '0'), '')
    for value in ('abc', '-1', ''):
        k.check(write(k, 'function_profile_enabled', value), EINVAL)
        k.check(cat(k, 'function_profile_enabled'), '0\n')
    k.check(write(k, 'trace_stat/function0', 'x'), EINVAL)
    reset(k)


def test_busy_with_function_graph(k):
    """fgraph has one user (reference i2): each refuses the other."""
    reset(k)
    write(k, 'set_ftrace_filter', 'fib')
    write(k, 'current_tracer', 'function_graph')
    k.check(write(k, 'function_profile_enabled', '1'), EBUSY)
    k.check(cat(k, 'function_profile_enabled'), '0\n')
    write(k, 'current_tracer', 'nop')
    k.check(write(k, 'function_profile_enabled', '0'), '')
    k.check(write(k, 'function_profile_enabled', '1'), '')
    k.check(write(k, 'current_tracer', 'function_graph'), EBUSY)
    k.check(cat(k, 'current_tracer'), 'nop\n')
    k.check(write(k, 'function_profile_enabled', '0'), '')
    reset(k)


def test_follows_filter_and_pid(k):
    """As Linux's graph_ops: set_ftrace_filter and set_ftrace_pid."""
    reset(k)
    write(k, 'set_ftrace_filter', "'fib fib_main'")
    profile(k, 'run fib 10')
    rows = [r for cpu in range(k.smp) for r in stat(k, cpu)]
    assert {f for f, _, _ in rows} == {'fib', 'fib_main'}, rows
    assert hits(k, 'fib') == 177
    write(k, 'set_ftrace_pid', '1')
    profile(k, 'run fib 10')
    assert hits(k, 'fib') == 0
    reset(k)


def test_filter_holds_beside_the_stack_tracer(k):
    """The stack tracer hooks every function: the profiler still counts
    only set_ftrace_filter's (its entry checks its own hashes)."""
    reset(k)
    write(k, 'set_ftrace_filter', 'fib')
    k.run(f'echo 1 > {STACK_TRACER}')
    profile(k, 'run fib 10')
    k.run(f'echo 0 > {STACK_TRACER}')
    rows = [r for cpu in range(k.smp) for r in stat(k, cpu)]
    k.check(repr(sorted({f for f, _, _ in rows})), repr(['fib']))
    assert hits(k, 'fib') == 177
    write(k, 'stack_max_size', '0')
    reset(k)
