"""test_trace_pipe_raw.py: per_cpu/cpuN/trace_pipe_raw carried to the host
through the shared folder (`cat .../trace_pipe_raw > /mnt/host/raw0`),
decoded there as libtraceevent would (scripts/trace_raw.py), and
compared event for event with `cat trace` of the same run: CPU, pid,
time stamp to the microsecond, function and parent named by the
kernel's symbol table; function_graph's entries and returns with their
depth and duration; trace_marker's text. Each file ends once read,
tracing being off, and was consumed: a second read finds it empty.
"""

import atexit
import os
import re
import shutil
import sys
import tempfile

import harness
from tracing import T, reset, cat, trace_lines

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..',
                                'scripts'))
import trace_raw  # noqa: E402

SMP = (1, 4)
SHARE = tempfile.mkdtemp(prefix='rvftrace-raw-')
atexit.register(shutil.rmtree, SHARE, ignore_errors=True)
QEMU_ARGS = harness.share_args(SHARE)

LINE = re.compile(r'^ +(\S+)-(\d+) +\[(\d{3})\] (.{5}) +(\d+)\.(\d{6}): '
                  r'(.*)$')
GRAPH = re.compile(r'^ *(\d+)\) +(?:[+!#*@$] )?(?:(\d+(?:\.\d+)?) us +)?'
                   r'\|( *)(\S.*)$')
BANNER = re.compile(r'^ -{42}$|^ *\d+\) .* => ')
STATS_ENTRIES = re.compile(r'^entries: (\d+)$', re.M)


def graph_duration(ns):
    """The DURATION column's number: 7 digits at most, the ns cut."""
    us = str(ns // 1000)
    return us if len(us) >= 7 else f'{us}.{ns % 1000:03}'[:8]


def symbols():
    return trace_raw.Symbols(os.path.join(harness.BUILD, 'kernel.sym'))


def cpus_with_events(k):
    return [cpu for cpu in range(k.smp)
            if int(STATS_ENTRIES.search(cat(k, f'per_cpu/cpu{cpu}/stats'))[1])]


def raw_events(k):
    """Every CPU's trace_pipe_raw, through /mnt/host, decoded."""
    events = []
    for cpu in cpus_with_events(k):
        name = f'raw{cpu}'
        k.check(k.run(f'cat {T}/per_cpu/cpu{cpu}/trace_pipe_raw > '
                      f'/mnt/host/{name}', timeout=60), '')
        with open(os.path.join(SHARE, name), 'rb') as f:
            events += trace_raw.decode(f.read(), cpu)
    return sorted(events, key=lambda e: (e['ts'], e['cpu']))


def text_events(k):
    """(cpu, pid, microseconds, rest of the line) of each trace line."""
    out = []
    for line in trace_lines(k):
        m = LINE.match(line)
        assert m, line
        out.append((int(m[3]), int(m[2]), int(m[5]) * 10**6 + int(m[6]),
                    m[7]))
    return out


def record(k, tracer, cmd, filters=()):
    reset(k)
    for name, value in filters:
        k.run(f'echo {value} > {T}/{name}')
    k.run(f'echo {tracer} > {T}/current_tracer')
    k.run(cmd, timeout=30)
    k.run(f'echo 0 > {T}/tracing_on')


def test_function_trace_event_for_event(k):
    record(k, 'function', 'run fib 10', [('set_ftrace_filter', 'fib')])
    text = text_events(k)
    assert len(text) == 177, len(text)
    raw = raw_events(k)
    syms = symbols()
    assert [e['name'] for e in raw] == ['function'] * 177
    got = [(e['cpu'], e['pid'], (e['ts'] + 500) // 1000,  # ns2usecs
            f'{syms.name(e["ip"])} <-{syms.name(e["parent_ip"])}')
           for e in raw]
    assert got == text, '\n'.join(f'{a} | {b}' for a, b in zip(got, text)
                                  if a != b)


def test_consumed_like_trace_pipe(k):
    assert cpus_with_events(k) == []
    k.check(k.run(f'cat {T}/trace_pipe_raw'),
            f'cat: {T}/trace_pipe_raw: No such file or directory\n')


def test_function_graph_depths_and_durations(k):
    # A tick may come while fib runs. With funcgraph-irqs 0 only do_irq,
    # the start of .irqentry.text, is recorded, and `trace` hides it, as
    # Linux's does: the raw pages keep it, so leave it out below.
    record(k, 'function_graph', 'run fib 4', [('set_ftrace_filter', ''),
                                              ('set_graph_function', 'fib'),
                                              ('options/funcgraph-irqs', 0)])
    # A task switch banner, should fib move to another CPU, is no event.
    lines = [(GRAPH.match(l), l) for l in trace_lines(k)
             if not BANNER.match(l)]
    assert all(m for m, _ in lines), [l for m, l in lines if not m]
    lines = [m for m, _ in lines]
    raw = raw_events(k)
    k.run(f'echo > {T}/set_graph_function')
    k.run(f'echo 1 > {T}/options/funcgraph-irqs')
    syms = symbols()
    # The text folds an entry and its return into `fib();`: unfold it.
    text, i = [], 0
    for m in lines:
        depth = len(m[3]) // 2 - 1
        if m[4].endswith('{'):
            text.append(('funcgraph_entry', depth, m[4][:-4], None))
        elif m[4] == '}':
            text.append(('funcgraph_exit', depth, None, m[2]))
        else:
            text.append(('funcgraph_entry', depth, m[4][:-3], None))
            text.append(('funcgraph_exit', depth, None, m[2]))
    got = []
    for e in raw:
        if syms.name(e['func']) == 'do_irq':
            continue
        if e['name'] == 'funcgraph_entry':
            got.append((e['name'], e['depth'], syms.name(e['func']), None))
        else:
            got.append((e['name'], e['depth'], None,
                        graph_duration(e['rettime'] - e['calltime'])))
            i += 1
    assert i == 9 and got == text, (got, text)


def test_trace_marker_text(k):
    reset(k)
    k.run(f'echo hello raw world > {T}/trace_marker')
    k.run(f'echo 0 > {T}/tracing_on')
    raw = raw_events(k)
    assert [(e['name'], e['buf']) for e in raw] == \
        [('print', 'hello raw world\n')]
    assert symbols().name(raw[0]['ip']) == 'tracing_mark_write'
    k.run(f'echo 1 > {T}/tracing_on')
