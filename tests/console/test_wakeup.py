"""test_wakeup.py: the wakeup and wakeup_rt latency tracers, as Linux
6.1's (shared/reference/linux-6.1: q-f-latency-tracers), and the nice
and chrt commands that give a task the priority they look for: nothing
for a normal-priority task, a max trace for one at nice -5 (wakeup) or
SCHED_FIFO 10 (wakeup_rt) with Linux's header, wake-up and switch
lines, a latency that agrees with their times; busybox's errors for
bad arguments. Under -icount the figures are the same each run."""

import re

import harness
from tracing import T, reset, cat, write
from test_latency import COLUMNS, GRAPH_COLUMNS, HEADER_TOP

SMP = (1, 2)
QEMU_ARGS = harness.ICOUNT

ROUNDS = 20

# The max trace's header: Linux 6.1's, where only the kernel's name,
# the preemption model and the figures differ (wakeup_rt's has no
# "started at" lines, nor here does wakeup's: see docs/tracefs.md).
HEADER = re.compile(
    HEADER_TOP +
    r'\(uid:0 nice:(?P<nice>-?\d+) policy:(?P<policy>\d) '
    r'rt_prio:(?P<rt_prio>\d+)\)\n'
    r'#    -----------------\n'
    r'#\n')
CONTEXT = r'^ *\S+-\d+ +\d[d.][n.][h.][0-9.]\. +(?P<us>\d+)us[ +!#*@$]: '
# Linux's trace_ctxwake_print: PID:PRIO:STATE, delim, [CPU], PID:PRIO:STATE COMM
WAKE = re.compile(CONTEXT + r' +\d+:(?P<prev_prio> *\d+):[RSZ]   \+ '
                  r'\[(?P<cpu>\d{3})\] +(?P<pid>\d+):(?P<prio> *\d+):R '
                  r'(?P<comm>\S+)$')
SWITCH = re.compile(CONTEXT + r' +\d+:(?P<prev_prio> *\d+):[RSZ] ==> '
                    r'\[(?P<cpu>\d{3})\] +(?P<pid>\d+):(?P<prio> *\d+):R '
                    r'(?P<comm>\S+)$')
FUNC = re.compile(CONTEXT + r'\S+ <-\S+$')
STACK = re.compile(CONTEXT + r'<stack trace>$')


def max_latency(k):
    return int(cat(k, 'tracing_max_latency'))


def demo(k, tracer, prefix=''):
    """run wakeup_demo under tracer from a zero maximum; its trace."""
    reset(k)
    write(k, 'current_tracer', tracer)
    write(k, 'tracing_max_latency', '0')
    k.check(k.run(f'{prefix}run wakeup_demo {ROUNDS}'),
            f'slept and woke {ROUNDS} times\n')
    return cat(k, 'trace')


def check_max_trace(k, text, tracer, prio, nice, policy, rt_prio):
    """The header, the columns, and the events of a max trace: the
    wake-up with its stack first, the switch with its stack last, the
    functions of the woken task's CPU between."""
    m = HEADER.match(text)
    assert m, text
    us = int(m['us'])
    k.check((m['tracer'], m['comm'], m['nice'], m['policy'], m['rt_prio'],
             m['ncpu']),
            (tracer, 'wakeup_demo', str(nice), str(policy), str(rt_prio),
             str(k.smp)))
    k.check(max_latency(k) // 1, us)
    rest = text[m.end():]
    k.check(rest[:len(COLUMNS)], COLUMNS)
    lines = rest[len(COLUMNS):].splitlines()
    events = [l for l in lines if not l.startswith(' => ')]
    k.check(len(events), int(m['n']))
    wake, switch = WAKE.match(events[0]), SWITCH.match(events[-2])
    assert wake and switch, '\n'.join(events)
    assert STACK.match(events[1]) and STACK.match(events[-1]), events
    assert all(FUNC.match(l) for l in events[2:-2]), '\n'.join(events)
    for line in (wake, switch):
        k.check((line['pid'], int(line['prio']), line['comm']),
                (m['pid'], prio, 'wakeup_demo'))
    # the woken task is better than its waker; it runs on the header's CPU
    assert int(wake['prev_prio']) > prio, events[0]
    k.check(int(switch['cpu']), int(m['cpu']))
    # the wait starts at the wake-up and ends just after the switch line
    k.check(int(wake['us']), 0)
    assert int(switch['us']) <= us <= int(switch['us']) + 10, (us, events)
    return m


def test_tracers_listed(k):
    """Done when: wakeup_rt and wakeup are where Linux 6.1 lists them."""
    k.check(cat(k, 'available_tracers'),
            'function_graph wakeup_rt wakeup preemptirqsoff preemptoff '
            'irqsoff function nop\n')


def test_normal_priority_records_nothing(k):
    """Done when: as in the reference, a normal-priority task's
    wake-ups are no better than their waker's: no maximum, an empty
    trace."""
    k.check(demo(k, 'wakeup'), '# tracer: wakeup\n#\n')
    k.check(max_latency(k), 0)
    reset(k)


def test_nice_task_under_wakeup(k):
    """Done when: at nice -5 (prio 115) the task's wait is a max trace
    with Linux's header (nice:-5 policy:0 rt_prio:0), wake-up and switch
    lines; wakeup_rt ignores it."""
    text = demo(k, 'wakeup', 'nice -n -5 ')
    m = check_max_trace(k, text, 'wakeup', 115, -5, 0, 0)
    # the raw option: Linux's trace_ctxwake_raw, `+` for a wake-up
    write(k, 'options/raw', '1')
    raw = cat(k, 'trace')
    write(k, 'options/raw', '0')
    pid = m['pid']
    assert re.search(rf'^\d+ \d+ \d+ \d+ \d+ \+ \d+ {pid} 115 R$', raw,
                     re.M), raw
    assert re.search(rf'^\d+ \d+ \d+ \d+ \d+ [RSZ] \d+ {pid} 115 R$', raw,
                     re.M), raw
    k.check(demo(k, 'wakeup_rt', 'nice -n -5 '), '# tracer: wakeup_rt\n#\n')
    reset(k)


def test_fifo_task_under_wakeup_rt(k):
    """Done when: a SCHED_FIFO 10 task (prio 89, printed ' 89' as
    Linux's %3d) gives wakeup_rt a max trace (policy:1 rt_prio:10)."""
    text = demo(k, 'wakeup_rt', 'chrt -f 10 ')
    check_max_trace(k, text, 'wakeup_rt', 89, 0, 1, 10)
    assert re.search(r'\d+: 89:R wakeup_demo\n', text), text
    reset(k)


def test_max_latency_reset(k):
    """Done when: `echo 0 > tracing_max_latency` reads back 0 and the
    next wake-up is a maximum again; tracing_thresh above every wait
    keeps it 0; `echo > trace` empties the max trace."""
    demo(k, 'wakeup', 'nice -n -5 ')
    assert max_latency(k) > 0
    write(k, 'tracing_max_latency', '0')
    k.check(max_latency(k), 0)
    k.run(f'nice -n -5 run wakeup_demo {ROUNDS}')
    assert max_latency(k) > 0
    write(k, 'tracing_max_latency', '0')
    write(k, 'tracing_thresh', '1000000')
    k.run(f'nice -n -5 run wakeup_demo {ROUNDS}')
    k.check(max_latency(k), 0)
    write(k, 'tracing_thresh', '0')
    write(k, 'trace', '')
    k.check(cat(k, 'trace'), '# tracer: wakeup\n#\n')
    reset(k)


def test_in_an_instance(k):
    """Done when: an instance runs wakeup into its own maximum while the
    top level, refused wakeup_rt (EBUSY: one array follows one task at a
    time), runs irqsoff beside it."""
    reset(k)
    k.run(f'mkdir {T}/instances/foo')
    write(k, 'instances/foo/current_tracer', 'wakeup')
    k.check(write(k, 'current_tracer', 'wakeup_rt'),
            'sh: write error: Device or resource busy\n')
    write(k, 'current_tracer', 'irqsoff')
    k.run(f'chrt -f 5 run wakeup_demo {ROUNDS}')
    text = cat(k, 'instances/foo/trace')
    m = HEADER.match(text)
    assert m, text
    k.check((m['tracer'], m['comm'], m['policy'], m['rt_prio']),
            ('wakeup', 'wakeup_demo', '1', '5'))
    write(k, 'instances/foo/current_tracer', 'nop')
    k.run(f'rmdir {T}/instances/foo')
    reset(k)


def status(k, cmd):
    return k.run(f'{cmd}; echo "status $?"')


def test_nice_and_chrt(k):
    """Done when: nice and chrt set what a command's tasks see, and
    /proc/PID/stat shows, nice adding to the current value and clamping
    to -20..19, and give busybox's messages and status 1 for bad
    arguments."""
    k.check(k.run('nice'), '0\n')
    k.check(k.run('nice nice'), '10\n')
    k.check(k.run('nice -n -5 nice'), '-5\n')
    k.check(k.run('nice -3 nice'), '3\n')
    k.check(k.run('nice -n-30 nice'), '-20\n')
    k.check(k.run('nice -n 5 nice -n 20 nice'), '19\n')
    k.check(k.run('chrt -f 10 nice -n -2 nice'), '-2\n')
    k.check(k.run('chrt -o 0 nice'), '0\n')
    k.check(status(k, 'nice -n 5 false'), 'status 1\n')
    k.check(status(k, 'nice -n x true'),
            "nice: invalid number 'x'\nstatus 1\n")
    k.check(status(k, 'nice -n 2000000000 true'),
            'nice: number 2000000000 is not in -1073741824..1073741823 '
            'range\nstatus 1\n')
    usage = 'usage: nice [-n ADJUST] [PROG ARGS]\nstatus 1\n'
    k.check(status(k, 'nice -n'), usage)
    k.check(status(k, 'nice -n 5'), usage)
    k.check(status(k, 'chrt -f 0 true'),
            'chrt: number 0 is not in 1..99 range\nstatus 1\n')
    k.check(status(k, 'chrt -f 100 true'),
            'chrt: number 100 is not in 1..99 range\nstatus 1\n')
    k.check(status(k, 'chrt -o 5 true'),
            'chrt: number 5 is not in 0..0 range\nstatus 1\n')
    k.check(status(k, 'chrt -f ten true'),
            "chrt: invalid number 'ten'\nstatus 1\n")
    usage = 'usage: chrt -f|-o PRIO PROG ARGS\nstatus 1\n'
    k.check(status(k, 'chrt -f 10'), usage)
    k.check(status(k, 'chrt -r 10 true'), usage)
    # /proc/PID/stat's priority, nice (fields 18, 19), rt_priority and
    # policy (40, 41) as Linux's do_task_stat gives them
    def stat_fields(cmd):
        f = k.run(f'{cmd} cat /proc/self/stat').split()
        assert len(f) == 52, f
        return [int(f[i - 1]) for i in (18, 19, 40, 41)]
    k.check(stat_fields(''), [20, 0, 0, 0])
    k.check(stat_fields('nice -n -5'), [15, -5, 0, 0])
    k.check(stat_fields('chrt -f 10'), [-11, 0, 10, 1])
    # the shell has its own priority back
    k.check(k.run('nice'), '0\n')


# Linux's print_graph_comment of a wake-up or switch line
GRAPH_COMMENT = re.compile(r'^ \d\) +\S+-\d+ +\|  \S{5} \| +\|  '
                           r'/\* +\d+: *\d+:[RSZ] (?P<delim>  \+|==>) '
                           r'\[\d{3}\] +\d+:115:R wakeup_demo \*/$', re.M)


def test_display_graph(k):
    """Done when: with display-graph set, wakeup draws the calls while
    the task waits as function_graph's call tree in the latency form,
    the wake-up and switch lines as comments in it; clearing the option
    while the tracer runs brings the function lines back."""
    write(k, 'options/display-graph', '1')
    text = demo(k, 'wakeup', 'nice -n -5 ')
    m = HEADER.match(text)
    assert m, text
    rest = text[m.end():]
    k.check(rest[:len(GRAPH_COLUMNS)], GRAPH_COLUMNS)
    k.check([c['delim'] for c in GRAPH_COMMENT.finditer(rest)], ['  +', '==>'])
    assert re.search(r'\|  wake_up\(\);$', rest, re.M), rest
    write(k, 'options/display-graph', '0')
    write(k, 'tracing_max_latency', '0')
    k.run(f'nice -n -5 run wakeup_demo {ROUNDS}')
    text = cat(k, 'trace')
    assert COLUMNS in text and not GRAPH_COMMENT.search(text), text
    reset(k)
