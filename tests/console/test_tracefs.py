"""test_tracefs.py: /sys/kernel/tracing's files read and refuse as
Linux 6.1's do (shared/reference/linux-6.1: m1, m4, l-errors)."""

import re

from tracing import T, EINVAL, reset, cat, write, trace_lines

# Linux 6.1's clocks (a2-trace_clock-counter), then this kernel's own.
CLOCKS = '[local] global counter uptime perf mono mono_raw boot tai instret\n'
STAMP = re.compile(r'\] \.{5} +(\d+(?:\.\d{6})?): fib <-')
# Linux 6.1's available_tracers, in its order, less wakeup_dl.
TRACERS = ('function_graph wakeup_rt wakeup preemptirqsoff preemptoff '
           'irqsoff function nop\n')


def header(ncpu, tracer='nop', entries='0/0'):
    return (f'# tracer: {tracer}\n#\n'
            f'# entries-in-buffer/entries-written: {entries}   #P:{ncpu}\n'
            '#\n'
            '#                                _-----=> irqs-off/BH-disabled\n'
            '#                               / _----=> need-resched\n'
            '#                              | / _---=> hardirq/softirq\n'
            '#                              || / _--=> preempt-depth\n'
            '#                              ||| / _-=> migrate-disable\n'
            '#                              |||| /     delay\n'
            '#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n'
            '#              | |         |   |||||     |         |\n')


def test_default_reads(k):
    reset(k)
    k.check(cat(k, 'available_tracers'), TRACERS)
    k.check(cat(k, 'current_tracer'), 'nop\n')
    k.check(cat(k, 'tracing_on'), '1\n')
    k.check(cat(k, 'buffer_size_kb'), '1410\n')
    k.check(cat(k, 'buffer_total_size_kb'), f'{1410 * k.smp}\n')
    k.check(cat(k, 'trace_clock'), CLOCKS)
    k.check(cat(k, 'set_ftrace_filter'), '#### all functions enabled ####\n')
    k.check(cat(k, 'set_ftrace_notrace'), '#### no functions disabled ####\n')
    k.check(cat(k, 'set_ftrace_pid'), 'no pid\n')
    k.check(cat(k, 'set_graph_function'), '#### all functions enabled ####\n')
    k.check(cat(k, 'set_graph_notrace'), '#### no functions disabled ####\n')
    k.check(cat(k, 'max_graph_depth'), '0\n')
    k.check(cat(k, 'tracing_thresh'), '0\n')
    k.check(cat(k, 'enabled_functions'), '')
    k.check(cat(k, 'options/sym-offset'), '0\n')
    k.check(cat(k, 'options/print-parent'), '1\n')


def test_empty_trace_headers(k):
    reset(k)
    k.check(cat(k, 'trace'), header(k.smp))
    write(k, 'set_ftrace_filter', 'ftrace_test_target3')
    write(k, 'current_tracer', 'function')
    write(k, 'trace', '')
    k.check(cat(k, 'trace'), header(k.smp, 'function'))
    k.check(cat(k, 'per_cpu/cpu0/trace'), header(k.smp, 'function'))
    reset(k)


def test_trace_options_listing(k):
    """Whole listings: test_tracefs_listing.py."""
    reset(k)
    write(k, 'current_tracer', 'function')
    assert cat(k, 'trace_options').endswith(
        'nofunc_stack_trace\nnofunc-no-repeats\n')
    write(k, 'trace_options', 'sym-offset')
    k.check(cat(k, 'options/sym-offset'), '1\n')
    write(k, 'trace_options', 'nosym-offset')
    k.check(cat(k, 'options/sym-offset'), '0\n')
    reset(k)


def test_write_errors(k):
    """Each bad write fails with Linux's errno and changes nothing."""
    reset(k)
    cases = [('current_tracer', 'bogus', 'nop\n'),
             ('current_tracer', '', 'nop\n'),
             ('buffer_size_kb', 'abc', '1410\n'),
             ('buffer_size_kb', '-1', '1410\n'),
             ('buffer_size_kb', '0', '1410\n'),
             ('buffer_size_kb', '', '1410\n'),
             ('tracing_on', 'x', '1\n'),
             ('tracing_on', '', '1\n'),
             ('trace_options', 'bogus', None),
             ('trace_options', 'nofoo', None),
             ('set_ftrace_pid', 'abc', 'no pid\n'),
             ('set_ftrace_filter', 'no_such_function_xyz',
              '#### all functions enabled ####\n'),
             ('set_ftrace_filter', 'foo:bogus_cmd',
              '#### all functions enabled ####\n'),
             ('set_ftrace_filter', 'fib:bogus_cmd',
              '#### all functions enabled ####\n'),
             ('set_ftrace_notrace', 'no_such_function_xyz',
              '#### no functions disabled ####\n'),
             ('available_tracers', 'function', TRACERS),
             ('max_graph_depth', 'abc', '0\n'),
             ('max_graph_depth', '-1', '0\n'),
             ('tracing_thresh', '-5', '0\n'),
             ('set_graph_function', 'no_such_function_xyz',
              '#### all functions enabled ####\n'),
             ('set_graph_notrace', 'no_such_function_xyz',
              '#### no functions disabled ####\n'),
             ('trace_clock', 'bogus', CLOCKS),
             ('options/sym-offset', '2', '0\n'),
             ('options/sym-offset', 'abc', '0\n'),
             ('enabled_functions', 'x', '')]
    for name, value, after in cases:
        k.check(write(k, name, value), EINVAL)
        if after is not None:
            k.check(cat(k, name), after)
    k.check(write(k, 'buffer_size_kb', '999999999'),
            'sh: write error: Cannot allocate memory\n')
    k.check(cat(k, 'buffer_size_kb'), '1410\n')
    k.check(write(k, 'tracing_on', '2'), '')
    k.check(cat(k, 'tracing_on'), '1\n')
    k.check(write(k, 'set_ftrace_pid', '999999'), '')
    k.check(cat(k, 'set_ftrace_pid'), '999999\n')
    reset(k)


def test_buffer_resize(k):
    reset(k)
    k.check(write(k, 'buffer_size_kb', '8'), '')
    k.check(cat(k, 'buffer_size_kb'), '11\n')
    k.check(cat(k, 'buffer_total_size_kb'), f'{11 * k.smp}\n')
    k.check(write(k, 'per_cpu/cpu0/buffer_size_kb', '100'), '')
    k.check(cat(k, 'per_cpu/cpu0/buffer_size_kb'), '103\n')
    if k.smp > 1:
        k.check(cat(k, 'buffer_size_kb'), 'X\n')
    k.check(write(k, 'buffer_size_kb', '1408'), '')
    k.check(cat(k, 'buffer_size_kb'), '1410\n')


def test_readme_and_info(k):
    assert cat(k, 'README').startswith('tracing mini-HOWTO:')
    assert ' pages:' in cat(k, 'dyn_ftrace_total_info')
    assert 'fib\n' in cat(k, 'available_filter_functions')
    k.check(k.run('cat /proc/sys/kernel/ftrace_enabled'), '1\n')


def test_trace_clocks(k):
    """Each clock stamps a function trace: in seconds.microseconds for
    the clocks in ns, as a plain count for counter, uptime and instret;
    never backwards on one CPU."""
    reset(k)
    write(k, 'set_ftrace_filter', 'fib')
    write(k, 'current_tracer', 'function')
    names = CLOCKS.replace('[', '').replace(']', '').split()
    for clock in names:
        k.check(write(k, 'trace_clock', clock), '')
        k.check(cat(k, 'trace_clock'), ' '.join(
            f'[{n}]' if n == clock else n for n in names) + '\n')
        k.run('run fib 3')
        stamps = [STAMP.search(l) for l in trace_lines(k)]
        assert len(stamps) == 5 and all(stamps), (clock, trace_lines(k))
        in_ns = clock not in ('counter', 'uptime', 'instret')
        assert all(('.' in m[1]) == in_ns for m in stamps), clock
        values = [float(m[1]) for m in stamps]
        assert values == sorted(values), (clock, values)
    reset(k)


def test_more_files(k):
    """timestamp_mode, buffer_percent, printk_formats, saved_cmdlines
    and saved_cmdlines_size read and refuse as Linux 6.1's (q-g)."""
    reset(k)
    k.check(cat(k, 'timestamp_mode'), '[delta] absolute\n')
    k.check(write(k, 'timestamp_mode', 'absolute'), EINVAL)
    k.check(cat(k, 'buffer_percent'), '50\n')
    k.check(write(k, 'buffer_percent', '0'), '')
    k.check(cat(k, 'buffer_percent'), '1\n')
    k.check(write(k, 'buffer_percent', '101'), EINVAL)
    k.check(write(k, 'buffer_percent', '50'), '')
    assert '"a=%ld\\n"' in cat(k, 'printk_formats')
    k.check(cat(k, 'saved_cmdlines_size'), '128\n')
    k.check(write(k, 'saved_cmdlines_size', '0'), EINVAL)
    k.check(write(k, 'saved_cmdlines_size', '32769'), EINVAL)
    k.check(write(k, 'saved_cmdlines_size', '4'), '')
    k.check(cat(k, 'saved_cmdlines_size'), '4\n')
    assert len(cat(k, 'saved_cmdlines').splitlines()) <= 4
    k.check(write(k, 'saved_cmdlines_size', '64'), '')
    write(k, 'set_ftrace_filter', 'fib')
    write(k, 'current_tracer', 'function')
    k.run('run fib 2')
    pid = re.match(r'^ +fib-(\d+) ', trace_lines(k)[0])[1]
    assert f'{pid} fib' in cat(k, 'saved_cmdlines').splitlines()
    k.check(write(k, 'saved_cmdlines_size', '128'), '')
    reset(k)


def test_free_buffer(k):
    """Closing free_buffer shrinks every CPU's buffer to two pages (7 kB
    shown), and with disable_on_free stops tracing first."""
    reset(k)
    k.check(write(k, 'free_buffer', 'x'), '')
    k.check(cat(k, 'buffer_size_kb'), '7\n')
    k.check(cat(k, 'tracing_on'), '1\n')
    k.check(write(k, 'buffer_size_kb', '1408'), '')
    write(k, 'options/disable_on_free', '1')
    k.check(write(k, 'free_buffer', ''), '')
    k.check(cat(k, 'buffer_size_kb'), '7\n')
    k.check(cat(k, 'tracing_on'), '0\n')
    k.check(cat(k, 'free_buffer'),
            'cat: /sys/kernel/tracing/free_buffer: Invalid argument\n')
    write(k, 'options/disable_on_free', '0')
    k.check(write(k, 'buffer_size_kb', '1408'), '')
    k.check(cat(k, 'buffer_size_kb'), '1410\n')
    reset(k)
