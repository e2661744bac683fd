"""test_latency.py: the latency tracers irqsoff, preemptoff and
preemptirqsoff, as Linux 6.1's (shared/reference/linux-6.1:
q-f-latency-tracers): available_tracers in Linux's order, the latency
trace's header line by line, `run irqsoff_demo` found and measured
within 5%, tracing_max_latency and tracing_thresh, the spare buffer
they own, and display-graph's call graph of a section. Under -icount the time CSR, which the `local` trace clock and
the demo's spin both read, counts guest instructions, so no host stall
can stretch a section."""

import re

import harness
from tracing import T, EINVAL, reset, cat, write

SMP = (1, 2)
QEMU_ARGS = harness.ICOUNT

EBUSY = 'sh: write error: Device or resource busy\n'
DEMO_US = 3000

# The header of a max trace: Linux 6.1's (q-f-latency-tracers), where
# only the kernel's name, the preemption model and the figures differ;
# HEADER_TOP is what every latency tracer's has, up to the task's name.
HEADER_TOP = (
    r'# tracer: (?P<tracer>\w+)\n'
    r'#\n'
    r'# (?P=tracer) latency trace v1\.1\.5 on rvftrace\n'
    r'# -{68}\n'
    r'# latency: (?P<us>\d+) us, #(?P<n>\d+)/(?P=n), CPU#(?P<cpu>\d+) \| '
    r'\(M:preempt VP:0, KP:0, SP:0 HP:0 #P:(?P<ncpu>\d+)\)\n'
    r'#    -----------------\n'
    r'#    \| task: (?P<comm>\S+)-(?P<pid>\d+) ')
HEADER = re.compile(
    HEADER_TOP +
    r'\(uid:0 nice:0 policy:0 rt_prio:0\)\n'
    r'#    -----------------\n'
    r'#  => started at: (?P<start>\S+)\n'
    r'#  => ended at:   (?P<end>\S+)\n'
    r'#\n'
    r'#\n')
# Byte for byte the reference's, trailing blanks included.
COLUMNS = ('#                    _------=> CPU#            \n'
           '#                   / _-----=> irqs-off/BH-disabled\n'
           '#                  | / _----=> need-resched    \n'
           '#                  || / _---=> hardirq/softirq \n'
           '#                  ||| / _--=> preempt-depth   \n'
           '#                  |||| / _-=> migrate-disable \n'
           '#                  ||||| /     delay           \n'
           '#  cmd     pid     |||||| time  |   caller     \n'
           '#     \\   /        ||||||  \\    |    /       \n')
LINE = re.compile(r'^ *\S+-\d+ +\d+[d.][n.][h.][0-9.]\. +\d+us[ +!#*@$]: ')


def clean(k):
    write(k, 'tracing_thresh', '0')
    reset(k)


def max_latency(k):
    return int(cat(k, 'tracing_max_latency'))


def demo_trace(k, tracer, stop=False):
    """Run the demo under tracer from a zero maximum; its trace. With
    stop, tracing stops first: no later section can become the maximum
    between this read and the next."""
    clean(k)
    write(k, 'current_tracer', tracer)
    write(k, 'tracing_max_latency', '0')
    k.check(k.run(f'run irqsoff_demo {DEMO_US}'),
            f'interrupts off for {DEMO_US} us\n')
    if stop:
        write(k, 'tracing_on', '0')
    return cat(k, 'trace')


def test_tracers_in_linux_order(k):
    """Done when: the three are listed where Linux 6.1 lists them."""
    k.check(cat(k, 'available_tracers'),
            'function_graph wakeup_rt wakeup preemptirqsoff preemptoff '
            'irqsoff function nop\n')


def check_demo(k, tracer):
    text = demo_trace(k, tracer)
    m = HEADER.match(text)
    assert m, text
    us = int(m['us'])
    assert DEMO_US <= us <= DEMO_US * 1.05, f'{us} us for {DEMO_US}'
    k.check(max_latency(k), us)
    k.check((m['tracer'], m['comm'], m['start'], m['end'], m['ncpu']),
            (tracer, 'irqsoff_demo', 'irqsoff_demo_main',
             'irqsoff_demo_main', str(k.smp)))
    rest = text[m.end():]
    k.check(rest[:len(COLUMNS)], COLUMNS)
    lines = rest[len(COLUMNS):].splitlines()
    events = [l for l in lines if not l.startswith(' => ')]
    assert all(LINE.match(l) for l in events), '\n'.join(events)
    k.check(len(events), int(m['n']))
    # Its first event is where it began, its last ones where it ended
    # and the stack above that, as Linux's are.
    assert events[0].endswith(': irqsoff_demo_main <-irqsoff_demo_main')
    assert 'irqsoff_spin <-irqsoff_demo_main' in events[1], events[1]
    assert events[-3].endswith(': irqsoff_demo_main <-irqsoff_demo_main')
    assert events[-2].endswith(': tracer_hardirqs_on <-irqsoff_demo_main')
    assert events[-1].endswith(': <stack trace>')
    k.check(lines[len(events):][:2],
            [' => irqsoff_demo_main', ' => job_thread'])


def test_irqsoff_finds_the_demo(k):
    """Done when: irqsoff reports the demo's irqs-off section within 5%
    of its length by the trace clock, with Linux's header, columns,
    first and last events and the stack where it ended."""
    check_demo(k, 'irqsoff')
    clean(k)


def test_preemptirqsoff_finds_the_demo(k):
    """Done when: preemptirqsoff, which times irqs-off sections too,
    reports the same section the same way."""
    check_demo(k, 'preemptirqsoff')
    clean(k)


def test_preemptoff_times_preempt_sections(k):
    """Done when: preemptoff records a preempt-off section (a spinlock
    held), not the demo's irqs-off one, started and ended where
    preemption went off and came back on."""
    # a section of the shell's may beat the demo's spinlock: stop first
    text = demo_trace(k, 'preemptoff', stop=True)
    m = HEADER.match(text)
    assert m, text
    assert int(m['us']) < DEMO_US, text
    k.check(int(m['us']), max_latency(k))
    assert 'irqsoff_demo' not in m['start'], text
    assert re.search(r': tracer_preempt_on <-\S+\n', text), text
    clean(k)


def test_max_latency_reset_and_thresh(k):
    """Done when: tracing_max_latency has Linux's mode (0640); `echo 0 >
    tracing_max_latency` reads back 0 (under nop,
    where nothing raises it), a bad number is EINVAL and changes
    nothing; with tracing_thresh above the demo its section is no
    maximum, below it it is; starting a tracer starts from 0."""
    k.check(k.run(f'ls -l {T}/tracing_max_latency').split()[0],
            '-rw-r-----')
    demo_trace(k, 'irqsoff')
    before = max_latency(k)
    write(k, 'current_tracer', 'nop')
    k.check(max_latency(k), before)
    k.check(write(k, 'tracing_max_latency', 'x'), EINVAL)
    k.check(max_latency(k), before)
    write(k, 'tracing_max_latency', '0')
    k.check(max_latency(k), 0)
    write(k, 'tracing_max_latency', '1234')
    k.check(cat(k, 'tracing_max_latency'), '1234\n')
    write(k, 'tracing_thresh', str(DEMO_US * 10))
    write(k, 'current_tracer', 'irqsoff')
    k.check(max_latency(k), 0)
    k.run(f'run irqsoff_demo {DEMO_US}')
    k.check(max_latency(k), 0)
    write(k, 'tracing_thresh', str(DEMO_US // 2))
    k.run(f'run irqsoff_demo {DEMO_US}')
    assert DEMO_US <= max_latency(k) <= DEMO_US * 1.05
    clean(k)


def test_spare_buffer_is_the_tracers(k):
    """Done when: as in Linux, the snapshot file refuses with EBUSY
    while a latency tracer owns the spare buffer, `echo > trace` empties
    the max trace, and leaving the tracer frees the buffer."""
    demo_trace(k, 'irqsoff')
    k.check(write(k, 'snapshot', '1'), EBUSY)
    write(k, 'trace', '')
    k.check(cat(k, 'trace'), '# tracer: irqsoff\n#\n')
    write(k, 'current_tracer', 'nop')
    assert '* Snapshot is freed *' in cat(k, 'snapshot')
    clean(k)


# display-graph: function_graph's latency form with irqsoff's columns
# (Linux's GRAPH_TRACER_FLAGS: CPU, TASK/PID, DURATION).
GRAPH_COLUMNS = (
    '#                       _-----=> irqs-off        \n'
    '#                      / _----=> need-resched    \n'
    '#                     | / _---=> hardirq/softirq \n'
    '#                     || / _--=> preempt-depth   \n'
    '#                     ||| /                      \n'
    '# CPU  TASK/PID       ||||     DURATION                  FUNCTION CALLS\n'
    '# |     |    |        ||||      |   |                     |   |   |   |\n')
GRAPH_LINE = re.compile(r'^ \d\) +\S+-\d+ +\|  d\.\.\.\. \| '
                        r'(?P<dur>[ +!#*@$] *[\d.]+ us *|             ) \|  '
                        r'(?P<call>.*)$')


def graph_calls(text):
    """The call graph's lines of a max trace: (duration us, call)."""
    out = []
    for line in text.splitlines():
        m = GRAPH_LINE.match(line)
        if m:
            dur = m['dur'].strip(' +!#*@$us')
            out.append((float(dur) if dur else None, m['call']))
    return out


def test_display_graph_draws_the_section(k):
    """Done when: with display-graph set, irqsoff draws the calls of the
    demo's section as a call graph in the latency form (the nested call
    between { and }, durations adding up to the section), between its
    start and end drawn as calls of no duration, and still reports the
    section within 5%; clearing and setting the option while the tracer runs switches
    between the function format and the graph (irqsoff_flag_changed)."""
    write(k, 'options/display-graph', '1')
    text = demo_trace(k, 'irqsoff')
    m = HEADER.match(text)
    assert m, text
    us = int(m['us'])
    assert DEMO_US <= us <= DEMO_US * 1.05, f'{us} us for {DEMO_US}'
    k.check(max_latency(k), us)
    rest = text[m.end():]
    k.check(rest[:len(GRAPH_COLUMNS)], GRAPH_COLUMNS)
    calls = graph_calls(rest)
    # the start and the end are calls of no duration, as Linux's
    # trace_graph_function draws them
    k.check([c for _, c in calls],
            ['irqsoff_demo_main();', 'irqsoff_spin() {',
             '  irqsoff_spin_until();', '}', 'irqsoff_demo_main();',
             'tracer_hardirqs_on();'])
    k.check([calls[i][0] for i in (0, 1, 4, 5)], [0.0, None, 0.0, 0.0])
    assert DEMO_US * 0.99 <= calls[2][0] <= calls[3][0], calls
    assert DEMO_US <= calls[3][0] < us + 1, calls
    lines = rest[len(GRAPH_COLUMNS):].splitlines()
    assert lines[6].endswith(': <stack trace>'), lines

    write(k, 'options/display-graph', '0')
    write(k, 'tracing_max_latency', '0')
    k.run(f'run irqsoff_demo {DEMO_US}')
    text = cat(k, 'trace')
    assert COLUMNS in text and not graph_calls(text), text
    assert 'irqsoff_spin <-irqsoff_demo_main' in text, text

    write(k, 'options/display-graph', '1')
    write(k, 'tracing_max_latency', '0')
    k.run(f'run irqsoff_demo {DEMO_US}')
    k.check(len(graph_calls(cat(k, 'trace'))), 6)
    write(k, 'options/display-graph', '0')
    clean(k)
