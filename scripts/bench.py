#!/usr/bin/env python3
"""bench.py: boot each build under `qemu -icount shift=0,sleep=off -smp 1`, where a
guest instruction is a tick of the clock rdinstret reads, type `bench`
at the shell, and gather what it prints into a table and
build/bench.json. The FTRACE=none build is the baseline for the cost of
a disabled site; the mcount build is measured too when it exists. The
patch modes (stop_machine, live) are compared on 1 and on 4 harts, both
under -icount. Last, `bench smp` on 4 harts without -icount: events per
second written with 1, 2 and 4 CPUs tracing every function (host time,
so only indicative).

usage: bench.py OUT.json BUILD_PATCHABLE BUILD_NONE [BUILD_MCOUNT]
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..',
                                'tests', 'console'))
import harness  # noqa: E402

# Linux 6.1.192 on the same QEMU, and our targets (see issue: Performance).
ROWS = [
    ('disabled_insns_per_entry', 2, '<= 1'),
    ('function_insns_per_call', 585, '<= 195'),
    ('function_off_insns_per_call', 173, '<= 60'),
    ('graph_insns_per_call', 1527, '<= 500'),
    ('switch_one_insns', 758927, '<= 50000'),
    ('patch_all_insns_per_site', 1289, '<= 430'),
    ('ftrace_init_insns_per_site', 3500, '<= 100'),
    ('boot_insns_to_prompt', 87900000, '<= 20000000'),
    ('bytes_per_function_event', 28, '<= 24'),
    ('bytes_per_site_record', 16, '<= 16'),
    ('sites', 8984, 'report'),
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


def combine(patchable, none, mcount):
    """The keys of bench.json: this build's figures, plus derived ones."""
    out = dict(patchable)
    out['disabled_insns_per_entry'] = round(
        patchable['loop_insns_per_call'] - none['loop_insns_per_call'], 2)
    if mcount:
        for key in ('loop_insns_per_call', 'stub_insns_per_call',
                    'function_insns_per_call', 'graph_insns_per_call'):
            if key in mcount:
                out['mcount_' + key] = mcount[key]
        out['mcount_disabled_insns_per_entry'] = round(
            mcount['loop_insns_per_call'] - none['loop_insns_per_call'], 2)
    return out


def table(values):
    lines = [f"{'key':32} {'rvftrace':>12} {'Linux 6.1':>12}  target",
             '-' * 70]
    for key, linux, target in ROWS:
        lines.append(f"{key:32} {str(values.get(key, '-')):>12} "
                     f"{linux:>12}  {target}")
    extra = sorted(k for k in values if k not in dict((r[0], 0) for r in ROWS)
                   and not k.startswith(('smp1_', 'smp4_')))
    for key in extra:
        lines.append(f"{key:32} {str(values[key]):>12}")
    return '\n'.join(lines)


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
    out_path, patchable, none = argv[1:4]
    mcount = argv[4] if len(argv) > 4 else None
    smp1 = measure(patchable)
    values = combine(smp1, measure(none),
                     measure(mcount) if mcount else None)
    values = {k: v for k, v in values.items() if not k.startswith(MODES)}
    values.update(mode_keys(smp1, 'smp1_'))
    values.update(mode_keys(measure(patchable, smp=4), 'smp4_'))
    # Host-time rates: no -icount, one host thread per hart.
    values.update(measure(patchable, smp=4, icount=False,
                          command='bench smp'))
    print(table(values))
    print()
    print(mode_table(values))
    with open(out_path, 'w') as f:
        json.dump(values, f, indent=2, sort_keys=True)
        f.write('\n')


if __name__ == '__main__':
    main(sys.argv)
