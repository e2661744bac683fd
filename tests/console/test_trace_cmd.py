"""test_trace_cmd.py: the trace-cmd front end. Each subcommand is checked
through the tracefs files it must have written (and `cat` of them), so
trace-cmd and echo are seen to do the same thing; then record with a
workload and with a shell command, read back with `trace-cmd report`
from the trace.dat record wrote, stat's report, the errors, and Tab
completion of -l's function names.
"""

import re

from tracing import T, reset, cat, trace_lines

SMP = (1, 4)

USAGE = 'usage: trace-cmd COMMAND [OPTIONS]\n'
LINE = re.compile(r'^ +(\S+)-(\d+) +\[(\d{3})\] (.{5}) +(\d+\.\d{6}): (.*)$')
STATS = re.compile(r'CPU: (\d+)\nentries: (\d+)\noverrun: (\d+)\n')


REPORT = re.compile(r'^ +(\S+)-(\d+) +\[(\d{3})\] +(\d+\.\d{6}): (\w+): +(.*)$')


def funcs(k):
    return [LINE.match(l)[6] for l in trace_lines(k)]


def reported(k, path='trace.dat'):
    """(event, what it says) of each event of `trace-cmd report`."""
    lines = k.run(f'trace-cmd report {path}').splitlines()
    assert lines[0] == f'cpus={k.smp}', lines[:2]
    return [REPORT.match(l).group(5, 6) for l in lines[1:]]


def filter_lines(k, name):
    return sorted(cat(k, name).splitlines())


def defaults_stat(k):
    return (f'\nBuffer size in kilobytes (per cpu):\n   1410\n'
            f'\nBuffer total size in kilobytes:\n   {1410 * k.smp}\n'
            f'\nTracing is enabled\n\n')


def test_usage_and_unknown_command(k):
    out = k.run('trace-cmd')
    assert out.startswith(USAGE) and '  stat [-o]' in out, out
    out = k.run('trace-cmd frobnicate')
    assert out.startswith("trace-cmd: unknown command 'frobnicate'\n" + USAGE)


def test_start_writes_the_tracefs_files(k):
    reset(k)
    k.check(k.run('trace-cmd start -p function -l fib -lfib_main '
                  '-n fib_main -O noprint-parent'), '')
    k.check(cat(k, 'current_tracer'), 'function\n')
    assert filter_lines(k, 'set_ftrace_filter') == ['fib', 'fib_main']
    k.check(cat(k, 'set_ftrace_notrace'), 'fib_main\n')
    k.check(cat(k, 'options/print-parent'), '0\n')
    k.check(cat(k, 'tracing_on'), '1\n')
    k.run('run fib 3')
    assert funcs(k) == ['fib'] * 5, funcs(k)


def test_stop_show_and_clear(k):
    k.check(k.run('trace-cmd stop'), '')
    k.check(cat(k, 'tracing_on'), '0\n')
    k.run('run fib 3')
    k.check(k.run('trace-cmd show'), cat(k, 'trace'))
    assert funcs(k) == ['fib'] * 5
    k.check(k.run('trace-cmd clear'), '')
    assert trace_lines(k) == []


def test_stat_reports_what_is_set(k):
    filters = ''.join(f'   {f}\n' for f in
                      cat(k, 'set_ftrace_filter').splitlines())
    report = (f'\nTracer: function\n'
              f'\nFunction Filter:\n{filters}'
              f'\nFunction No Trace:\n   fib_main\n'
              f'\nBuffer size in kilobytes (per cpu):\n   1410\n'
              f'\nBuffer total size in kilobytes:\n   {1410 * k.smp}\n')
    k.check(k.run('trace-cmd stat'), report + '\nTracing is disabled\n\n')
    out = k.run('trace-cmd stat -o')
    assert out.startswith(report + '\nOptions:\n   noprint-parent\n'), out
    assert out.endswith('   nofunc-no-repeats\n\nTracing is disabled\n\n')


def test_reset_puts_everything_back(k):
    k.check(k.run('trace-cmd reset'), '')
    k.check(cat(k, 'current_tracer'), 'nop\n')
    k.check(cat(k, 'set_ftrace_filter'), '#### all functions enabled ####\n')
    k.check(cat(k, 'set_ftrace_notrace'), '#### no functions disabled ####\n')
    k.check(cat(k, 'set_graph_function'), '#### all functions enabled ####\n')
    k.check(cat(k, 'options/print-parent'), '1\n')
    k.check(cat(k, 'tracing_on'), '1\n')
    k.check(k.run('trace-cmd stat'), defaults_stat(k))


def test_record_a_workload(k):
    out = k.run('trace-cmd record -p function -l fib run fib 10')
    assert out.startswith('fib(10) = 55\nCPU: 0\n'), out
    stats = STATS.findall(out)
    assert [int(s[0]) for s in stats] == list(range(k.smp)), out
    assert sum(int(s[1]) for s in stats) == 177, out
    k.check(cat(k, 'tracing_on'), '0\n')
    assert trace_lines(k) == []     # trace.dat has it: read, consumed
    calls = reported(k)
    assert calls == [('function', 'fib <-- fib_main')] + \
        [('function', 'fib <-- fib')] * 176, calls[:3]
    k.run('rm trace.dat')
    k.run('trace-cmd reset')


def test_record_a_shell_command(k):
    out = k.run('trace-cmd record -p function -l cmd_echo -o /tmp/echo.dat '
                '-- echo hi there')
    assert out.startswith('hi there\nCPU: 0\n'), out
    assert reported(k, '/tmp/echo.dat') == [('function',
                                             'cmd_echo <-- tc_record')]
    k.run('rm /tmp/echo.dat')
    k.run('trace-cmd reset')


def test_record_with_function_graph(k):
    out = k.run('trace-cmd record -p function_graph -g fib '
                '-O funcgraph-proc run fib 4')
    assert out.startswith('fib(4) = 3\n'), out
    k.check(cat(k, 'options/funcgraph-proc'), '1\n')
    events = reported(k)
    # fib's calls only: a timer interrupt may land inside one (do_irq).
    entries = [e for e in events if e[1].startswith('--> fib ')]
    exits = [e for e in events if e[1].startswith('<-- fib ')]
    assert len(entries) == len(exits) == 9, events
    assert entries[0] == ('funcgraph_entry', '--> fib (0)'), events
    assert exits[-1][1].startswith('<-- fib (0) (start: '), events
    k.run('rm trace.dat')
    k.run('trace-cmd reset')
    k.check(cat(k, 'options/funcgraph-proc'), '0\n')
    k.check(cat(k, 'set_graph_function'), '#### all functions enabled ####\n')


def test_errors_say_what_failed(k):
    einval = 'trace-cmd: Invalid argument\n  writing {!r} to {!r}\n'
    k.check(k.run('trace-cmd start -p nosuch'),
            einval.format('nosuch', f'{T}/current_tracer'))
    k.check(k.run('trace-cmd start -p function -l nosuch_fn'),
            einval.format('nosuch_fn', f'{T}/set_ftrace_filter'))
    k.check(k.run('trace-cmd start -p function -O nosuch_opt'),
            einval.format('nosuch_opt', f'{T}/trace_options'))
    for cmd, error in (
            ('start -p function -x', "trace-cmd: invalid option -- 'x'"),
            ('start -p', "trace-cmd: option requires an argument -- 'p'"),
            ('start -l fib', 'trace-cmd start: no tracer (-p) or event (-e) '
                             'given'),
            ('start -p nop -o x', "trace-cmd start: unexpected argument "
                                  "'-o'"),
            ('extract -x', ''),
            ('report -x', ''),
            ('start -p nop extra', "trace-cmd start: unexpected argument "
                                   "'extra'"),
            ('record -p function', 'trace-cmd record: no command to run'),
            ('stop now', "trace-cmd stop: unexpected argument 'now'")):
        out = k.run(f'trace-cmd {cmd}')
        head = error + '\n' if error else ''
        assert out.startswith(head + USAGE), f'{cmd}:\n{out}'
    assert k.run('trace-cmd stat -x').startswith(USAGE)
    k.check(k.run('trace-cmd record -p function nosuch'),
            'trace-cmd record: nosuch: command not found\n')
    k.check(k.run('trace-cmd report /no/such.dat'),
            "trace-cmd: No such file or directory\n  reading '/no/such.dat'\n")
    k.run('echo not a trace > /tmp/bad.dat')
    k.check(k.run('trace-cmd report /tmp/bad.dat'),
            "trace-cmd: Invalid argument\n  reading '/tmp/bad.dat'\n")
    k.check(k.run('trace-cmd reset'), '')
    k.check(k.run('trace-cmd stat'), defaults_stat(k))


def test_tab_completes_function_names(k):
    k.check(k.run('trace-cmd start -p function -l fib_m\t -n ftrace_test_fi\t'),
            '')
    k.check(cat(k, 'set_ftrace_filter'), 'fib_main\n')
    k.check(cat(k, 'set_ftrace_notrace'), 'ftrace_test_fib\n')
    k.run('trace-cmd reset')


def test_list_everything(k):
    """Without a flag: systems, events, tracers and options, as 3.1.6."""
    out = k.run('trace-cmd list')
    systems = sorted(e.split(':')[0] for e in
                     cat(k, 'available_events').split())
    systems = sorted(set(systems) | {'ftrace'})
    k.check(out, 'event systems:\n' + ''.join(s + '\n' for s in systems) +
            '\nevents:\n' + cat(k, 'available_events') +
            '\ntracers:\n' + cat(k, 'available_tracers') +
            '\noptions:\n' + cat(k, 'trace_options'))
    k.check(k.run('trace-cmd list -s'),
            ''.join(s + '\n' for s in systems) + '\n')


def test_list_regexes(k):
    """-e and -f take trace-cmd's regular expressions, case ignored."""
    k.check(k.run('trace-cmd list -f "^FIB$"'), 'fib\n')
    k.check(k.run('trace-cmd list -e sched_sw'), 'sched:sched_switch\n')
    k.check(k.run('trace-cmd list -e "sched:wak"'),
            'sched:sched_wakeup\nsched:sched_wakeup_new\n'
            'sched:sched_waking\n')
    # A system's name alone: its events, and no other system's.
    assert set(k.run('trace-cmd list -e irq:').split()) == \
        {'irq:irq_handler_entry', 'irq:irq_handler_exit'}
    # ftrace's events are listed by system, as under Linux.
    assert 'ftrace:function' in k.run('trace-cmd list -e ftrace:').split()
    k.check(k.run('trace-cmd list -e nosuchevent'), '')
    assert k.run('trace-cmd list -e "sched:[" ; echo $?').startswith(
        "trace-cmd: invalid regex '['")


def test_list_event_files(k):
    """-F shows the format up to its print fmt (--full: all), -l the
    filter, -R the triggers; each needs an event named."""
    fmt = cat(k, 'events/sched/sched_switch/format')
    k.check(k.run('trace-cmd list -e sched_switch -F'),
            'system: sched\n' + fmt[:fmt.index('print fmt')])
    k.check(k.run('trace-cmd list -e sched_switch -F --full'),
            'system: sched\n' + fmt)
    k.run('echo "prev_pid == 1" > '
          '/sys/kernel/tracing/events/sched/sched_switch/filter')
    k.check(k.run('trace-cmd list -e sched_switch -l'),
            'sched:sched_switch\nprev_pid == 1\n\n')
    k.run('echo 0 > /sys/kernel/tracing/events/sched/sched_switch/filter')
    k.check(k.run('trace-cmd list -e sched_switch -R'),
            'sched:sched_switch\n' +
            cat(k, 'events/sched/sched_switch/trigger') + '\n')
    k.check(k.run('trace-cmd list -e -F'),
            'trace-cmd: When specifying event files, an event must be '
            'named\n')


def test_list_buffers(k):
    k.check(k.run('trace-cmd list -B'), 'No buffer instances defined\n')
    k.run('mkdir /sys/kernel/tracing/instances/foo')
    k.check(k.run('trace-cmd list -B'), 'foo\n')
    k.run('rmdir /sys/kernel/tracing/instances/foo')


def test_list_and_show_pipe(k):
    """list prints the files its flags name, in trace-cmd's order
    whatever the order of the flags; show -p reads trace_pipe."""
    k.check(k.run('trace-cmd list -t'), cat(k, 'available_tracers'))
    k.check(k.run('trace-cmd list -o -t'),
            cat(k, 'available_tracers') + cat(k, 'trace_options'))
    k.check(k.run('trace-cmd list -f'), cat(k, 'available_filter_functions'))
    k.check(k.run('trace-cmd list -C'), cat(k, 'trace_clock'))
    assert k.run('trace-cmd list -x').startswith(
        "list: invalid option -- 'x'\nusage:\n")
    k.run('trace-cmd reset')
    k.run('echo hello > /sys/kernel/tracing/trace_marker')
    k.type('trace-cmd show -p\r')
    k.expect(r'tracing_mark_write: hello\n')
    k.type('\x03')
    k.read_until_prompt()
    assert 'tracing_mark_write' not in cat(k, 'trace')


MARK = re.compile(r'^ +\S+-\d+ +\[(\d{3})\] \S{5} +\d+\.\d{6}: '
                  r'tracing_mark_write: (\S+)$')


def marks(k, cmd):
    return [(int(m[1]), m[2]) for m in map(MARK.match, k.run(cmd).splitlines())
            if m]


def test_snapshot(k):
    """trace-cmd snapshot as trace-cmd 3.1's man page has it: -s takes
    (`1 > snapshot`), no option shows it, -r clears (`2`), -f frees
    (`0`), -c one CPU's file, -B an instance's; errors as start's."""
    reset(k)
    k.run(f'echo one > {T}/trace_marker')
    k.check(k.run('trace-cmd snapshot -s'), '')
    (cpu, mark), = marks(k, 'trace-cmd snapshot')
    k.check(mark, 'one')
    k.check(k.run('trace-cmd snapshot'), cat(k, 'snapshot'))
    k.check(trace_lines(k), [])
    k.check(marks(k, f'trace-cmd snapshot -c {cpu}'), [(cpu, 'one')])
    k.check(k.run('trace-cmd snapshot -r'), '')
    assert '# * Snapshot is allocated *' in k.run('trace-cmd snapshot')
    k.check(k.run(f'trace-cmd snapshot -c{cpu} -f'),
            "trace-cmd: Invalid argument\n  writing '0' to "
            f"'{T}/per_cpu/cpu{cpu}/snapshot'\n")
    k.check(k.run('trace-cmd snapshot -f'), '')
    assert '# * Snapshot is freed *' in cat(k, 'snapshot')
    k.run(f'mkdir {T}/instances/tc')
    k.run(f'echo inst > {T}/instances/tc/trace_marker')
    k.check(k.run('trace-cmd snapshot -B tc -s'), '')
    k.check([m for _, m in marks(k, 'trace-cmd snapshot -B tc')], ['inst'])
    k.check(k.run('trace-cmd snapshot -B tc -f'), '')
    k.run(f'rmdir {T}/instances/tc')
    assert k.run('trace-cmd snapshot -x').startswith(
        "trace-cmd: invalid option -- 'x'\n" + USAGE)
    assert k.run('trace-cmd snapshot extra').startswith(USAGE)
