"""test_instances.py: tracefs instances, as Linux 6.1's
(shared/reference/linux-6.1/q-d-instances.txt): mkdir and its errnos,
`ls` of an instance against the reference with each difference named,
two instances tracing different functions beside the top level, events
enabled in an instance going to its buffer only, tracing_on,
trace_marker, trace_marker_raw, tracing_cpumask, error_log,
set_ftrace_pid, the fork options, event triggers, system filters and
function commands per instance, an instance's own snapshot, and rmdir
refused while trace_pipe is open."""

import re

from tracing import T, EINVAL, reset, cat, write, trace_lines

SMP = 2
I = 'instances'

# ls instances/foo on Linux 6.1 (q-d-instances), in readdir order.
LINUX_INSTANCE = '''set_ftrace_notrace_pid set_ftrace_pid per_cpu error_log
snapshot set_ftrace_notrace set_ftrace_filter tracing_max_latency options
buffer_percent timestamp_mode tracing_on trace_clock trace_marker_raw
trace_marker free_buffer buffer_total_size_kb buffer_size_kb trace_pipe
trace trace_options tracing_cpumask current_tracer available_tracers
set_event_notrace_pid set_event_pid events set_event'''.split()

# Not in an instance here, and why (docs/tracefs.md, Instances): none
# of the reference's files is missing now.
ABSENT = set()

FN = re.compile(r'^ +\S+-\d+ +\[\d{3}\] \S{5} +\d+\.\d{6}: (\S+) <-(\S+)$')


def functions(k, name):
    """(function, parent) of each function line of a trace file."""
    return [(m[1], m[2]) for m in map(FN.match, trace_lines(k, name)) if m]


def mkdir(k, name):
    return k.run(f'mkdir {T}/{I}/{name}')


def rmdir(k, name):
    return k.run(f'rmdir {T}/{I}/{name}')


def clean(k):
    """No instance left, the top level at its defaults."""
    for name in k.run(f'ls {T}/{I}').split():
        write(k, f'{I}/{name}/current_tracer', 'nop')
        rmdir(k, name)
    reset(k)
    k.check(k.run(f'ls {T}/{I}'), '')


def test_mkdir_errnos_and_ls(k):
    """EEXIST, EPERM outside instances/, ENOENT for a missing one; the
    files of an instance are Linux's less those named in ABSENT."""
    clean(k)
    k.check(mkdir(k, 'foo'), '')
    k.check(mkdir(k, 'foo'), "mkdir: can't create directory "
            f"'{T}/{I}/foo': File exists\n")
    k.check(k.run(f'mkdir {T}/foo'), "mkdir: can't create directory "
            f"'{T}/foo': Operation not permitted\n")
    k.check(k.run(f'ls {T}/{I}'), 'foo\n')
    want = sorted(set(LINUX_INSTANCE) - ABSENT)
    k.check(k.run(f'ls {T}/{I}/foo'), ''.join(n + '\n' for n in want))
    k.check(cat(k, f'{I}/foo/current_tracer'), 'nop\n')
    # 6.1's (q-d-instances) lists wakeup_dl wakeup_rt wakeup irqsoff
    # function nop: it has no preempt tracers, this kernel no wakeup_dl
    k.check(cat(k, f'{I}/foo/available_tracers'),
            'wakeup_rt wakeup preemptirqsoff preemptoff irqsoff function '
            'nop\n')
    k.check(write(k, f'{I}/foo/current_tracer', 'function_graph'), EINVAL)
    k.check(cat(k, f'{I}/foo/current_tracer'), 'nop\n')
    k.check(k.run(f'ls {T}/{I}/foo/per_cpu/cpu1'),
            'buffer_size_kb\nsnapshot\nstats\ntrace\ntrace_pipe\n'
            'trace_pipe_raw\n')
    k.check(cat(k, f'{I}/foo/buffer_size_kb'), '1410\n')
    k.check(rmdir(k, 'foo'), '')
    k.check(rmdir(k, 'nosuch'), f"rmdir: '{T}/{I}/nosuch': "
            'No such file or directory\n')
    k.check(k.run(f'ls {T}/{I}'), '')


def test_two_instances_and_the_top_level(k):
    """foo traces fib, bar fib_main, the top level both, at once: each
    buffer holds what its own filter lets through, nothing more."""
    clean(k)
    mkdir(k, 'foo')
    mkdir(k, 'bar')
    write(k, f'{I}/foo/set_ftrace_filter', 'fib')
    write(k, f'{I}/bar/set_ftrace_filter', 'fib_main')
    write(k, 'set_ftrace_filter', "'fib fib_main'")
    for d in (f'{I}/foo/', f'{I}/bar/', ''):
        write(k, d + 'current_tracer', 'function')
    k.check(cat(k, f'{I}/foo/set_ftrace_filter'), 'fib\n')
    k.check(cat(k, 'enabled_functions'), 'fib (2)      \nfib_main (2)      \n')
    k.check(k.run('run fib 3'), 'fib(3) = 2\n')
    fibs = [('fib', 'fib_main')] + [('fib', 'fib')] * 4
    k.check(functions(k, f'{I}/foo/trace'), fibs)
    k.check(functions(k, f'{I}/bar/trace'), [('fib_main', 'job_thread')])
    k.check(functions(k, 'trace'), [('fib_main', 'job_thread')] + fibs)
    # the top level stops; the instances go on
    write(k, 'current_tracer', 'nop')
    write(k, f'{I}/foo/trace', '')
    k.check(k.run('run fib 2'), 'fib(2) = 1\n')
    k.check(len(functions(k, f'{I}/foo/trace')), 3)
    k.check(trace_lines(k, 'trace'), [])
    assert re.match(r'# tracer: function\n#\n# entries-in-buffer/'
                    r'entries-written: 3/3   #P:2\n',
                    cat(k, f'{I}/foo/trace')), k.tail()
    clean(k)
    k.check(cat(k, 'enabled_functions'), '')


def test_events_in_an_instance(k):
    """sched_switch on in bar: bar's trace has the switches, the top
    level's none; set_event and the enable files are bar's own."""
    clean(k)
    mkdir(k, 'bar')
    write(k, f'{I}/bar/events/sched/sched_switch/enable', '1')
    k.check(k.run('run fib 3'), 'fib(3) = 2\n')
    write(k, f'{I}/bar/events/sched/sched_switch/enable', '0')
    switches = [l for l in trace_lines(k, f'{I}/bar/trace')
                if ': sched_switch: prev_comm=' in l]
    assert len(switches) >= 2, k.tail()
    assert any('next_comm=fib ' in l for l in switches), switches
    k.check(trace_lines(k, 'trace'), [])
    write(k, f'{I}/bar/set_event', 'sched:sched_wakeup')
    k.check(cat(k, f'{I}/bar/set_event'), 'sched:sched_wakeup\n')
    k.check(cat(k, f'{I}/bar/events/sched/enable'), 'X\n')
    k.check(cat(k, 'set_event'), '')
    k.check(cat(k, 'events/sched/enable'), '0\n')
    k.check(cat(k, 'events/sched/sched_wakeup/enable'), '0\n')
    # rmdir turns its events off with it
    k.check(rmdir(k, 'bar'), '')
    k.check(k.run('patchsite sched_wakeup | head -n 1'),
            'sched_wakeup: tracepoint, key disabled, 0 probes\n')


def test_tracing_on_and_marker_per_instance(k):
    clean(k)
    mkdir(k, 'foo')
    write(k, f'{I}/foo/set_ftrace_filter', 'fib')
    write(k, f'{I}/foo/current_tracer', 'function')
    write(k, f'{I}/foo/tracing_on', '0')
    k.check(cat(k, f'{I}/foo/tracing_on'), '0\n')
    k.check(cat(k, 'tracing_on'), '1\n')
    k.run('run fib 3')
    k.check(trace_lines(k, f'{I}/foo/trace'), [])
    write(k, f'{I}/foo/tracing_on', '1')
    k.run('run fib 1')
    k.check(len(functions(k, f'{I}/foo/trace')), 1)
    write(k, f'{I}/foo/trace_marker', 'in-foo')
    lines = trace_lines(k, f'{I}/foo/trace')
    assert lines[-1].endswith(': tracing_mark_write: in-foo'), lines
    k.check(k.run(r"echo -n '*AAA' > " f'{T}/{I}/foo/trace_marker_raw'), '')
    lines = trace_lines(k, f'{I}/foo/trace')
    assert lines[-1].endswith(': # 4141412a buf:' + ' 00' * 16), lines
    k.check(trace_lines(k, 'trace'), [])
    clean(k)


def test_rmdir_busy_while_trace_pipe_is_open(k):
    """EBUSY while a reader holds trace_pipe, as Linux with a file
    held open; once it is gone, rmdir takes the instance down even
    with its tracer on."""
    clean(k)
    mkdir(k, 'foo')
    write(k, f'{I}/foo/set_ftrace_filter', 'fib')
    write(k, f'{I}/foo/current_tracer', 'function')
    k.run(f'cat {T}/{I}/foo/trace_pipe > /tmp/pipe &')
    k.run("while ! ps | grep -q ' S  *cat$'; do sleep 0.05; done",
          timeout=20)
    k.check(rmdir(k, 'foo'), f"rmdir: '{T}/{I}/foo': "
            'Device or resource busy\n')
    k.check(k.run('ls /sys/kernel/tracing/instances'), 'foo\n')
    k.check(k.run('run fib 2'), 'fib(2) = 1\n')
    k.run('while [ $(wc -l < /tmp/pipe) -lt 3 ]; do sleep 0.05; done',
          timeout=20)
    k.run('kill $!; wait $!')
    k.check(len(k.run('cat /tmp/pipe').splitlines()), 3)
    k.check(rmdir(k, 'foo'), '')
    k.check(k.run(f'ls {T}/{I}'), '')
    k.check(cat(k, 'enabled_functions'), '')


MARK = re.compile(r'^ +\S+-\d+ +\[(\d{3})\] \S{5} +\d+\.\d{6}: '
                  r'tracing_mark_write: (\S+)$')


def marks(k, name):
    return [(int(m[1]), m[2]) for m in map(MARK.match, trace_lines(k, name))
            if m]


def test_snapshot_per_instance(k):
    """Done when: an instance's `snapshot` takes its own buffer's events
    and leaves the top level's alone, its per_cpu/cpuN/snapshot swaps
    one CPU, `echo 0` frees it, and rmdir frees one still allocated."""
    clean(k)
    mkdir(k, 'foo')
    write(k, 'trace_marker', 'top')
    write(k, f'{I}/foo/trace_marker', 'inst')
    k.check(write(k, f'{I}/foo/snapshot', '1'), '')
    k.check([m[1] for m in marks(k, f'{I}/foo/snapshot')], ['inst'])
    k.check(marks(k, f'{I}/foo/trace'), [])
    k.check([m[1] for m in marks(k, 'trace')], ['top'])
    assert '# * Snapshot is freed *' in cat(k, 'snapshot')
    write(k, f'{I}/foo/trace_marker', 'two')
    (cpu, _), = marks(k, f'{I}/foo/trace')
    k.check(write(k, f'{I}/foo/per_cpu/cpu{cpu}/snapshot', '1'), '')
    k.check(marks(k, f'{I}/foo/per_cpu/cpu{cpu}/snapshot'), [(cpu, 'two')])
    k.check(write(k, f'{I}/foo/snapshot', '0'), '')
    assert '# * Snapshot is freed *' in cat(k, f'{I}/foo/snapshot')
    k.check(rmdir(k, 'foo'), '')
    free_before = k.run('free')
    mkdir(k, 'foo')
    k.check(write(k, f'{I}/foo/snapshot', '1'), '')
    k.check(rmdir(k, 'foo'), '')
    k.check(k.run('free'), free_before)


def test_pid_filters_per_instance(k):
    """The top level traces only the shell's pid, foo only another: each
    array answers for itself, though both ask on the same CPU for the
    same task (a cache of the answer shared by the arrays would give
    one of them the other's)."""
    clean(k)
    sh = k.run('echo $$').strip()
    other = str(int(sh) + 1000)
    mkdir(k, 'foo')
    for d, pid in (('', sh), (f'{I}/foo/', other)):
        write(k, d + 'set_ftrace_filter', 'vfs_open')
        write(k, d + 'set_ftrace_pid', pid)
        write(k, d + 'current_tracer', 'function')
    for _ in range(2):
        k.run('cat /proc/meminfo > /dev/null')
    write(k, 'tracing_on', '0')
    write(k, f'{I}/foo/tracing_on', '0')
    top = functions(k, 'trace')
    assert top and {f for f, _ in top} == {'vfs_open'}, k.tail()
    assert not functions(k, f'{I}/foo/trace'), k.tail()
    # and the other way round
    write(k, 'set_ftrace_pid', other)
    write(k, f'{I}/foo/set_ftrace_pid', sh)
    for d in ('', f'{I}/foo/'):
        write(k, d + 'trace', '')
        write(k, d + 'tracing_on', '1')
    for _ in range(2):
        k.run('cat /proc/meminfo > /dev/null')
    write(k, 'tracing_on', '0')
    write(k, f'{I}/foo/tracing_on', '0')
    assert functions(k, f'{I}/foo/trace'), k.tail()
    assert not functions(k, 'trace'), k.tail()
    clean(k)


SWITCH_PIDS = re.compile(r': sched_switch: prev_comm=\S+ prev_pid=(\d+) ')


def test_fork_options_per_instance(k):
    """function-fork and event-fork set in foo follow forks into foo's
    own set_ftrace_pid and set_event_pid, and reaps out of them; the
    top level's lists and options are left alone, and rmdir takes the
    fork probes down with foo."""
    clean(k)
    sh = k.run('echo $$').strip()
    mkdir(k, 'foo')
    foo = f'{I}/foo/'
    write(k, foo + 'set_ftrace_filter', 'fib')
    write(k, foo + 'set_ftrace_pid', sh)
    write(k, foo + 'set_event_pid', sh)
    write(k, foo + 'options/function-fork', '1')
    write(k, foo + 'options/event-fork', '1')
    write(k, foo + 'current_tracer', 'function')
    write(k, foo + 'events/sched/sched_switch/enable', '1')
    k.check(k.run('run fib 3'), 'fib(3) = 2\n')
    write(k, foo + 'tracing_on', '0')
    lines = trace_lines(k, foo + 'trace')
    fibs = {int(m[1]) for m in
            (re.match(r'^ +fib-(\d+) .*: fib <-', l) for l in lines) if m}
    switched = {m[1] for m in map(SWITCH_PIDS.search, lines) if m}
    assert len(fibs) == 1 and str(fibs.copy().pop()) != sh, lines
    child = str(fibs.pop())
    assert child in switched, lines
    # fib was reaped before the prompt came back: it left both lists
    k.check(cat(k, foo + 'set_ftrace_pid'), sh + '\n')
    k.check(cat(k, foo + 'set_event_pid'), sh + '\n')
    k.check(cat(k, 'options/function-fork'), '0\n')
    k.check(cat(k, 'options/event-fork'), '0\n')
    k.check(cat(k, 'set_ftrace_pid'), 'no pid\n')
    k.check(trace_lines(k, 'trace'), [])
    k.check(k.run('patchsite sched_process_fork | head -n 1'),
            'sched_process_fork: tracepoint, key enabled, 2 probes\n')
    write(k, foo + 'events/sched/sched_switch/enable', '0')
    clean(k)
    k.check(k.run('patchsite sched_process_fork | head -n 1'),
            'sched_process_fork: tracepoint, key disabled, 0 probes\n')


EVENT_CPU = re.compile(r'^ +\S+-\d+ +\[(\d{3})\] ')


def cpus_of(k, name):
    return {m[1] for m in map(EVENT_CPU.match, trace_lines(k, name)) if m}


def test_tracing_cpumask_per_instance(k):
    """foo records CPU 0's ticks only, the top level both CPUs': each
    array's mask stops its own buffer, no other."""
    clean(k)
    mkdir(k, 'foo')
    k.check(cat(k, f'{I}/foo/tracing_cpumask'), '3\n')
    write(k, f'{I}/foo/tracing_cpumask', '1')
    k.check(cat(k, f'{I}/foo/tracing_cpumask'), '1\n')
    k.check(cat(k, 'tracing_cpumask'), '3\n')
    for d in ('', f'{I}/foo/'):
        write(k, d + 'set_ftrace_filter', 'scheduler_tick')
        write(k, d + 'current_tracer', 'function')
    k.run('sleep 1')
    for d in ('', f'{I}/foo/'):
        write(k, d + 'tracing_on', '0')
    k.check(cpus_of(k, f'{I}/foo/trace'), {'000'})
    k.check(cpus_of(k, 'trace'), {'000', '001'})
    # a bad mask changes nothing
    k.check(write(k, f'{I}/foo/tracing_cpumask', 'x'), EINVAL)
    k.check(cat(k, f'{I}/foo/tracing_cpumask'), '1\n')
    clean(k)


def test_error_log_per_instance(k):
    """A filter error in foo's event goes to foo's error_log, not the
    top level's; `echo > error_log` empties foo's alone."""
    clean(k)
    write(k, 'error_log', '')
    mkdir(k, 'foo')
    ev = f'{I}/foo/events/sched/sched_switch/filter'
    k.check(write(k, ev, "'nosuch == 1'"), EINVAL)
    assert re.fullmatch(
        r'\[ +\d+\.\d{6}\] event filter parse error: error: Field not found\n'
        r'  Command: nosuch == 1\n {18}\^\n',
        cat(k, f'{I}/foo/error_log')), k.tail()
    k.check(cat(k, 'error_log'), '')
    k.check(write(k, 'events/sched/sched_switch/filter', "'nosuch == 2'"),
            EINVAL)
    k.check(len(cat(k, 'error_log').splitlines()), 3)
    write(k, f'{I}/foo/error_log', '')
    k.check(cat(k, f'{I}/foo/error_log'), '')
    k.check(len(cat(k, 'error_log').splitlines()), 3)
    write(k, 'error_log', '')
    write(k, 'events/sched/sched_switch/filter', '0')
    clean(k)


def test_triggers_and_system_filter_per_instance(k):
    """foo's events have their own trigger files and foo's systems their
    own filter, as Linux's instances do: a trigger acts on foo (its
    stack, its tracing_on, its events' soft mode), the top level's
    untouched; rmdir takes the triggers down with foo."""
    clean(k)
    mkdir(k, 'foo')
    ev = f'{I}/foo/events/sched/sched_switch/'
    wake = f'{I}/foo/events/sched/sched_wakeup/'
    k.check(cat(k, ev + 'trigger'), '# Available triggers:\n'
            '# traceon traceoff snapshot stacktrace enable_event '
            'disable_event\n')
    write(k, ev + 'trigger', 'stacktrace:1')
    write(k, ev + 'trigger', 'enable_event:sched:sched_wakeup')
    # soft mode: 1* once a switch fired the trigger
    assert cat(k, wake + 'enable') in ('0*\n', '1*\n'), k.tail()
    k.check(cat(k, 'events/sched/sched_wakeup/enable'), '0\n')
    write(k, ev + 'enable', '1')
    k.check(k.run('run fib 2'), 'fib(2) = 1\n')
    write(k, ev + 'trigger', "'!enable_event:sched:sched_wakeup'")
    k.check(cat(k, ev + 'trigger'), 'stacktrace:count=0\n')
    lines = trace_lines(k, f'{I}/foo/trace')
    stacks = [i for i, l in enumerate(lines) if l.endswith('<stack trace>')]
    assert len(stacks) == 1 and ': sched_switch: ' in lines[stacks[0] - 1]
    assert lines[stacks[0] + 1] == ' => __schedule', lines
    assert any(': sched_wakeup: ' in l for l in lines), lines
    k.check(trace_lines(k, 'trace'), [])
    # traceoff stops foo's buffer only
    write(k, ev + 'trigger', 'traceoff')
    k.run('run fib 2')
    k.check(cat(k, f'{I}/foo/tracing_on'), '0\n')
    k.check(cat(k, 'tracing_on'), '1\n')
    # the system's filter goes to foo's events, its errors to foo's log
    write(k, f'{I}/foo/events/sched/filter', "'prev_pid == 1'")
    k.check(cat(k, ev + 'filter'), 'prev_pid == 1\n')
    k.check(cat(k, 'events/sched/sched_switch/filter'), 'none\n')
    k.check(write(k, f'{I}/foo/events/sched/filter', "'nosuch == 1'"),
            EINVAL)
    assert "Couldn't find or set field in one of a subsystem's events" in \
        cat(k, f'{I}/foo/error_log')
    k.check(cat(k, 'error_log'), '')
    k.check(rmdir(k, 'foo'), '')
    k.check(k.run('patchsite sched_switch | head -n 1'),
            'sched_switch: tracepoint, key disabled, 0 probes\n')
    clean(k)


def test_function_commands_per_instance(k):
    """set_ftrace_filter of foo takes FUNC:cmd words, as Linux's
    instances do: fib:traceoff stops foo's buffer, not the top level's;
    fib:enable_event turns on foo's event; foo lists its probes, the
    top level none; rmdir takes the probes down with foo."""
    clean(k)
    mkdir(k, 'foo')
    foo = f'{I}/foo/'
    write(k, foo + 'set_ftrace_filter', "'fib:traceoff:1'")
    write(k, foo + 'set_ftrace_filter',
          "'fib:enable_event:sched:sched_switch:1'", append=True)
    k.check(cat(k, foo + 'set_ftrace_filter'),
            '#### all functions enabled ####\n'
            'fib:enable_event:sched:sched_switch:count=1\n'
            'fib:traceoff:count=1\n')
    k.check(cat(k, 'set_ftrace_filter'), '#### all functions enabled ####\n')
    k.check(cat(k, foo + 'events/sched/sched_switch/enable'), '0*\n')
    k.check(cat(k, 'events/sched/sched_switch/enable'), '0\n')
    k.check(k.run('run fib 2'), 'fib(2) = 1\n')
    k.check(cat(k, foo + 'tracing_on'), '0\n')
    k.check(cat(k, 'tracing_on'), '1\n')
    k.check(cat(k, foo + 'events/sched/sched_switch/enable'), '1*\n')
    k.check(cat(k, foo + 'set_ftrace_filter'),
            '#### all functions enabled ####\n'
            'fib:enable_event:sched:sched_switch:count=0\n'
            'fib:traceoff:count=0\n')
    k.check(cat(k, 'enabled_functions'), 'fib (2)      \n')
    k.check(rmdir(k, 'foo'), '')
    k.check(cat(k, 'enabled_functions'), '')
    k.check(k.run('patchsite sched_switch | head -n 1'),
            'sched_switch: tracepoint, key disabled, 0 probes\n')
    clean(k)
