"""test_fgraph_cmd.py: `fgraph` shows each task's return stack.

With function_graph on and no filter, the shell's own call of the traced
`for_each_task` (from the untraced `cmd_fgraph`) is hooked while
`fgraph` copies the stacks, so the shell's stack holds exactly that
call: the function, the address it really returns to, and a call time.
"""

import re

SMP = (1, 4)
HEADER = 'ret_stack: 50 entries of 40 bytes per task\nunbalanced returns: 0\n'
ENTRY = re.compile(r'  \[ 0\] for_each_task\+0x0/0x[0-9a-f]+ '
                   r'ret cmd_fgraph\+0x[0-9a-f]+/0x[0-9a-f]+ '
                   r'calltime (\d+)\n')


def shell_pid(k):
    """The shell's pid, from ps."""
    m = re.search(r'^\s*(\d+)\s+\d+\s+\w\s+sh$', k.run('ps'), re.M)
    assert m, 'no sh in ps'
    return int(m[1])


def graph(k, tracer):
    k.run(f'echo {tracer} > /sys/kernel/tracing/current_tracer')


def test_no_stacks_while_nothing_hooks(k):
    k.check(k.run('fgraph'), HEADER)


def test_every_hooked_task(k):
    pid = shell_pid(k)
    graph(k, 'function_graph')
    try:
        out = k.run('fgraph')
    finally:
        graph(k, 'nop')
    assert out.startswith(HEADER), out
    block = re.search(rf'^{pid} sh: depth 1\n(.*\n)', out, re.M)
    assert block and ENTRY.fullmatch(block[1]), out
    assert int(ENTRY.fullmatch(block[1])[1]) > 0, out
    for m in re.finditer(r'^(\d+) (\S+): depth (\d+)\n', out, re.M):
        assert int(m[3]) >= 1, f'a task without hooked calls listed:\n{out}'


def test_one_task(k):
    pid = shell_pid(k)
    graph(k, 'function_graph')
    try:
        out = k.run(f'fgraph {pid}')
    finally:
        graph(k, 'nop')
    head = HEADER + f'{pid} sh: depth 1\n'
    assert out.startswith(head), out
    assert ENTRY.fullmatch(out[len(head):]), out
    k.check(k.run(f'fgraph {pid}'), HEADER + f'{pid} sh: depth 0\n')


def test_bad_arguments(k):
    k.check(k.run('fgraph 99999'), 'fgraph: 99999: No such process\n')
    for bad in ('x', '-1', '1 2'):
        k.check(k.run(f'fgraph {bad}'), 'usage: fgraph [PID]\n')
