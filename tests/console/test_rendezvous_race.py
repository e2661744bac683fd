"""test_rendezvous_race.py: a stopper held, through QEMU's gdbstub
(tests/console/gdbstub.py), right after its last acknowledgement of a
stop_machine round, while the caller returns and lays a pattern where
the round's data was (`stress rendezvous`, kernel/shell/cmd_stress.c):
the stopper must not touch that memory any more.

Left to chance, a hart the host deschedules at that instruction for a
moment hits this once in thousands of rounds; a stopper that still read
the round's state after its decrement then wrote into whatever the
caller's stack held by then: the next round's data (a NULL fn argument,
or a thread_ack of 0 under PREPARE that no round ever leaves).
"""

import os
import re
import tempfile

import harness
from gdbstub import GdbStub, gdb_args, reg_index, PC

SMP = 4
HOLD_LIMIT = 2      # seconds: this stopper's round did not end, let it go
CANDIDATES = 40     # last acknowledgements tried before giving up


def function_lines(name):
    """objdump's lines of a function in build/kernel.asm."""
    with open(os.path.join(harness.BUILD, 'kernel.asm')) as f:
        text = f.read()
    m = re.search(rf'^[0-9a-f]+ <{name}>:\n(.*?)\n\n', text, re.M | re.S)
    assert m, f'{name} not in kernel.asm'
    return m[1].splitlines()


def after_acks():
    """{address: register}: the instruction after each atomic decrement
    of thread_ack in multi_cpu_stop, and the register that holds the
    count before it there (1: this CPU acknowledged last)."""
    lines = function_lines('multi_cpu_stop')
    points = {}
    for line, following in zip(lines, lines[1:]):
        m = re.search(r'\tamoadd\.w\S*\t(\w+),', line)
        if m:
            points[int(following.split(':')[0], 16)] = reg_index(m[1])
    assert points, 'no amoadd in multi_cpu_stop'
    return points


def symbol(name):
    with open(os.path.join(harness.BUILD, 'kernel.sym')) as f:
        for line in f:
            addr, _, sym = line.split()
            if sym == name:
                return int(addr, 16)
    raise AssertionError(f'{name} not in kernel.sym')


def hold_last_acker(g, acks, hold):
    """Stop the next CPU to acknowledge a state last and run the others
    until one reaches hold. True if one did: that round ended while the
    stopper was held. Either way, the stopper then runs on."""
    while True:
        thread, regs = g.wait_break()
        if regs[PC] in acks and regs[acks[regs[PC]]] == 1:
            break
        g.step_over(thread)
        g.cont()
    others = [t for t in g.threads if t != thread]
    g.break_at(hold)
    g.cont(others)
    stop = g.wait_break(HOLD_LIMIT)
    while stop and stop[1][PC] != hold:
        g.step_over(stop[0])
        g.cont(others)
        stop = g.wait_break(HOLD_LIMIT)
    g.unbreak(hold)
    if stop:
        g.step_over(stop[0])
    g.step_over(thread)
    return stop is not None


def test_stopper_late_after_its_last_ack(k):
    acks, hold = after_acks(), symbol('rv_hold')
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'gdb')
        with harness.Kernel(smp=SMP, qemu_args=gdb_args(path)) as kg:
            g = GdbStub(path)
            for addr in acks:
                g.break_at(addr)
            g.cont()
            kg.type('stress rendezvous 40\r')
            for _ in range(CANDIDATES):
                if hold_last_acker(g, acks, hold):
                    break
                g.cont()
            else:
                raise AssertionError('no round ended with a stopper held')
            g.detach()
            out = kg.read_until_prompt(300)
    assert 'returned frame written 0\nstress: ok\n' in out, out
