"""test_tracefs_listing.py: `ls` of /sys/kernel/tracing and options/,
and `cat trace_options` under nop, function and function_graph, against
Linux 6.1's (shared/reference/linux-6.1: 00-tracefs-files, q-g-more-files).
The differences are named here, each with its reason; the options'
meanings are checked too."""

import re

from tracing import T, EINVAL, reset, cat, write, trace_lines

SMP = 1

# Linux 6.1's trace_options under nop, in its order (q-g-more-files).
CORE = ('print-parent nosym-offset nosym-addr noverbose noraw nohex nobin '
        'noblock trace_printk annotate nouserstacktrace nosym-userobj '
        'noprintk-msg-only context-info nolatency-format record-cmd '
        'norecord-tgid overwrite nodisable_on_free irq-info markers '
        'noevent-fork nopause-on-trace hash-ptr function-trace '
        'nofunction-fork nodisplay-graph nostacktrace').split()
NOP = ['notest_nop_accept', 'notest_nop_refuse']
FUNCTION = ['nofunc_stack_trace', 'nofunc-no-repeats']
GRAPH = ('nofuncgraph-overrun funcgraph-cpu funcgraph-overhead '
         'nofuncgraph-proc funcgraph-duration nofuncgraph-abstime '
         'funcgraph-irqs nofuncgraph-tail sleep-time graph-time').split()

# ls options/ on Linux 6.1 (00-tracefs-files), in readdir order.
LINUX_OPTIONS = '''test_nop_refuse test_nop_accept func-no-repeats
func_stack_trace graph-time sleep-time funcgraph-tail funcgraph-irqs
funcgraph-abstime funcgraph-duration funcgraph-proc funcgraph-overhead
funcgraph-cpu funcgraph-overrun stacktrace display-graph function-fork
function-trace hash-ptr pause-on-trace event-fork markers irq-info
disable_on_free overwrite record-tgid record-cmd latency-format
context-info printk-msg-only sym-userobj userstacktrace annotate
trace_printk block bin hex raw verbose sym-addr sym-offset
print-parent'''.split()

# ls /sys/kernel/tracing on Linux 6.1 (00-tracefs-files).
LINUX_TRACING = '''instances dyn_ftrace_total_info saved_tgids saved_cmdlines_size
saved_cmdlines README tracing_thresh set_graph_notrace set_graph_function
set_ftrace_notrace set_ftrace_filter enabled_functions
available_filter_functions set_ftrace_notrace_pid set_ftrace_pid per_cpu
error_log options buffer_percent timestamp_mode tracing_on trace_clock
trace_marker_raw trace_marker free_buffer buffer_total_size_kb
buffer_size_kb trace_pipe trace trace_options tracing_cpumask
current_tracer available_tracers set_event_notrace_pid set_event_pid
events set_event available_events max_graph_depth printk_formats'''.split()

# Not here yet, and why (docs/tracefs.md keeps the same list): none of
# the reference's files is missing now.
ABSENT = set()
# Linux 6.1 has these too with FUNCTION_PROFILER, STACK_TRACER and
# TRACER_SNAPSHOT; the reference's listing was taken without them.
# And tracing_max_latency with IRQSOFF_TRACER (q-f-latency-tracers).
EXTRA = {'function_profile_enabled', 'trace_stat', 'stack_max_size',
         'stack_trace', 'stack_trace_filter', 'snapshot',
         'tracing_max_latency'}


def lines(text):
    return text.splitlines()


def test_trace_options_under_each_tracer(k):
    reset(k)
    k.check(cat(k, 'trace_options'), '\n'.join(CORE + NOP) + '\n')
    write(k, 'current_tracer', 'function')
    k.check(cat(k, 'trace_options'), '\n'.join(CORE + FUNCTION) + '\n')
    write(k, 'current_tracer', 'function_graph')
    k.check(cat(k, 'trace_options'), '\n'.join(CORE + GRAPH) + '\n')
    reset(k)


def test_ls_options(k):
    """The same names; `ls` sorts them (LC_ALL=C), the reference lists
    them in readdir order, newest first."""
    k.check(k.run(f'ls {T}/options'),
            ''.join(n + '\n' for n in sorted(LINUX_OPTIONS)))
    for name in LINUX_OPTIONS:
        want = '0\n' if 'no' + name in CORE + NOP + FUNCTION + GRAPH else '1\n'
        k.check(name + ' ' + cat(k, f'options/{name}'), name + ' ' + want)


def test_ls_tracing(k):
    """Linux 6.1's files less ABSENT, plus EXTRA, in `ls` order."""
    want = sorted((set(LINUX_TRACING) - ABSENT) | EXTRA)
    k.check(k.run(f'ls {T}'), ''.join(n + '\n' for n in want))


def test_nop_test_options(k):
    reset(k)
    k.check(write(k, 'trace_options', 'test_nop_accept'), '')
    k.check(cat(k, 'options/test_nop_accept'), '1\n')
    k.check(write(k, 'trace_options', 'test_nop_refuse'), EINVAL)
    k.check(write(k, 'options/test_nop_refuse', '1'), EINVAL)
    k.check(cat(k, 'options/test_nop_refuse'), '0\n')
    k.check(write(k, 'options/test_nop_accept', '0'), '')
    assert cat(k, 'trace_options').endswith(
        'notest_nop_accept\nnotest_nop_refuse\n')


def test_raw_option(k):
    """raw: `pid cpu ts ip parent_ip` in hex, and `# ip text` for a
    trace_marker write (Linux's print_raw_fmt, trace_fn_raw)."""
    reset(k)
    write(k, 'set_ftrace_filter', 'fib')
    write(k, 'current_tracer', 'function')
    k.run('run fib 1')
    write(k, 'options/raw', '1')
    write(k, 'trace_marker', 'hello')
    got = trace_lines(k)
    write(k, 'options/raw', '0')
    normal = trace_lines(k)
    assert len(got) == 2, got
    m = re.match(r'^(\d+) 0 (\d+) ([0-9a-f]+) ([0-9a-f]+)$', got[0])
    assert m, got
    pid = re.match(r'^ +fib-(\d+) ', normal[0])[1]
    k.check(m[1], pid)
    assert re.match(r'^\d+ 0 \d+ # [0-9a-f]+ hello$', got[1]), got
    write(k, 'options/context-info', '0')
    write(k, 'options/raw', '1')
    assert re.match(r'^[0-9a-f]+ [0-9a-f]+$', trace_lines(k)[0])
    write(k, 'options/raw', '0')
    write(k, 'options/context-info', '1')
    reset(k)


def test_printk_msg_only(k):
    """A trace_marker line is its text alone with printk-msg-only, while
    trace_printk is on (Linux's trace_print_printk_msg_only)."""
    reset(k)
    write(k, 'trace_marker', 'hello')
    assert trace_lines(k)[0].endswith(': tracing_mark_write: hello')
    write(k, 'options/printk-msg-only', '1')
    k.check(trace_lines(k)[0], 'hello')
    write(k, 'options/trace_printk', '0')
    assert trace_lines(k)[0].endswith(': tracing_mark_write: hello')
    write(k, 'options/trace_printk', '1')
    write(k, 'options/printk-msg-only', '0')
    reset(k)


def test_debug_tracing_is_the_same_tree(k):
    """/sys/kernel/debug/tracing, the old path, shows tracefs too."""
    reset(k)
    k.check(k.run('ls /sys/kernel/debug/tracing'), k.run(f'ls {T}'))
    k.check(k.run('ls /sys/kernel/debug/tracing/options'),
            k.run(f'ls {T}/options'))
    k.check(k.run('echo fib > /sys/kernel/debug/tracing/set_ftrace_filter'),
            '')
    k.check(cat(k, 'set_ftrace_filter'), 'fib\n')
    assert 'tracing\n' in k.run('ls /sys/kernel/debug')
    reset(k)
