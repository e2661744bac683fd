"""test_gdb_commands.py: scripts/gdb/rvftrace.py's commands in gdb.

With function_graph on `fib`, gdb-multiarch (batch mode, attached to
QEMU's gdbstub) stops at the second ftrace_caller of `run fib 3`, inside
the outer `fib`, and runs each command: rv-tasks lists the fib task,
rv-ret-stack shows the outer fib's entry returning to fib_main, rv-site
shows fib's record enabled with the `jal` to the trampoline there, and
rv-ops names function_graph's ops (`fgraph`). Needs gdb-multiarch
(scripts/deps.sh installs it).
"""

import os
import re

from test_gdb_backtrace import gdb_in_fib

SMP = 1
SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..',
                      '..', 'scripts', 'gdb', 'rvftrace.py')


def test_commands_show_the_graph_state(k):
    out, patchsite = gdb_in_fib(
        k, 'function_graph', ['rv-tasks', 'rv-ret-stack', 'rv-site fib',
                              'rv-ops', 'rv-ret-stack 99999'],
        stops=2, setup=[f'source {SCRIPT}'])
    site = re.search(r'site (0x[0-9a-f]+)', patchsite)
    site = site and int(site[1], 16)
    assert re.search(r'^\s+\d+ fib\s+R\s+0\s+1$', out, re.M), out
    assert re.search(r'^pid \d+ \(fib\): 1 entries, 0 overrun$', out,
                     re.M), out
    assert re.search(r'^  \[0\] fib\+0x0  returns to fib_main\+0x[0-9a-f]+'
                     r'  called at \d+$', out, re.M), out
    assert site, 'patchsite printed no site'
    assert re.search(rf'^site {site:#x} \(fib\+0x0\): 1 ops, flags '
                     r'ENABLED CALL_OPS_EN$', out, re.M), out
    assert re.search(rf'^ops literal at {site - 8:#x}: fgraph$', out, re.M), out
    assert re.search(rf'{site:#x} <fib\+?\d*>:\s+jal\s+t0,', out), out
    assert re.search(r'^fgraph: func \S+, flags 0x[0-9a-f]+, '
                     r'filter 1, notrace 0$', out, re.M), out
    assert 'no task with pid 99999' in out, out
