"""test_instances_latency.py: the latency tracers in an instance, as
Linux 6.1 allows them there (allow_instances in its
kernel/trace/trace_irqsoff.c): irqsoff in instances/foo finds
`run irqsoff_demo`'s section, in foo's own trace and
tracing_max_latency, the top level's untouched; and one array at a
time may run a latency tracer: another that asks gets EBUSY, as
Linux's irqsoff_busy makes it."""

import re

import harness
from tracing import T, reset, cat, write
from test_latency import HEADER, DEMO_US, EBUSY, graph_calls

SMP = 2
QEMU_ARGS = harness.ICOUNT
FOO = 'instances/foo'


def clean(k):
    for name in k.run(f'ls {T}/instances').split():
        write(k, f'instances/{name}/current_tracer', 'nop')
        k.run(f'rmdir {T}/instances/{name}')
    reset(k)


def test_irqsoff_in_an_instance(k):
    """Done when: foo's trace is the demo's section, within 5%, with
    Linux's latency header; foo's tracing_max_latency says the same;
    the top level records nothing and its maximum stays 0."""
    clean(k)
    write(k, 'tracing_max_latency', '0')
    k.run(f'mkdir {T}/{FOO}')
    k.check(write(k, f'{FOO}/current_tracer', 'irqsoff'), '')
    write(k, f'{FOO}/tracing_max_latency', '0')
    k.check(k.run(f'run irqsoff_demo {DEMO_US}'),
            f'interrupts off for {DEMO_US} us\n')
    text = cat(k, f'{FOO}/trace')
    m = HEADER.match(text)
    assert m, text
    us = int(m['us'])
    assert DEMO_US <= us <= DEMO_US * 1.05, f'{us} us for {DEMO_US}'
    k.check((m['tracer'], m['comm'], m['start'], m['end']),
            ('irqsoff', 'irqsoff_demo', 'irqsoff_demo_main',
             'irqsoff_demo_main'))
    k.check(int(cat(k, f'{FOO}/tracing_max_latency')), us)
    k.check(cat(k, 'tracing_max_latency'), '0\n')
    assert not re.search(r'^[^#]', cat(k, 'trace'), re.M), k.tail()
    clean(k)


def test_one_latency_tracer_at_a_time(k):
    """Done when: while the top level runs irqsoff an instance's
    latency tracer is refused with EBUSY (it stays nop), and the other
    way round; once the holder lets go, the other array may."""
    clean(k)
    k.run(f'mkdir {T}/{FOO}')
    write(k, 'current_tracer', 'irqsoff')
    for tracer in ('irqsoff', 'preemptoff', 'preemptirqsoff'):
        k.check(write(k, f'{FOO}/current_tracer', tracer), EBUSY)
    k.check(cat(k, f'{FOO}/current_tracer'), 'nop\n')
    # the holder may change to another latency tracer
    k.check(write(k, 'current_tracer', 'preemptirqsoff'), '')
    write(k, 'current_tracer', 'nop')
    k.check(write(k, f'{FOO}/current_tracer', 'irqsoff'), '')
    k.check(write(k, 'current_tracer', 'irqsoff'), EBUSY)
    k.check(cat(k, 'current_tracer'), 'nop\n')
    # rmdir lets go too
    write(k, f'{FOO}/current_tracer', 'nop')
    write(k, f'{FOO}/current_tracer', 'preemptoff')
    k.check(k.run(f'rmdir {T}/{FOO}'), '')
    k.check(write(k, 'current_tracer', 'irqsoff'), '')
    clean(k)


def test_display_graph_while_function_graph_runs(k):
    """Done when: with function_graph running at the top level, foo's
    irqsoff cannot take the graph ops too: setting display-graph gives
    EBUSY and stays off, and foo keeps recording its sections in the
    function format; starting irqsoff with the option already set is
    refused the same way, foo's tracer staying nop."""
    clean(k)
    k.run(f'mkdir {T}/{FOO}')
    write(k, 'current_tracer', 'function_graph')
    write(k, f'{FOO}/current_tracer', 'irqsoff')
    k.check(write(k, f'{FOO}/options/display-graph', '1'), EBUSY)
    k.check(cat(k, f'{FOO}/options/display-graph'), '0\n')
    write(k, f'{FOO}/tracing_max_latency', '0')
    k.run(f'run irqsoff_demo {DEMO_US}')
    text = cat(k, f'{FOO}/trace')
    assert 'irqsoff_spin <-irqsoff_demo_main' in text, text
    write(k, f'{FOO}/current_tracer', 'nop')
    write(k, f'{FOO}/options/display-graph', '1')
    k.check(write(k, f'{FOO}/current_tracer', 'irqsoff'), EBUSY)
    k.check(cat(k, f'{FOO}/current_tracer'), 'nop\n')
    write(k, f'{FOO}/options/display-graph', '0')
    clean(k)


def test_display_graph_follows_the_instance_clock(k):
    """Done when: foo's irqsoff draws its section under display-graph
    with durations in foo's trace_clock, also after foo's clock changed
    while the tracer ran, and a change of the top level's clock
    meanwhile leaves them so: with the `counter` clock (a count of
    reads, not ns) the section's calls take a few counts, not the
    demo's 3 ms."""
    clean(k)
    k.run(f'mkdir {T}/{FOO}')
    write(k, f'{FOO}/options/display-graph', '1')
    write(k, f'{FOO}/current_tracer', 'irqsoff')
    write(k, f'{FOO}/trace_clock', 'counter')
    write(k, 'trace_clock', 'global')
    write(k, f'{FOO}/tracing_max_latency', '0')
    k.run(f'run irqsoff_demo {DEMO_US}')
    text = cat(k, f'{FOO}/trace')
    write(k, f'{FOO}/current_tracer', 'nop')
    write(k, f'{FOO}/options/display-graph', '0')
    write(k, 'trace_clock', 'local')
    clean(k)
    m = HEADER.match(text)
    assert m, text
    calls = graph_calls(text)
    k.check([c for _, c in calls][1:4],
            ['irqsoff_spin() {', '  irqsoff_spin_until();', '}'])
    # the section is counted in the same reads (its stack line's time,
    # from the start): its calls took fewer of them (0.001 "us" is one)
    spin = round(calls[3][0] * 1000)
    end = int(re.search(r' (\d+): <stack trace>$', text, re.M)[1])
    assert 0 < spin < end < 1000, (spin, text)
