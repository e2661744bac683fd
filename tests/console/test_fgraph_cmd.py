"""test_fgraph_cmd.py: `fgraph` shows each task's return stack.

With function_graph on and no filter, the shell's own call of the traced
`for_each_task` (from the untraced `cmd_fgraph`) is hooked while
`fgraph` copies the stacks, so the shell's stack holds that call
innermost: the function, the address it really returns to, and a call
time; below it, the shell's own traced calls that led to the command.
"""

import re

SMP = (1, 4)
HEADER = 'ret_stack: 50 entries of 40 bytes per task\nunbalanced returns: 0\n'
ENTRY = re.compile(r'  \[ 0\] for_each_task\+0x0/0x[0-9a-f]+ '
                   r'ret cmd_fgraph\+0x[0-9a-f]+/0x[0-9a-f]+ '
                   r'calltime (\d+)\n')
OUTER = re.compile(r'  \[ *(\d+)\] \w+\+0x0/0x[0-9a-f]+ '
                   r'ret \w+\+0x[0-9a-f]+/0x[0-9a-f]+ calltime (\d+)\n')


def check_shell_stack(pid, out):
    """The shell's block: depth N, then N entries, for_each_task first."""
    block = re.search(rf'^{pid} sh: depth (\d+)\n((?:  \[.*\n)*)', out, re.M)
    assert block, out
    lines = block[2].splitlines(True)
    assert int(block[1]) == len(lines) >= 1, out
    assert ENTRY.fullmatch(lines[0]) and int(ENTRY.match(lines[0])[1]), out
    for i, line in enumerate(lines):
        m = OUTER.fullmatch(line)
        assert m and int(m[1]) == i, out


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
    check_shell_stack(pid, out)
    for m in re.finditer(r'^(\d+) (\S+): depth (\d+)\n', out, re.M):
        assert int(m[3]) >= 1, f'a task without hooked calls listed:\n{out}'


def test_one_task(k):
    pid = shell_pid(k)
    graph(k, 'function_graph')
    try:
        out = k.run(f'fgraph {pid}')
    finally:
        graph(k, 'nop')
    assert out.startswith(HEADER), out
    check_shell_stack(pid, out)
    assert out.count(': depth ') == 1, out
    k.check(k.run(f'fgraph {pid}'), HEADER + f'{pid} sh: depth 0\n')


def test_bad_arguments(k):
    k.check(k.run('fgraph 99999'), 'fgraph: 99999: No such process\n')
    for bad in ('x', '-1', '1 2'):
        k.check(k.run(f'fgraph {bad}'), 'usage: fgraph [PID]\n')
