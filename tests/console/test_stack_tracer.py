"""test_stack_tracer.py: the stack tracer as a user sees it
(shared/reference/linux-6.1/j, l-errors): stack_tracer_enabled,
stack_max_size, the stack_trace table, stack_trace_filter."""

import re

from tracing import T, EINVAL, cat, write

ENABLED = '/proc/sys/kernel/stack_tracer_enabled'
HEADER = re.compile(r'^        Depth    Size   Location    \((\d+) entries\)\n'
                    r'        -----    ----   --------\n')
ROW = re.compile(r'^ *(\d+)\) +(\d+) +(\d+)   (\S+)\+0x([0-9a-f]+)/0x[0-9a-f]+$')
DISABLED = ('#\n'
            '#  Stack tracer disabled\n'
            '#\n'
            "# To enable the stack tracer, either add 'stacktrace' to the\n"
            '# kernel command line\n'
            "# or 'echo 1 > /proc/sys/kernel/stack_tracer_enabled'\n"
            '#\n')


def stack_reset(k):
    k.run(f'echo 0 > {ENABLED}')
    write(k, 'stack_trace_filter', '')
    write(k, 'stack_max_size', '0')


def table(k, disabled=False):
    """stack_trace's rows as (depth, size, function, offset); the
    disabled notice comes between header and rows, or not at all."""
    text = cat(k, 'stack_trace')
    m = HEADER.match(text)
    assert m, text
    body = text[m.end():]
    assert body.startswith(DISABLED) == disabled, text
    rows = []
    for i, line in enumerate(body[len(DISABLED) if disabled else 0:]
                             .splitlines()):
        r = ROW.match(line)
        assert r and int(r[1]) == i, f'bad row {line!r}'
        rows.append((int(r[2]), int(r[3]), r[4], int(r[5], 16)))
    assert len(rows) == int(m[1]), text
    return rows


def check_sizes(rows, max_size):
    """Depths only fall, each Size is the drop to the next row, and the
    Sizes add up to stack_max_size, the first row's Depth."""
    depths = [d for d, _, _, _ in rows]
    assert depths == sorted(depths, reverse=True), depths
    for (d, s, _, _), nxt in zip(rows, depths[1:] + [0]):
        assert s == d - nxt, rows
    assert sum(s for _, s, _, _ in rows) == depths[0] == max_size, rows


def deepest(k, workload, filt='fib'):
    """stack_max_size and the table after one run, measuring filt only."""
    write(k, 'stack_trace_filter', filt)
    write(k, 'stack_max_size', '0')
    k.run(f'echo 1 > {ENABLED}')
    k.run(workload)
    k.run(f'echo 0 > {ENABLED}')
    return int(cat(k, 'stack_max_size')), table(k)


def test_defaults(k):
    stack_reset(k)
    k.check(k.run(f'cat {ENABLED}'), '0\n')
    k.check(cat(k, 'stack_max_size'), '0\n')
    k.check(cat(k, 'stack_trace_filter'), '#### all functions enabled ####\n')
    text = cat(k, 'stack_trace')
    k.check(text, '        Depth    Size   Location    (0 entries)\n'
                  '        -----    ----   --------\n' + DISABLED)


def test_deeper_recursion_deeper_stack(k):
    stack_reset(k)
    max2, rows2 = deepest(k, 'run fib 2')
    max20, rows20 = deepest(k, 'run fib 20')
    check_sizes(rows2, max2)
    check_sizes(rows20, max20)
    # fib(20)'s deepest call is 20 fibs down: fib(1) at its entry, then
    # fib(2) .. fib(20) as callers, each with the same frame.
    names = [f for _, _, f, _ in rows20]
    assert names[:21] == ['fib'] * 20 + ['fib_main'], names
    assert rows20[0][3] == 4 and rows20[0][1] == 0, rows20[0]
    frame = rows20[1][1]
    assert frame >= 16 and all(s == frame for _, s, _, _ in rows20[1:20])
    assert max20 - max2 == 18 * frame, (max2, max20, frame)
    assert names[-2:] == ['kthread_entry', 'ret_from_fork'], names
    stack_reset(k)


def test_filter_limits_checked_functions(k):
    stack_reset(k)
    max_fib, _ = deepest(k, 'run fib 20')
    max_main, rows = deepest(k, 'run fib 20', 'fib_main')
    assert [f for _, _, f, _ in rows[:2]] == ['fib_main', 'job_thread']
    assert max_main < max_fib
    k.check(cat(k, 'stack_trace_filter'), 'fib_main\n')
    write(k, 'stack_trace_filter', 'fib', append=True)
    k.check(cat(k, 'stack_trace_filter'), 'fib\nfib_main\n')
    write(k, 'stack_trace_filter', '!fib_main', append=True)
    k.check(cat(k, 'stack_trace_filter'), 'fib\n')
    # A filter of its own: set_ftrace_filter is untouched.
    k.check(cat(k, 'set_ftrace_filter'), '#### all functions enabled ####\n')
    stack_reset(k)


def test_enabled_registers_the_ops(k):
    stack_reset(k)
    write(k, 'stack_trace_filter', 'fib')
    k.check(cat(k, 'enabled_functions'), '')
    k.run(f'echo 1 > {ENABLED}')
    k.check(cat(k, 'enabled_functions'), 'fib (1)      \n')
    # Any int is taken and read back; nonzero is on (proc_dointvec).
    k.run(f'echo 2 > {ENABLED}')
    k.check(k.run(f'cat {ENABLED}'), '2\n')
    k.check(cat(k, 'enabled_functions'), 'fib (1)      \n')
    k.run(f'echo 0 > {ENABLED}')
    k.check(cat(k, 'enabled_functions'), '')
    stack_reset(k)


def test_max_size_is_writable(k):
    """Writing stack_max_size sets the bar a new stack must pass."""
    stack_reset(k)
    _, rows = deepest(k, 'run fib 20')
    write(k, 'stack_max_size', '5000')
    k.run(f'echo 1 > {ENABLED}')
    k.run('run fib 20')
    k.run(f'echo 0 > {ENABLED}')
    k.check(cat(k, 'stack_max_size'), '5000\n')
    assert table(k) == rows
    # Off and at 0 reads as disabled, yet the old table stays (Linux's).
    write(k, 'stack_max_size', '0')
    k.check(cat(k, 'stack_max_size'), '0\n')
    assert table(k, disabled=True) == rows
    stack_reset(k)


def test_errors(k):
    stack_reset(k)
    for value in ('abc', '-1', ''):
        k.check(write(k, 'stack_max_size', value), EINVAL)
        k.check(cat(k, 'stack_max_size'), '0\n')
    k.check(k.run(f'echo abc > {ENABLED}'), EINVAL)
    k.check(k.run(f'cat {ENABLED}'), '0\n')
    k.check(write(k, 'stack_trace', 'x'), EINVAL)
    k.check(write(k, 'stack_trace_filter', 'no_such_function_xyz'), EINVAL)
    # Filter commands belong to set_ftrace_filter only.
    k.check(write(k, 'stack_trace_filter', 'fib:traceoff'), EINVAL)
    k.check(cat(k, 'stack_trace_filter'), '#### all functions enabled ####\n')
    stack_reset(k)
