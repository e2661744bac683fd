"""test_check_layers.py: scripts/check_layers.py finds a call up the
layers in a link map's cross references, and only that.

Each case is a small map as GNU ld writes it with -Map and --cref: the
memory map (where the linker script's assignments show) and the table,
a symbol's defining object first, then the objects referring to it.

Run with python3; prints KTAP.
"""

import importlib.util
import os
import sys
import ktap

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), '..', '..'))


def load_check_layers():
    spec = importlib.util.spec_from_file_location(
        'check_layers', os.path.join(ROOT, 'scripts', 'check_layers.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


LAYERS = load_check_layers()
MEMORY_MAP = '''Linker script and memory map

                0x0000000080200000                _text = .
                0x000000008023ee68                __start_shell_cmds = .
'''


def link_map(*rows):
    """A map whose cross reference table has rows (symbol, definer,
    users...)."""
    lines = [MEMORY_MAP, 'Cross Reference Table', '',
             'Symbol                                            File']
    for symbol, *files in rows:
        lines.append(f'{symbol:<50}{files[0]}')
        lines += [' ' * 50 + f for f in files[1:]]
    return '\n'.join(lines) + '\n'


DOWN = ('kmalloc', 'build/kernel/kmalloc.o', 'build/trace/ftrace.o',
        'build/kernel/shell/cmd_file.o', 'build/kernel/demo/workloads.o')
CASES = (
    ('calls down from every room pass',
     [DOWN, ('strlen', 'build/lib/string.o', 'build/kernel/uart.o'),
      ('register_ftrace_function', 'build/trace/ftrace.o',
       'build/kernel/shell/cmd_stress.o', 'build/trace/fgraph_selftest.o'),
      ('sh_printf', 'build/kernel/shell/shell_out.o',
       'build/kernel/demo/workloads.o')], []),
    ('the core calling the tracer fails',
     [DOWN, ('ftrace_graph_frame_ret', 'build/trace/fgraph.o',
             'build/kernel/printk.o')],
     ['kernel/printk (core) -> trace/fgraph (trace): '
      'ftrace_graph_frame_ret']),
    ('the tracer calling the shell fails',
     [('sh_printf', 'build/kernel/shell/shell_out.o',
       'build/trace/fgraph.o')],
     ['trace/fgraph (trace) -> kernel/shell/shell_out (shell): sh_printf']),
    ('a selftest is above what it tests, wherever it lives',
     [('kunit_fail', 'build/kernel/selftest.o',
       'build/kernel/fs/vfs_test.o'),
      ('vfs_test_helper', 'build/kernel/fs/vfs_test.o',
       'build/kernel/fs/vfs.o')],
     ['kernel/fs/vfs (fs) -> kernel/fs/vfs_test (selftests): '
      'vfs_test_helper']),
    ('the arch half of ftrace is the tracer\'s',
     [('ftrace_ops_list_func', 'build/trace/ftrace.o',
       'build/arch/riscv/kernel/mcount-dyn.o'),
      ('ftrace_call', 'build/arch/riscv/kernel/mcount-dyn.o',
       'build/arch/riscv/kernel/trap.o')],
     ['arch/riscv/kernel/trap (core) -> arch/riscv/kernel/mcount-dyn '
      '(trace): ftrace_call']),
    ('linker script symbols belong to no room',
     [('_text', 'build/trace/trace_stacktrace.o', 'build/kernel/printk.o'),
      ('__start_shell_cmds', 'build/kernel/shell/shell.o',
       'build/kernel/init.o')], []),
    ('the -pg call of _mcount is the site, not a call up',
     [('_mcount', 'build/arch/riscv/kernel/mcount-dyn.o',
       'build/kernel/sched.o')], []),
    ('an object in no room fails',
     [('x', 'build/drivers/x.o', 'build/kernel/sched.o')],
     ['drivers/x: in no room']),
)


def checks():
    for name, rows, expected in CASES:
        got = LAYERS.violations(link_map(*rows), 'build')
        yield name, got == sorted(expected), got
    pg = ('workload_get', 'build/mcount/kernel/demo/workloads.o',
          'build/mcount/kernel/shell/cmd_stress.o')
    got = LAYERS.violations(link_map(pg), 'build/mcount')
    yield 'the -pg build is read the same', got == [
        'kernel/shell/cmd_stress (shell) -> kernel/demo/workloads (demo): '
        'workload_get'], got
    try:
        LAYERS.violations(MEMORY_MAP, 'build')
        yield 'a map without --cref is an error', False, 'accepted'
    except ValueError as e:
        yield 'a map without --cref is an error', True, str(e)


def main():
    return ktap.report(list(checks()))


if __name__ == '__main__':
    sys.exit(main())
