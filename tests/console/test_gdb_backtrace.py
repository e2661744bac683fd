"""test_gdb_backtrace.py: gdb's `bt` through ftrace's trampoline.

With the function tracer on `fib`, gdb-multiarch (batch mode, attached
to QEMU's gdbstub) stops at ftrace_caller during `run fib 3`, and its
backtrace must go on through the traced function to `fib_main`: the
call frame information in arch/riscv/kernel/mcount-dyn.S tells it that
ftrace_caller returns through t0 into `fib` before `fib`'s prologue,
with `fib`'s own return address still in ra. Needs gdb-multiarch
(scripts/deps.sh installs it).
"""

import os
import re
import subprocess
import tempfile
import time

import harness
from gdbstub import gdb_args

SMP = 1


def gdb_batch(elf, socket_path, commands):
    """gdb-multiarch, attached to the stub, running these commands."""
    cmd = ['gdb-multiarch', '-q', '-batch', '-nx',
           '-ex', 'set pagination off', '-ex', f'target remote {socket_path}']
    for c in commands:
        cmd += ['-ex', c]
    return subprocess.Popen(cmd + [elf], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)


def wait_for(path, seconds):
    deadline = time.monotonic() + seconds
    while not os.path.exists(path):
        assert time.monotonic() < deadline, f'no {path} after {seconds}s'
        time.sleep(0.1)


def gdb_in_fib(k, tracer, commands, stops=1, setup=()):
    """Trace fib with tracer, stop at the stops-th ftrace_caller of
    `run fib 3` and run commands there: gdb's output, and what
    `patchsite fib` prints afterwards. The shell waits in `read` while
    gdb attaches and sets the breakpoint; the line that lets it run fib
    is typed only once the breakpoint is in (gdb's `shell touch` says
    so), so no run of fib can pass ftrace_caller unseen."""
    elf = os.path.join(k.build, 'kernel.elf')
    with tempfile.TemporaryDirectory() as tmp:
        path, ready = os.path.join(tmp, 'gdb'), os.path.join(tmp, 'ready')
        with harness.Kernel(smp=SMP, qemu_args=gdb_args(path)) as kg:
            for line in ('cd /sys/kernel/tracing',
                         'echo fib > set_ftrace_filter',
                         f'echo {tracer} > current_tracer'):
                kg.run(line)
            kg.type('read go; run fib 3\r')
            gdb = gdb_batch(elf, path, [
                *setup, 'break ftrace_caller', f'shell touch {ready}',
                *['continue'] * stops, *commands, 'delete', 'detach'])
            wait_for(ready, 60)
            kg.type('\r')
            out = gdb.communicate(timeout=120)[0]
            kg.read_until_prompt(60)
            site = kg.run('patchsite fib')
            kg.run('echo nop > current_tracer')
    return out, site


def test_bt_in_ftrace_caller_reaches_fib_main(k):
    out, _ = gdb_in_fib(k, 'function', ['bt'])
    frames = re.findall(r'^#\d+\s+(?:0x[0-9a-f]+ in )?(\w+)', out, re.M)
    assert frames[:3] == ['ftrace_caller', 'fib', 'fib_main'], out
