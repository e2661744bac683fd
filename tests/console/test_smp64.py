"""test_smp64.py: the kernel on 64 harts, the most NR_CPUS allows.

cpus[] and the tracer's per-CPU data are sized at boot from the harts
of the device tree (arch/riscv/kernel/smp.c:smp_alloc_cpus): all 64
come online, the trace has a buffer per CPU, and a switch of tracer
under stop_machine brings every one of them but the caller's to its
stopper (the caller joins in itself), each switch recorded in that
CPU's own buffer. The shell's task may run on another CPU for its next
command (the runqueue is shared), so each rendezvous leaves out its own
caller's CPU, not always the same one.

Under -icount QEMU runs the 64 harts on one host thread, in turn: the
boot takes a few seconds, where 64 host threads on a loaded machine
take minutes.
"""

import re
from collections import Counter

import harness
from tracing import T, reset, write, trace_lines

SMP = 64
QEMU_ARGS = harness.ICOUNT
SWITCH = re.compile(r'^ +\S+-\d+ +\[(\d{3})\] .{5} +\d+\.\d{6}: sched_switch: '
                    r'.* next_comm=migration/(\d+) ')


def test_every_hart_online(k):
    rows = k.run('cpus').splitlines()[1:]
    assert len(rows) == SMP, rows[-3:]
    assert all(row.split()[2] == 'yes' for row in rows), rows
    assert len(k.run(f'ls {T}/per_cpu').split()) == SMP


def test_rendezvous_traced_on_every_cpu(k):
    reset(k)
    write(k, 'events/sched/sched_switch/enable', '1')
    write(k, 'set_ftrace_filter', 'fib')
    write(k, 'current_tracer', 'function')
    write(k, 'events/sched/sched_switch/enable', '0')
    k.run('run fib 5 > /dev/null')
    assert '#P:64' in k.run(f'cat {T}/trace | head -n 3')
    lines = trace_lines(k)
    switches = [m for m in map(SWITCH.match, lines) if m]
    assert all(int(m[1]) == int(m[2]) for m in switches), switches[:3]
    per_cpu = Counter(int(m[1]) for m in switches)
    # Two rendezvous are seen: the tracer's switch, and the event's
    # disable, whose stoppers switch in before the tracepoint is nopped.
    assert sum(per_cpu.values()) == 2 * (SMP - 1), per_cpu
    assert max(per_cpu.values()) == 2, per_cpu
    assert len(per_cpu) >= SMP - 1, sorted(set(range(SMP)) - set(per_cpu))
    assert sum(line.endswith('fib <-fib') or line.endswith('fib <-fib_main')
               for line in lines) == 15
    reset(k)
