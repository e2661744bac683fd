"""test_options.py: the trace options that change what is recorded or
how it prints, each against Linux 6.1's format: funcgraph-overrun
(kernel/trace/trace_functions_graph.c: print_graph_return), hex and bin
(kernel/trace/trace_output.c: print_hex_fmt, print_bin_fmt, the
function event's hex and binary handlers), verbose
(trace_print_lat_context and trace_default_header), func-no-repeats
(kernel/trace/trace_functions.c and trace_func_repeats_print),
function-fork (set_ftrace_pid following forks and exits), sleep-time
in function_graph and the profiler (graph-time has its selftest in
trace/ftrace_profile_test.c), and function-trace under irqsoff."""

import atexit
import os
import re
import shutil
import struct
import tempfile

import harness
from tracing import reset, cat, write, trace_lines

SMP = (1,)
DEPTH = 50              # function_graph's ret_stack (FTRACE_RETFUNC_DEPTH)
SHARE = tempfile.mkdtemp(prefix='rvftrace-options-')
atexit.register(shutil.rmtree, SHARE, ignore_errors=True)
QEMU_ARGS = harness.share_args(SHARE)
RAW = re.compile(r'^(\d+) (\d+) (\d+) ([0-9a-f]+) ([0-9a-f]+)$')
HEX = re.compile(r'^([0-9a-f]{8}) ([0-9a-f]{8}) ([0-9a-f]{16}) '
                 r'([0-9a-f]{16}) ([0-9a-f]{16}) $')


def fib3_function(k):
    """The function tracer's 5 events of `run fib 3`."""
    reset(k)
    write(k, 'set_ftrace_filter', 'fib')
    write(k, 'current_tracer', 'function')
    k.run('run fib 3')


def option(k, name, value):
    write(k, f'options/{name}', value)


def raw_fields(k):
    """(pid, cpu, ts, ip, parent) of each event, by the raw option."""
    option(k, 'raw', 1)
    fields = [tuple(int(v, 16 if i > 2 else 10)
                    for i, v in enumerate(RAW.match(l).groups()))
              for l in trace_lines(k)]
    option(k, 'raw', 0)
    assert len(fields) == 5, fields
    return fields


def test_funcgraph_overrun(k):
    """`run deep 60` calls deep() 61 times nested: the first 50 fill the
    ret_stack, 11 more are counted, and every closing brace of the
    hooked ones is followed by ` (Overruns: 11)` once the option is
    set; a leaf line (`deep();`) has none, as in Linux."""
    reset(k)
    write(k, 'set_ftrace_filter', 'deep')
    write(k, 'current_tracer', 'function_graph')
    k.check(k.run('run deep 60'), 'deep(60) = 60\n')
    plain = trace_lines(k)
    assert not any('Overruns' in l for l in plain), plain
    write(k, 'options/funcgraph-overrun', '1')
    lines = trace_lines(k)
    write(k, 'options/funcgraph-overrun', '0')
    reset(k)
    braces = [i for i, l in enumerate(lines) if l.endswith('}')]
    assert len(braces) == DEPTH - 1, lines
    for i in braces:
        k.check(lines[i + 1], ' (Overruns: 11)')
    assert sum(l.endswith('deep();') for l in lines) == 1, lines
    assert len(lines) == DEPTH + 2 * (DEPTH - 1), lines


def test_hex(k):
    """print_hex_fmt: pid, CPU, time stamp, ip and parent, each as its
    bytes in hex (4, 4, 8, 8, 8), a space after each; the same values
    the raw option shows."""
    fib3_function(k)
    raw = raw_fields(k)
    option(k, 'hex', 1)
    lines = trace_lines(k)
    option(k, 'hex', 0)
    reset(k)
    for line in lines:
        assert HEX.match(line), line
    assert [tuple(int(v, 16) for v in HEX.match(l).groups())
            for l in lines] == raw, lines


def test_bin(k):
    """print_bin_fmt: the same fields as little-endian bytes, 32 an
    event, no newline; the header stays text. Read on the host, through
    the shared folder, as the bytes are no text."""
    fib3_function(k)
    raw = raw_fields(k)
    header = ''.join(l + '\n' for l in cat(k, 'trace').splitlines()
                     if l.startswith('#')).encode()
    option(k, 'bin', 1)
    k.run('cat /sys/kernel/tracing/trace > /mnt/host/trace.bin')
    option(k, 'bin', 0)
    reset(k)
    with open(os.path.join(SHARE, 'trace.bin'), 'rb') as f:
        data = f.read()
    assert data.startswith(header), data[:len(header) + 8]
    body = data[len(header):]
    assert len(body) == 5 * 32, body
    assert list(struct.iter_unpack('<iiQQQ', body)) == raw, body


def test_verbose(k):
    """verbose: no column legend, and under latency-format Linux's
    verbose context (trace_print_lat_context): comm, pid, CPU, the
    flags byte, the preempt depth and the event's index in hex, then
    the time stamp in us in hex and the time since the reset and to the
    next event in ms."""
    fib3_function(k)
    option(k, 'verbose', 1)
    out = cat(k, 'trace')
    assert out.split('\n')[:2] == ['# tracer: function', '#'], out
    assert re.match(r'^ +fib-\d+ +\[000\] \.\.\.\.\. +\d+\.\d{6}: fib <-',
                    out.split('\n')[2]), out
    option(k, 'latency-format', 1)
    out = cat(k, 'trace')
    option(k, 'latency-format', 0)
    option(k, 'verbose', 0)
    reset(k)
    lines = out.splitlines()
    assert lines[2] == '# function latency trace v1.1.5 on rvftrace', out
    assert lines[8] == '#', out
    events = lines[9:]
    assert len(events) == 5 and not any(l.startswith('#') for l in events)
    verbose = re.compile(r'^ {13}fib +(\d+) +0 0 00000000 ([0-9a-f]{8}) '
                         r'\[([0-9a-f]{8})\] (\d+)\.(\d{3})ms '
                         r'\(\+(\d+)\.(\d{3})ms\): fib <-fib(_main)?$')
    ms = []
    for i, line in enumerate(events):
        m = verbose.match(line)
        assert m, line
        assert int(m[2], 16) == i, line
        ms.append((int(m[4]) * 1000 + int(m[5]), int(m[6]) * 1000 + int(m[7]),
                   int(m[3], 16)))
    for (abs0, rel0, us0), (abs1, _, us1) in zip(ms, ms[1:]):
        assert abs0 + rel0 in range(abs1 - 1, abs1 + 2), ms
        assert us1 - us0 in range(abs1 - abs0 - 1, abs1 - abs0 + 2), ms
    assert ms[-1][1] == 0, ms


def test_func_no_repeats(k):
    """func-no-repeats: fib(3) calls fib(2) and fib(1) from one place in
    fib, then fib(0) and fib(1) from another; each second call repeats
    the first (same function, same return address) and is counted, and
    the count is recorded as one func_repeats line before the next
    other call, the next run's first one for the last (per CPU, as in
    Linux), its last_ts that of the last repeat
    (trace_func_repeats_print)."""
    reset(k)
    write(k, 'set_ftrace_filter', 'fib')
    option(k, 'func-no-repeats', 1)
    write(k, 'current_tracer', 'function')
    k.run('run fib 3')
    k.run('run fib 3')
    lines = trace_lines(k)
    option(k, 'raw', 1)
    raw = trace_lines(k)
    option(k, 'raw', 0)
    option(k, 'func-no-repeats', 0)
    reset(k)
    ctx = r'^ +fib-\d+ +\[000\] \.\.\.\.\. +(\d+\.\d{6}): '
    repeat = 'fib <-fib (repeats: 1,'
    texts = [re.sub(ctx, '', l).split(' ', 4)[:4] for l in lines]
    assert [' '.join(t) for t in texts] == [
        'fib <-fib_main', 'fib <-fib', repeat, 'fib <-fib', repeat,
        'fib <-fib_main', 'fib <-fib', repeat, 'fib <-fib'], lines
    for i in (2, 4, 7):
        m = re.match(ctx + r'fib <-fib \(repeats: 1, last_ts: +'
                     r'(\d+\.\d{6})\)$', lines[i])
        assert m, lines[i]
        prev = float(re.match(ctx, lines[i - 1])[1])
        assert prev <= float(m[2]) <= float(m[1]), lines
    # raw: pid cpu ts, then ip, parent, the count and the ns since the
    # last repeat, in decimal (trace_func_repeats_raw); the parent is
    # the one of the call before it
    for i in (2, 4, 7):
        f, before = raw[i].split(' '), raw[i - 1].split(' ')
        assert len(f) == 7 and f[5] == '1', raw
        assert (int(f[3]), int(f[4])) == (int(before[3], 16),
                                          int(before[4], 16)), raw
        assert 0 <= int(f[6]) <= int(f[2]) - int(before[2]), raw


def test_function_fork(k):
    """function-fork: with the shell's pid in set_ftrace_pid, `run fib
    3`'s task (the shell's child) is traced only with the option on,
    and leaves the list once it is reaped (ftrace_pid_follow_fork)."""
    reset(k)
    shell = int(k.run('echo $$'))
    write(k, 'set_ftrace_filter', 'fib')
    write(k, 'set_ftrace_pid', shell)
    write(k, 'current_tracer', 'function')
    k.run('run fib 3')
    assert trace_lines(k) == [], cat(k, 'trace')
    option(k, 'function-fork', 1)
    k.run('run fib 3')
    lines = trace_lines(k)
    pids = {int(re.match(r'^ +fib-(\d+) ', l)[1]) for l in lines}
    after = cat(k, 'set_ftrace_pid')
    option(k, 'function-fork', 0)
    k.run('run fib 3')
    again = trace_lines(k)
    reset(k)
    assert len(lines) == 5 and len(pids) == 1, lines
    child = pids.pop()
    assert child != shell, lines
    pids_listed = [int(p) for p in after.split()]
    assert shell in pids_listed and child not in pids_listed, after
    assert again == lines, again


def msleep_us(k):
    """How long `sleep 0.2`'s msleep took, by function_graph and by the
    profiler, in us."""
    reset(k)
    write(k, 'set_graph_function', 'msleep')
    write(k, 'current_tracer', 'function_graph')
    k.run('sleep 0.2')
    lines = [l for l in trace_lines(k) if 'msleep' in l]
    write(k, 'current_tracer', 'nop')
    write(k, 'set_graph_function', '')
    # msleep calls nothing traceable: one leaf line with its duration
    assert len(lines) == 1, lines
    m = re.search(r'([\d.]+) us +\|  msleep\(\);$', lines[0])
    assert m, lines
    graph = float(m[1])
    write(k, 'set_ftrace_filter', 'msleep')
    write(k, 'function_profile_enabled', 1)
    k.run('sleep 0.2')
    write(k, 'function_profile_enabled', 0)
    row = re.search(r'^  msleep +1    ([\d.]+) us', cat(k,
                    'trace_stat/function0'), re.M)
    reset(k)
    assert row, cat(k, 'trace_stat/function0')
    return graph, float(row[1])


def test_sleep_time(k):
    """sleep-time: on (the default), msleep's 200 ms asleep count in its
    time, by function_graph and by the profiler; off, they do not
    (ftrace_graph_probe_sched_switch moves the call's start on)."""
    graph, profile = msleep_us(k)
    assert graph >= 200000 and profile >= 200000, (graph, profile)
    option(k, 'sleep-time', 0)
    graph, profile = msleep_us(k)
    option(k, 'sleep-time', 1)
    assert graph < 100000 and profile < 100000, (graph, profile)


def irqsoff_events(k):
    """The event lines of irqsoff's max trace of `run irqsoff_demo`."""
    reset(k)
    write(k, 'current_tracer', 'irqsoff')
    write(k, 'tracing_max_latency', 0)
    k.run('run irqsoff_demo 100000', timeout=30)
    lines = [l for l in trace_lines(k) if not l.startswith(' => ')]
    reset(k)
    return lines


def test_function_trace(k):
    """function-trace: on (the default), irqsoff records the calls made
    in the section (irqsoff_spin); off, only where it began and ended
    and the stack there, as Linux's irqsoff without function tracing."""
    assert any('irqsoff_spin <-irqsoff_demo_main' in l
               for l in irqsoff_events(k))
    option(k, 'function-trace', 0)
    lines = irqsoff_events(k)
    option(k, 'function-trace', 1)
    assert len(lines) == 4, lines
    assert lines[0].endswith(': irqsoff_demo_main <-irqsoff_demo_main')
    assert lines[1].endswith(': irqsoff_demo_main <-irqsoff_demo_main')
    assert lines[2].endswith(': tracer_hardirqs_on <-irqsoff_demo_main')
    assert lines[3].endswith(': <stack trace>'), lines
