"""test_bench_smp.py: `bench` on 4 harts under -icount shift=0,sleep=off.

There QEMU runs the harts in turn on one host thread, and a hart that
spins waiting for another keeps that thread for its whole slice while
the other cannot run. The boot hart waiting for a secondary, and every
stage of a stop_machine round, did: the boot never reached the prompt.
A switch of tracer must cost about what it costs on one hart, not the
tens of millions of instructions of spun-out slices. And in live mode
(trace/ftrace_live.c) no switch may stop the other harts at all.
"""

import harness

SMP = 4
QEMU_ARGS = harness.ICOUNT
SWITCH_LIMIT = 100_000      # instructions; 12,848 on one hart


def bench_values(out):
    values = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == 'bench:':
            values[parts[1]] = float(parts[2])
    return values


def test_bench_finishes_and_switches_cheaply(k):
    values = bench_values(k.run('bench', timeout=120))
    assert 'patch_all_insns_per_site' in values, 'bench did not finish'
    switch = values['switch_one_insns']
    assert switch < SWITCH_LIMIT, \
        f'echo function > current_tracer took {switch:.0f} instructions'
    assert values['stop_machine_longest_stall_insns'] > 0, values
    assert values['live_stop_rounds_per_switch'] == 0, values
    assert values['live_longest_stall_insns'] == 0, values
