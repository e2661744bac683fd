#!/usr/bin/env python3
"""bench.py: the figures of `make bench`, and README's copy of them.

usage: bench.py OUT.json BUILD_PATCHABLE BUILD_NONE [BUILD_MCOUNT
                                                    [BUILD_STATIC]]
       bench.py --readme FIGURES.json README.md

The first form boots each build under `qemu -icount shift=0,sleep=off
-smp 1`, where a guest instruction is a tick of the clock rdinstret
reads, types `bench` at the shell, and gathers what it prints into a
table and OUT.json. Every figure is a count of instructions or bytes,
the same on every run. The FTRACE=none build is the baseline for the
cost of a disabled site; the mcount build, and the static one (-pg
without dynamic ftrace), are measured too when given: their keys
start mcount_ and static_. The two patch modes (stop_machine, live) are compared on 1 and
on 4 harts, both under -icount: their keys start smp1_ and smp4_.

The second rewrites the figures in README.md, between the BEGIN and
END marker lines, from FIGURES.json: `make bench` copies what it
measured to docs/bench.json and passes that, and
tests/host/test_bench_readme.py checks README against it.
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..',
                                'tests', 'console'))
import harness  # noqa: E402

BEGIN = '<!-- figures from docs/bench.json: make bench rewrites them -->'
END = '<!-- end of the figures from docs/bench.json -->'

# key, what it measures, Linux 6.1.192 on the same QEMU, our target.
ROWS = [
    ('disabled_insns_per_entry',
     'extra instructions per function entry, tracing off', '2', '<= 1'),
    ('function_insns_per_call',
     'function tracer, 1-function filter, per traced call', '585', '<= 80'),
    ('function_2ops_insns_per_call',
     'the same while a second ops, on another function, is registered',
     '', '<= 90'),
    ('function_off_insns_per_call',
     'the same with `tracing_on` 0', '173', '<= 25'),
    ('function_clock_local_insns_per_call',
     'the same with `trace_clock` local (the default)', '', ''),
    ('function_clock_global_insns_per_call',
     'the same with `trace_clock` global', '', '<= local + 5'),
    ('function_clock_counter_insns_per_call',
     'the same with `trace_clock` counter', '', '<= local + 5'),
    ('function_clock_instret_insns_per_call',
     'the same with `trace_clock` instret', '', '<= local + 5'),
    ('graph_insns_per_call',
     'function_graph, 1-function filter, entry + return', '1,527', '<= 200'),
    ('profile_insns_per_call', 'function profiler, per call', '',
     '<= 120'),
    ('stack_insns_per_call', 'stack tracer, no new maximum, per call', '',
     '<= 60'),
    ('switch_one_insns',
     '`echo function > current_tracer`, 1-function filter', '758,927',
     '<= 6,000'),
    ('patch_all_insns_per_site',
     '`nop` -> `function`, no filter, per site', '1,289', '<= 120'),
    ('ftrace_init_insns_per_site',
     'boot-time `ftrace_init`, per site', '~3,500', '<= 100'),
    ('boot_insns_to_prompt',
     'reset to the shell prompt, OpenSBI included', '87.9 M to `/init`',
     '<= 20 M'),
    ('kernel_boot_insns',
     "the kernel's own part of that, its first instruction to the prompt",
     '', '<= 200,000'),
    ('bytes_per_function_event',
     'ring-buffer bytes per function event (ips in 32 bits: the link '
     'checks that text ends below 4 GiB)', '~28', '<= 24'),
    ('bytes_per_site_record', 'bytes per `dyn_ftrace` record', '16',
     '<= 16'),
    ('sites', 'patchable sites', '8,984', ''),
    ('tracepoint_off_insns',
     'a tracepoint, disabled: its static key site', '1 or 2', '1'),
    ('irqsoff_hook_off_insns',
     'a latency tracer hook (`local_irq_*`, `preempt_*`), none running: '
     'its static key site', '', '1'),
    ('sched_switch_event_insns',
     'the `sched_switch` event, enabled, per switch', '', ''),
]

# The rest, with no Linux figure: key, what it measures.
OTHER_ROWS = [
    ('stub_insns_per_call',
     'the trampoline with an empty callback, per call'),
    ('rb_write_insns_per_event',
     '`ring_buffer_write` of a function event, the call included'),
    ('rb_write3_insns_per_event',
     'the same through `ring_buffer_write3`, its words in registers'),
    ('rb_reserve_commit_insns_per_event',
     'the same reserved, filled and committed'),
    ('patch_insn32_insns', '`patch_insn32`, its page mapped already'),
    ('tracepoint_probe_insns',
     'a tracepoint with one empty probe, per call'),
    ('loop_insns_per_call', 'the untraced loop, per call of `bench_target`'),
    ('mcount_loop_insns_per_call', '`-pg` build: the untraced loop'),
    ('mcount_disabled_insns_per_entry',
     '`-pg` build: extra instructions per entry, tracing off (the `nop` '
     'and what `-pg` makes GCC do around the call)'),
    ('mcount_stub_insns_per_call', '`-pg` build: empty callback, per call'),
    ('mcount_function_insns_per_call',
     '`-pg` build: function tracer, per traced call'),
    ('mcount_graph_insns_per_call',
     '`-pg` build: function_graph, entry + return'),
    ('static_loop_insns_per_call', 'static build: the untraced loop'),
    ('static_disabled_insns_per_entry',
     'static build: extra instructions per entry, tracing off (the call '
     'of `_mcount` and its tests)'),
    ('static_stub_insns_per_call',
     'static build: empty callback, per call'),
    ('static_function_insns_per_call',
     'static build: function tracer, 1-function filter, per traced call'),
    ('static_graph_insns_per_call',
     'static build: function_graph, entry + return'),
]


MODES = ('stop_machine', 'live')
MODE_ROWS = [
    ('switch_one_insns', 'nop -> function, 1-function filter'),
    ('patch_all_insns_per_site', 'nop -> function, every site, per site'),
    ('longest_stall_insns', 'longest stop of the other harts'),
    ('stop_rounds_per_switch', 'stop_machine rounds, 1-function switch'),
]


def measure(build, smp=1, icount=True, command='bench'):
    """Boot one build, run a bench command, return {key: number}."""
    k = harness.Kernel(build=build, smp=smp, timeout=120,
                       qemu_args=harness.ICOUNT if icount else [])
    with k:
        out = k.run(command, timeout=600)
    values = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == 'bench:':
            num = float(parts[2])
            values[parts[1]] = int(num) if num.is_integer() else num
    return values


def combine(patchable, none, others):
    """The keys of bench.json: this build's figures, plus derived ones
    and those of the other builds ({prefix: figures}), prefixed."""
    out = dict(patchable)
    out['disabled_insns_per_entry'] = round(
        patchable['loop_insns_per_call'] - none['loop_insns_per_call'], 2)
    for prefix, build in others.items():
        for key in ('loop_insns_per_call', 'stub_insns_per_call',
                    'function_insns_per_call', 'graph_insns_per_call'):
            if key in build:
                out[prefix + key] = build[key]
        out[prefix + 'disabled_insns_per_entry'] = round(
            build['loop_insns_per_call'] - none['loop_insns_per_call'], 2)
    return out


def table(values):
    """The console's table: every key, Linux's figure and the target."""
    lines = [f"{'key':34} {'rvftrace':>12} {'Linux 6.1':>18}  target",
             '-' * 76]
    for key, _, linux, target in ROWS:
        lines.append(f"{key:34} {str(values.get(key, '-')):>12} "
                     f"{linux:>18}  {target}")
    listed = {row[0] for row in ROWS}
    for key in sorted(k for k in values if k not in listed
                      and not k.startswith(('smp1_', 'smp4_'))):
        lines.append(f"{key:34} {str(values[key]):>12}")
    return '\n'.join(lines)


def whole(value):
    """A figure as README shows it: whole, with thousands separated."""
    return f'{round(value):,}'


def figure(key, value):
    """The boot's count in millions, the others whole."""
    if key == 'boot_insns_to_prompt':
        return f'{value / 1e6:.2f} M'
    return whole(value)


def readme_figures(values):
    """The text that goes between BEGIN and END."""
    lines = ['| measure | rvftrace | Linux 6.1 | target |',
             '| --- | ---: | ---: | ---: |']
    for key, what, linux, target in ROWS:
        lines.append(f'| {what} | {figure(key, values[key])} | {linux} | '
                     f'{target} |')
    lines += ['', 'And the rest of what `bench` prints:', '',
              '| measure | `bench` key | rvftrace |',
              '| --- | --- | ---: |']
    for key, what in OTHER_ROWS:
        lines.append(f'| {what} | `{key}` | {figure(key, values[key])} |')
    return '\n'.join(lines + ['', readme_modes(values)])


def readme_modes(values):
    """The patch modes side by side, as README shows them."""
    cols = [f'smp{n}_{m}_' for n in (1, 4) for m in MODES]
    lines = ['Switching tracers in the two patch modes, on 1 and 4 harts '
             'under', '`-icount` (instructions of the whole machine; '
             '`docs/tour.md`, stage 11):', '',
             '| | stop_machine, 1 | live, 1 | stop_machine, 4 | live, 4 |',
             '| --- | ---: | ---: | ---: | ---: |']
    for key, label in MODE_ROWS:
        lines.append(f'| {label} | ' + ' | '.join(
            whole(values[p + key]) for p in cols) + ' |')
    return '\n'.join(lines)


def rewrite_readme(text, values):
    """README's text with the figures between the markers replaced."""
    head, sep, rest = text.partition(BEGIN + '\n')
    _, sep2, tail = rest.partition(END + '\n')
    if not sep or not sep2:
        raise ValueError('README has no figures markers')
    return f'{head}{BEGIN}\n{readme_figures(values)}\n{END}\n{tail}'


def mode_keys(values, prefix):
    """The patch-mode figures of one boot, their keys prefixed."""
    return {prefix + k: v for k, v in values.items()
            if k.startswith(MODES)}


def mode_table(values):
    """Side by side: each patch mode on 1 and on 4 harts."""
    cols = [(f'{m} smp{n}', f'smp{n}_{m}_') for n in (1, 4) for m in MODES]
    lines = [f"{'instructions':40}" + ''.join(f'{c:>18}' for c, _ in cols),
             '-' * (40 + 18 * len(cols))]
    for key, label in MODE_ROWS:
        lines.append(f'{label:40}' + ''.join(
            f"{str(values.get(p + key, '-')):>18}" for _, p in cols))
    return '\n'.join(lines)


def main(argv):
    if len(argv) == 4 and argv[1] == '--readme':
        with open(argv[2]) as f:
            values = json.load(f)
        with open(argv[3]) as f:
            text = f.read()
        with open(argv[3], 'w') as f:
            f.write(rewrite_readme(text, values))
        return 0
    if len(argv) not in (4, 5, 6):
        sys.exit(__doc__)
    out_path, patchable, none = argv[1:4]
    others = dict(zip(('mcount_', 'static_'), argv[4:]))
    smp1 = measure(patchable)
    values = combine(smp1, measure(none),
                     {p: measure(b) for p, b in others.items()})
    values = {k: v for k, v in values.items() if not k.startswith(MODES)}
    values.update(mode_keys(smp1, 'smp1_'))
    values.update(mode_keys(measure(patchable, smp=4), 'smp4_'))
    print(table(values))
    print()
    print(mode_table(values))
    with open(out_path, 'w') as f:
        json.dump(values, f, indent=2, sort_keys=True)
        f.write('\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
