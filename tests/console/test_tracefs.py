"""test_tracefs.py: /sys/kernel/tracing's files read and refuse as
Linux 6.1's do (shared/reference/linux-6.1: m1, m4, l-errors)."""

from tracing import T, EINVAL, reset, cat, write


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
    k.check(cat(k, 'available_tracers'), 'function_graph function nop\n')
    k.check(cat(k, 'current_tracer'), 'nop\n')
    k.check(cat(k, 'tracing_on'), '1\n')
    k.check(cat(k, 'buffer_size_kb'), '1410\n')
    k.check(cat(k, 'buffer_total_size_kb'), f'{1410 * k.smp}\n')
    k.check(cat(k, 'trace_clock'), '[local] global counter instret\n')
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
    reset(k)
    k.check(cat(k, 'trace_options'),
            'print-parent\nnosym-offset\nnosym-addr\nannotate\n'
            'context-info\nnolatency-format\nrecord-cmd\nnorecord-tgid\n'
            'overwrite\nirq-info\nmarkers\nnoevent-fork\nnopause-on-trace\n')
    write(k, 'current_tracer', 'function')
    assert cat(k, 'trace_options').endswith('nofunc_stack_trace\n')
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
             ('available_tracers', 'function', 'function_graph function nop\n'),
             ('max_graph_depth', 'abc', '0\n'),
             ('max_graph_depth', '-1', '0\n'),
             ('tracing_thresh', '-5', '0\n'),
             ('set_graph_function', 'no_such_function_xyz',
              '#### all functions enabled ####\n'),
             ('set_graph_notrace', 'no_such_function_xyz',
              '#### no functions disabled ####\n'),
             ('trace_clock', 'bogus', '[local] global counter instret\n'),
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


def test_filter_keeps_old_on_error(k):
    """Unlike Linux, `>` with a bad name leaves the old filter."""
    reset(k)
    write(k, 'set_ftrace_filter', 'fib')
    k.check(write(k, 'set_ftrace_filter', 'no_such_function_xyz'), EINVAL)
    k.check(cat(k, 'set_ftrace_filter'), 'fib\n')
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
