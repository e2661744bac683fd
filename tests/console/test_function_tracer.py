"""test_function_tracer.py: the README walkthrough and the function
tracer as a user sees it: filters, tracing_on, set_ftrace_pid,
trace_marker, trace_pipe, the traceoff command, per-CPU views."""

import re

from tracing import T, EINVAL, reset, cat, write, trace_lines

LINE = re.compile(r'^ +(\S+)-(\d+) +\[(\d{3})\] (.{5}) +(\d+\.\d{6}): (.*)$')


def fib_trace(k):
    reset(k)
    write(k, 'set_ftrace_filter', 'fib')
    write(k, 'current_tracer', 'function')
    k.run('run fib 10')
    return trace_lines(k)


def test_fib_177_calls(k):
    lines = fib_trace(k)
    assert len(lines) == 177, f'{len(lines)} lines'
    events = [LINE.match(l) for l in lines]
    assert all(events), lines[:3]
    funcs = [m[6] for m in events]
    k.check(funcs[0], 'fib <-fib_main')
    assert funcs[1:] == ['fib <-fib'] * 176
    assert {m[1] for m in events} == {'fib'}
    assert all(m[4] == '.....' for m in events)
    stamps = [float(m[5]) for m in events]
    assert stamps == sorted(stamps)
    k.check(cat(k, 'enabled_functions'), 'fib (1)      \n')
    reset(k)


def test_tracing_on_off(k):
    reset(k)
    write(k, 'set_ftrace_filter', 'fib')
    write(k, 'current_tracer', 'function')
    write(k, 'tracing_on', '0')
    k.run('run fib 10')
    assert trace_lines(k) == []
    write(k, 'tracing_on', '1')
    k.run('run fib 5')
    assert len(trace_lines(k)) == 15
    reset(k)


def test_filter_edits(k):
    reset(k)
    write(k, 'set_ftrace_filter', 'fib')
    write(k, 'set_ftrace_filter', 'sort', append=True)
    k.check(cat(k, 'set_ftrace_filter'), 'fib\nsort\n')
    write(k, 'set_ftrace_filter', '!fib', append=True)
    k.check(cat(k, 'set_ftrace_filter'), 'sort\n')
    write(k, 'set_ftrace_filter', 'fib')
    k.check(cat(k, 'set_ftrace_filter'), 'fib\n')
    write(k, 'set_ftrace_filter', "'fib sort'")
    k.check(cat(k, 'set_ftrace_filter'), 'fib\nsort\n')
    write(k, 'set_ftrace_filter', "'ftrace_test_target*'")
    assert cat(k, 'set_ftrace_filter').count('\n') >= 3
    write(k, 'set_ftrace_filter', '')
    k.check(cat(k, 'set_ftrace_filter'), '#### all functions enabled ####\n')
    reset(k)


def test_notrace_wins(k):
    reset(k)
    write(k, 'set_ftrace_filter', "'fib fib_main'")
    write(k, 'set_ftrace_notrace', 'fib')
    write(k, 'current_tracer', 'function')
    k.run('run fib 10')
    funcs = [LINE.match(l)[6] for l in trace_lines(k)]
    k.check('\n'.join(funcs), 'fib_main <-job_thread')
    reset(k)


def test_set_ftrace_pid(k):
    reset(k)
    write(k, 'set_ftrace_filter', 'fib')
    write(k, 'set_ftrace_pid', '1')
    write(k, 'current_tracer', 'function')
    k.run('run fib 10')
    assert trace_lines(k) == []
    write(k, 'set_ftrace_pid', '')
    k.check(cat(k, 'set_ftrace_pid'), 'no pid\n')
    k.run('run fib 10')
    assert len(trace_lines(k)) == 177
    reset(k)


def test_trace_marker_in_time_order(k):
    reset(k)
    write(k, 'set_ftrace_filter', 'fib')
    write(k, 'current_tracer', 'function')
    k.run('run fib 1')
    write(k, 'trace_marker', 'hello world')
    k.run('run fib 1')
    funcs = [LINE.match(l)[6] for l in trace_lines(k)]
    k.check('\n'.join(funcs), 'fib <-fib_main\ntracing_mark_write: '
            'hello world\nfib <-fib_main')
    write(k, 'tracing_on', '0')
    k.check(write(k, 'trace_marker', 'x'),
            'sh: write error: Bad file descriptor\n')
    reset(k)


def test_traceoff_command(k):
    reset(k)
    write(k, 'set_ftrace_filter', "'fib fib_main'")
    write(k, 'set_ftrace_filter', 'fib:traceoff:1', append=True)
    k.check(cat(k, 'set_ftrace_filter'), 'fib\nfib_main\nfib:traceoff:count=1\n')
    write(k, 'current_tracer', 'function')
    k.run('run fib 10')
    k.check(cat(k, 'tracing_on'), '0\n')
    # The tracer's ops came after the probe's, so it runs first (LIFO).
    funcs = [LINE.match(l)[6] for l in trace_lines(k)]
    k.check('\n'.join(funcs), 'fib_main <-job_thread\nfib <-fib_main')
    k.check(cat(k, 'set_ftrace_filter'), 'fib\nfib_main\nfib:traceoff:count=0\n')
    k.check(write(k, 'set_ftrace_filter', '!fib:traceoff', append=True),
            'sh: write error: No such device\n')
    write(k, 'set_ftrace_filter', '!fib:traceoff:0', append=True)
    k.check(cat(k, 'set_ftrace_filter'), 'fib\nfib_main\n')
    reset(k)


def test_trace_pipe_consumes(k):
    reset(k)
    write(k, 'set_ftrace_filter', 'fib')
    write(k, 'current_tracer', 'function')
    k.run('run fib 3')
    k.type(f'cat {T}/trace_pipe\r')
    k.expect(r'fib <-fib_main')
    k.type('\x03')
    k.read_until_prompt()
    k.check(cat(k, 'per_cpu/cpu0/stats').count('entries: 0'), 1)
    assert trace_lines(k) == []
    reset(k)


def test_overrun_stats(k):
    reset(k)
    write(k, 'buffer_size_kb', '8')
    write(k, 'set_ftrace_filter', 'fib')
    write(k, 'current_tracer', 'function')
    k.run('run fib 15')
    write(k, 'tracing_on', '0')
    stats = {}
    for cpu in range(k.smp):
        for line in cat(k, f'per_cpu/cpu{cpu}/stats').splitlines():
            key, _, val = line.partition(': ')
            if key in ('entries', 'overrun'):
                stats[key] = stats.get(key, 0) + int(val)
    assert stats['entries'] + stats['overrun'] == 1973, stats
    assert stats['overrun'] > 0
    head = cat(k, 'trace').splitlines()[2]
    k.check(head, f'# entries-in-buffer/entries-written: '
            f'{stats["entries"]}/1973   #P:{k.smp}')
    write(k, 'buffer_size_kb', '1408')
    reset(k)


def test_parent_after_a_noreturn_call_is_named(k):
    # kthread_entry ends with its call of kthread_exit: the return
    # address lies past its last byte, in the next function's padding,
    # which kallsyms gives to kthread_entry as Linux's does.
    reset(k)
    write(k, 'set_ftrace_filter', 'kthread_exit')
    write(k, 'current_tracer', 'function')
    k.run('run fib 5 > /dev/null')
    funcs = [LINE.match(line)[6] for line in trace_lines(k)]
    assert funcs and set(funcs) == {'kthread_exit <-kthread_entry'}, funcs
    reset(k)
