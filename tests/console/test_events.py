"""test_events.py: trace events as a user sees them, held against Linux
6.1's output (shared/reference/linux-6.1: q-a, q-b, q-c): the files of
events/, the formats, sched_switch lines in the trace, set_event,
filters with error_log, triggers, the enable_event/disable_event
probes, events as comments under function_graph, and patchsite on a
tracepoint.

Where rvftrace differs from Linux, the test says so:
- each event has an `id` file (Linux has one only with PERF_EVENTS);
- preempt-depth shows the run-queue lock's 1 where Linux's PREEMPT_NONE
  build counts nothing;
- `ls` sorts names, where Linux's readdir lists them newest first."""

import re

from tracing import T, EINVAL, reset, cat, write, trace_lines

ENODEV = 'sh: write error: No such device\n'
EV = 'events/sched/sched_switch'

# Linux 6.1's common fields (q-a), as trace_pipe_raw emits them.
COMMON = ('\tfield:unsigned short common_type;\toffset:0;\tsize:2;'
          '\tsigned:0;\n'
          '\tfield:unsigned char common_flags;\toffset:2;\tsize:1;'
          '\tsigned:0;\n'
          '\tfield:unsigned char common_preempt_count;\toffset:3;'
          '\tsize:1;\tsigned:0;\n'
          '\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n')

# Linux 6.1's events/ftrace formats (q-a), from the event's fields on.
CTX_FIELDS = (
    '\tfield:unsigned int prev_pid;\toffset:8;\tsize:4;\tsigned:0;\n'
    '\tfield:unsigned int next_pid;\toffset:12;\tsize:4;\tsigned:0;\n'
    '\tfield:unsigned int next_cpu;\toffset:16;\tsize:4;\tsigned:0;\n'
    '\tfield:unsigned char prev_prio;\toffset:20;\tsize:1;\tsigned:0;\n'
    '\tfield:unsigned char prev_state;\toffset:21;\tsize:1;\tsigned:0;\n'
    '\tfield:unsigned char next_prio;\toffset:22;\tsize:1;\tsigned:0;\n'
    '\tfield:unsigned char next_state;\toffset:23;\tsize:1;\tsigned:0;\n')
CTX_ARGS = (', REC->prev_pid, REC->prev_prio, REC->prev_state, '
            'REC->next_pid, REC->next_prio, REC->next_state, REC->next_cpu\n')

FTRACE_FORMATS = {
    'context_switch': (
        2, CTX_FIELDS + '\nprint fmt: "%u:%u:%u  ==> %u:%u:%u [%03u]"'
        + CTX_ARGS),
    'wakeup': (
        3, CTX_FIELDS + '\nprint fmt: "%u:%u:%u  ==+ %u:%u:%u [%03u]"'
        + CTX_ARGS),
    'function': (
        1, '\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n'
        '\tfield:unsigned long parent_ip;\toffset:16;\tsize:8;\tsigned:0;\n'
        '\nprint fmt: " %ps <-- %ps", (void *)REC->ip, '
        '(void *)REC->parent_ip\n'),
    'funcgraph_entry': (
        11, '\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n'
        '\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n'
        '\nprint fmt: "--> %ps (%d)", (void *)REC->func, REC->depth\n'),
    'funcgraph_exit': (
        10, '\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n'
        '\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n'
        '\tfield:unsigned int overrun;\toffset:20;\tsize:4;\tsigned:0;\n'
        '\tfield:unsigned long long calltime;\toffset:24;\tsize:8;'
        '\tsigned:0;\n'
        '\tfield:unsigned long long rettime;\toffset:32;\tsize:8;'
        '\tsigned:0;\n'
        '\nprint fmt: "<-- %ps (%d) (start: %llx  end: %llx) over: %d", '
        '(void *)REC->func, REC->depth, REC->calltime, REC->rettime, '
        'REC->depth\n'),
    'bprint': (
        6, '\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n'
        '\tfield:const char * fmt;\toffset:16;\tsize:8;\tsigned:0;\n'
        '\tfield:u32 buf[];\toffset:24;\tsize:0;\tsigned:0;\n'
        '\nprint fmt: "%ps: %s", (void *)REC->ip, REC->fmt\n'),
    'print': (
        5, '\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n'
        '\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:0;\n'
        '\nprint fmt: "%ps: %s", (void *)REC->ip, REC->buf\n'),
}

# Linux 6.1's (q-a), from the event's own fields on.
SCHED_SWITCH_FIELDS = (
    '\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n'
    '\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n'
    '\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n'
    '\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n'
    '\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n'
    '\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n'
    '\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n'
    '\n'
    'print fmt: "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> '
    'next_comm=%s next_pid=%d next_prio=%d", REC->prev_comm, REC->prev_pid, '
    'REC->prev_prio, (REC->prev_state & ((((0x00000000 | 0x00000001 | '
    '0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | '
    '0x00000040) + 1) << 1) - 1)) ? __print_flags(REC->prev_state & '
    '((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | '
    '0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1), "|", '
    '{ 0x00000001, "S" }, { 0x00000002, "D" }, { 0x00000004, "T" }, '
    '{ 0x00000008, "t" }, { 0x00000010, "X" }, { 0x00000020, "Z" }, '
    '{ 0x00000040, "P" }, { 0x00000080, "I" }) : "R", REC->prev_state & '
    '(((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | '
    '0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) ? "+" : "", '
    'REC->next_comm, REC->next_pid, REC->next_prio\n')

SCHED_WAKEUP_FIELDS = (
    '\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n'
    '\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n'
    '\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n'
    '\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n'
    '\n'
    'print fmt: "comm=%s pid=%d prio=%d target_cpu=%03d", REC->comm, '
    'REC->pid, REC->prio, REC->target_cpu\n')

IRQ_ENTRY_FIELDS = (
    '\tfield:int irq;\toffset:8;\tsize:4;\tsigned:1;\n'
    '\tfield:__data_loc char[] name;\toffset:12;\tsize:4;\tsigned:0;\n'
    '\n'
    'print fmt: "irq=%d name=%s", REC->irq, __get_str(name)\n')

HEADER_PAGE = (
    '\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n'
    '\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n'
    '\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n'
    '\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n')

HEADER_EVENT = (
    '# compressed entry header\n'
    '\ttype_len    :    5 bits\n'
    '\ttime_delta  :   27 bits\n'
    '\tarray       :   32 bits\n'
    '\n'
    '\tpadding     : type == 29\n'
    '\ttime_extend : type == 30\n'
    '\ttime_stamp : type == 31\n'
    '\tdata max type_len  == 28\n')

# Linux's lists snapshot too.
NO_TRIGGERS = ('# Available triggers:\n'
               '# traceon traceoff snapshot stacktrace enable_event '
               'disable_event\n')

GLOBAL_FILTER = (
    '### global filter ###\n'
    '# Use this to set filters for multiple events.\n'
    '# Only events with the given fields will be affected.\n'
    '# If no events are modified, an error message will be displayed here\n')

AVAILABLE = ('ipi:ipi_exit\nipi:ipi_entry\nipi:ipi_raise\n'
             'irq:irq_handler_exit\nirq:irq_handler_entry\n'
             'sched:sched_process_fork\nsched:sched_process_exit\n'
             'sched:sched_process_free\nsched:sched_migrate_task\n'
             'sched:sched_switch\nsched:sched_wakeup_new\n'
             'sched:sched_wakeup\nsched:sched_waking\n'
             'timer:hrtimer_expire_exit\ntimer:hrtimer_expire_entry\n'
             'power:cpu_idle\n')

# Linux's line; preempt-depth is the run-queue lock's 1 here.
SWITCH = re.compile(
    r'^ +(\S+)-(\d+) +\[\d{3}\] d\.\.1\. +\d+\.\d{6}: sched_switch: '
    r'prev_comm=(\S+) prev_pid=(\d+) prev_prio=120 '
    r'prev_state=(R\+?|S|Z) ==> next_comm=(\S+) next_pid=(\d+) '
    r'next_prio=120$')


def reset_events(k):
    for name in ('set_event', 'set_ftrace_filter'):
        write(k, name, '')
    for name in ('filter', 'trigger'):
        k.run(f"echo '!traceoff' >> {T}/{EV}/{name}"
              if name == 'trigger' else f'echo 0 > {T}/{EV}/filter')
    write(k, 'error_log', '')
    reset(k)


def switches(k):
    """The trace's lines, each a sched_switch: a 4-CPU pingpong writes
    thousands, which take a while to print on a loaded host."""
    lines = [l for l in k.run(f'cat {T}/trace', timeout=180).splitlines()
             if not l.startswith('#')]
    for l in lines:
        assert SWITCH.match(l), l
    return [SWITCH.match(l) for l in lines]


def test_defaults(k):
    reset_events(k)
    k.check(k.run(f'ls {T}/{EV}'), 'enable\nfilter\nformat\nid\ntrigger\n')
    k.check(cat(k, f'{EV}/enable'), '0\n')
    k.check(cat(k, f'{EV}/filter'), 'none\n')
    k.check(cat(k, f'{EV}/trigger'), NO_TRIGGERS)
    k.check(cat(k, 'events/sched/enable'), '0\n')
    k.check(cat(k, 'events/enable'), '0\n')
    k.check(cat(k, 'events/sched/filter'), GLOBAL_FILTER)
    k.check(cat(k, 'events/header_page'), HEADER_PAGE)
    k.check(cat(k, 'events/header_event'), HEADER_EVENT)
    k.check(cat(k, 'available_events'), AVAILABLE)
    k.check(cat(k, 'set_event'), '')
    k.check(cat(k, 'error_log'), '')


def format_of(k, event):
    text = cat(k, f'events/{event}/format')
    name, ident, fmt, rest = text.split('\n', 3)
    assert name == f'name: {event.split("/")[1]}' and fmt == 'format:'
    assert re.fullmatch(r'ID: \d+', ident), ident
    assert cat(k, f'events/{event}/id') == ident[4:] + '\n'
    assert rest.startswith(COMMON), rest
    return rest[len(COMMON):]


def test_ftrace_formats(k):
    """The tracers' own records: a format and an id, no enable (as Linux,
    which has no id without PERF_EVENTS); Linux's entries byte for byte,
    as trace_pipe_raw converts rvftrace's compact records into them."""
    k.check(k.run(f'ls {T}/events/ftrace'), 'bprint\ncontext_switch\n'
            'funcgraph_entry\nfuncgraph_exit\nfunction\nkernel_stack\n'
            'print\nraw_data\nwakeup\n')
    k.check(k.run(f'ls {T}/events/ftrace/function'), 'format\nid\n')
    for name, (ident, fields) in FTRACE_FORMATS.items():
        k.check(cat(k, f'events/ftrace/{name}/format'),
                f'name: {name}\nID: {ident}\nformat:\n' + COMMON + fields)
    assert 'ftrace:' not in cat(k, 'available_events')


def test_common_field_filters(k):
    """Filters on Linux's four common fields: the switches from the shell
    (pid 1, irqs off, the run-queue lock's preempt depth 1: `d..1.`)
    pass the first filter, and only they; none passes the second."""
    reset_events(k)
    ident = cat(k, f'{EV}/id').strip()
    first = (f'common_pid == 1 && common_flags & 1 && '
             f'common_preempt_count == 1 && common_type == {ident}')
    write(k, f'{EV}/filter', f"'{first}'")
    write(k, f'{EV}/enable', '1')
    k.run('run fib 3')
    write(k, f'{EV}/enable', '0')
    k.check(cat(k, f'{EV}/filter'), first + '\n')
    found = switches(k)
    assert found and all(m[2] == '1' for m in found), found
    reset(k)
    write(k, f'{EV}/filter', "'common_preempt_count == 0 || common_flags & 4'")
    write(k, f'{EV}/enable', '1')
    k.run('run fib 3')
    write(k, f'{EV}/enable', '0')
    assert not switches(k)
    write(k, f'{EV}/filter', '0')


def test_formats_match_linux(k):
    k.check(format_of(k, 'sched/sched_switch'), SCHED_SWITCH_FIELDS)
    k.check(format_of(k, 'sched/sched_wakeup'), SCHED_WAKEUP_FIELDS)
    k.check(format_of(k, 'irq/irq_handler_entry'), IRQ_ENTRY_FIELDS)


def test_pingpong_switches(k):
    """Done when: each switch of `run pingpong` in Linux's line format."""
    reset_events(k)
    write(k, f'{EV}/enable', '1')
    k.check(cat(k, f'{EV}/enable'), '1\n')
    k.check(cat(k, 'set_event'), 'sched:sched_switch\n')
    k.run('run pingpong', timeout=120)
    write(k, f'{EV}/enable', '0')
    found = switches(k)
    # On one CPU every turn is a switch; on more, a turn handed to a
    # task still running on its own CPU needs none, as often as timing
    # allows.
    need = 1000 if k.smp == 1 else 1
    for comm in ('ping', 'pong'):
        n = sum(m[6] == comm for m in found)
        assert n >= need, f'{n} switches to {comm}'
    reset_events(k)


def test_sched_enable_mixed(k):
    reset_events(k)
    write(k, f'{EV}/enable', '1')
    write(k, 'events/sched/sched_wakeup/enable', '1')
    k.check(cat(k, 'set_event'), 'sched:sched_switch\nsched:sched_wakeup\n')
    k.check(cat(k, 'events/sched/enable'), 'X\n')
    k.check(cat(k, 'events/enable'), 'X\n')
    write(k, 'events/sched/enable', '1')
    k.check(cat(k, 'events/sched/enable'), '1\n')
    k.check(write(k, 'events/sched/enable', '2'), EINVAL)
    write(k, 'events/sched/enable', '0')
    k.check(cat(k, 'events/enable'), '0\n')
    k.check(cat(k, 'set_event'), '')


def test_filter_glob(k):
    """Done when: next_comm ~ "fib*" keeps only the switches to fib."""
    reset_events(k)
    write(k, f'{EV}/filter', '\'next_comm ~ "fib*"\'')
    k.check(cat(k, f'{EV}/filter'), 'next_comm ~ "fib*"\n')
    write(k, f'{EV}/enable', '1')
    k.run('run fib 3')
    write(k, f'{EV}/enable', '0')
    found = switches(k)
    assert found and all(m[6] == 'fib' for m in found), found
    reset_events(k)


def test_filter_numbers(k):
    """Each operator keeps what it says, and only that."""
    checks = (('next_pid == 0', lambda p: p == 0),
              ('next_pid != 0', lambda p: p != 0),
              ('next_pid < 1', lambda p: p < 1),
              ('next_pid <= 1', lambda p: p <= 1),
              ('next_pid > 1', lambda p: p > 1),
              ('next_pid >= 1', lambda p: p >= 1),
              ('next_pid & 1', lambda p: p & 1),
              ('!(next_pid == 0) && (next_pid == 1 || prev_pid == 1)',
               None))
    for expr, keep in checks:
        reset_events(k)
        write(k, f'{EV}/filter', f"'{expr}'")
        k.check(cat(k, f'{EV}/filter'), expr + '\n')
        write(k, f'{EV}/enable', '1')
        k.run('run fib 2')
        write(k, f'{EV}/enable', '0')
        found = switches(k)
        assert found, expr
        for m in found:
            nxt, prv = int(m[7]), int(m[4])
            ok = keep(nxt) if keep else nxt != 0 and (nxt == 1 or prv == 1)
            assert ok, (expr, m[0])
    reset_events(k)


def test_filter_errors(k):
    reset_events(k)
    k.check(write(k, f'{EV}/filter', "'nosuch == 1'"), EINVAL)
    k.check(cat(k, f'{EV}/filter'),
            'nosuch == 1\n       ^\nparse_error: Field not found\n\n')
    assert re.fullmatch(
        r'\[ +\d+\.\d{6}\] event filter parse error: error: Field not found\n'
        r'  Command: nosuch == 1\n {18}\^\n', cat(k, 'error_log'))
    k.check(write(k, f'{EV}/filter', "'next_comm < 1'"), EINVAL)
    assert cat(k, f'{EV}/filter').endswith(
        'parse_error: Illegal operation for field type\n\n')
    k.check(write(k, f'{EV}/filter', "'(next_pid == 1'"), EINVAL)
    assert cat(k, f'{EV}/filter').endswith("parse_error: Too many '('\n\n")
    k.check(write(k, f'{EV}/filter', "'next_pid == x'"), EINVAL)
    k.check(write(k, f'{EV}/filter', "'next_comm == \"fib'"), EINVAL)
    write(k, f'{EV}/filter', "'prev_pid == 1 && next_prio < 200'")
    k.check(cat(k, f'{EV}/filter'), 'prev_pid == 1 && next_prio < 200\n')
    write(k, f'{EV}/filter', '0')
    k.check(cat(k, f'{EV}/filter'), 'none\n')
    write(k, 'error_log', '')
    k.check(cat(k, 'error_log'), '')


def test_trigger_traceoff_count(k):
    reset_events(k)
    write(k, f'{EV}/trigger', '\'traceoff:1 if next_comm == "fib"\'')
    k.check(cat(k, f'{EV}/trigger'),
            'traceoff:count=1 if next_comm == "fib"\n')
    k.check(cat(k, f'{EV}/enable'), '0*\n')
    k.run('run fib 2')
    k.check(cat(k, f'{EV}/trigger'),
            'traceoff:count=0 if next_comm == "fib"\n')
    k.check(cat(k, 'tracing_on'), '0\n')
    write(k, f'{EV}/trigger', '\'!traceoff\'')
    k.check(cat(k, f'{EV}/trigger'), NO_TRIGGERS)
    k.check(cat(k, f'{EV}/enable'), '0\n')
    write(k, 'tracing_on', '1')
    write(k, f'{EV}/trigger', 'traceoff')
    k.check(cat(k, f'{EV}/trigger'), 'traceoff:unlimited\n')
    k.check(write(k, f'{EV}/trigger', 'traceoff'),
            'sh: write error: File exists\n')
    write(k, f'{EV}/trigger', '\'!traceoff\'', append=True)
    k.check(cat(k, f'{EV}/trigger'), NO_TRIGGERS)
    k.check(write(k, f'{EV}/trigger', 'nosuch'), EINVAL)
    write(k, 'tracing_on', '1')


def stacks(k):
    """Each <stack trace> event of the trace: the list of its callers."""
    out, lines = [], trace_lines(k)
    for i, line in enumerate(lines):
        if line.endswith(': <stack trace>'):
            out.append([])
            for entry in lines[i + 1:]:
                if not entry.startswith(' => '):
                    break
                out[-1].append(entry[4:])
    return out


def test_event_stacks(k):
    """The stacktrace trigger and the stacktrace option record the stack
    from the function whose tracepoint fired up, as Linux's do (not the
    tracer's own frames)."""
    reset_events(k)
    write(k, f'{EV}/trigger', 'stacktrace:2')
    write(k, f'{EV}/enable', '1')
    k.run('run fib 2')
    write(k, f'{EV}/enable', '0')
    k.check(cat(k, f'{EV}/trigger'), 'stacktrace:count=0\n')
    found = stacks(k)
    assert len(found) == 2, found
    for callers in found:
        assert callers[0] == '__schedule' and len(callers) >= 3, callers
    write(k, f'{EV}/trigger', "'!stacktrace'")
    write(k, 'trace', '')
    write(k, 'options/stacktrace', '1')
    write(k, f'{EV}/enable', '1')
    k.run('run fib 2')
    write(k, f'{EV}/enable', '0')
    write(k, 'options/stacktrace', '0')
    lines = trace_lines(k)
    switched = [i for i, line in enumerate(lines) if ': sched_switch: ' in line]
    assert switched, lines[:5]
    for i in switched:
        assert lines[i + 1].endswith(': <stack trace>'), lines[i:i + 3]
        assert lines[i + 2] == ' => __schedule', lines[i:i + 3]
    reset_events(k)


def test_enable_event_probe(k):
    """Done when: fib:enable_event:sched:sched_switch:1 turns switch
    events on at fib's first call (q-b's sys_getppid steps)."""
    reset_events(k)
    write(k, 'set_ftrace_filter', "'fib:enable_event:sched:sched_switch:1'")
    k.check(cat(k, 'set_ftrace_filter'),
            '#### all functions enabled ####\n'
            'fib:enable_event:sched:sched_switch:count=1\n')
    k.check(cat(k, f'{EV}/enable'), '0*\n')
    k.check(cat(k, 'set_event'), 'sched:sched_switch\n')
    write(k, 'trace', '')
    k.run('run fib 3')
    k.check(cat(k, f'{EV}/enable'), '1*\n')
    k.check(cat(k, 'set_ftrace_filter'),
            '#### all functions enabled ####\n'
            'fib:enable_event:sched:sched_switch:count=0\n')
    first = switches(k)[0]
    assert first[1] == 'fib' and first[3] == 'fib', first[0]
    k.check(write(k, 'set_ftrace_filter',
                  "'!fib:enable_event:sched:sched_switch'", append=True),
            ENODEV)
    write(k, 'set_ftrace_filter', "'!fib:enable_event:sched:sched_switch:0'",
          append=True)
    k.check(cat(k, 'set_ftrace_filter'), '#### all functions enabled ####\n')
    k.check(cat(k, f'{EV}/enable'), '1\n')
    write(k, 'set_ftrace_filter', "'fib:disable_event:sched:sched_switch'")
    k.check(cat(k, 'set_ftrace_filter'),
            '#### all functions enabled ####\n'
            'fib:disable_event:sched:sched_switch:unlimited\n')
    k.check(cat(k, f'{EV}/enable'), '1*\n')
    k.run('run fib 1')
    k.check(cat(k, f'{EV}/enable'), '0*\n')
    write(k, 'set_ftrace_filter', "'!fib:disable_event:sched:sched_switch'",
          append=True)
    k.check(cat(k, f'{EV}/enable'), '0\n')
    k.check(cat(k, 'set_event'), '')
    reset_events(k)


def test_set_event(k):
    reset_events(k)
    write(k, 'set_event', 'sched:sched_switch')
    k.check(cat(k, 'set_event'), 'sched:sched_switch\n')
    write(k, 'set_event', "'irq:*'", append=True)
    k.check(cat(k, 'set_event'), 'irq:irq_handler_exit\n'
            'irq:irq_handler_entry\nsched:sched_switch\n')
    write(k, 'set_event', "'!irq:*'", append=True)
    k.check(cat(k, 'set_event'), 'sched:sched_switch\n')
    write(k, 'set_event', 'ipi:', append=True)
    k.check(cat(k, 'set_event'), 'ipi:ipi_exit\nipi:ipi_entry\n'
            'ipi:ipi_raise\nsched:sched_switch\n')
    write(k, 'set_event', 'sched_wakeup')
    k.check(cat(k, 'set_event'), 'sched:sched_wakeup\n')
    k.check(write(k, 'set_event', 'nosuch_event'), EINVAL)
    k.check(cat(k, 'set_event'), '')
    write(k, 'set_event', "'*:*'")
    k.check(cat(k, 'set_event'), AVAILABLE)
    write(k, 'set_event', '')
    k.check(cat(k, 'set_event'), '')


def test_graph_comments(k):
    """Under function_graph an event is a comment in the call tree (q-c)."""
    reset_events(k)
    write(k, 'set_graph_function', 'fib_main')
    write(k, f'{EV}/enable', '1')
    write(k, 'current_tracer', 'function_graph')
    write(k, 'trace', '')
    k.run('run fib 2')
    write(k, f'{EV}/enable', '0')
    text = cat(k, 'trace')
    write(k, 'set_graph_function', '')
    reset_events(k)
    comments = re.findall(r'^ \d\) +\|  /\* (sched_switch: .*) \*/$', text,
                          re.M)
    assert comments, text
    assert any('next_comm=fib ' in c for c in comments), comments
    assert re.search(r'^ \d\) +\|  fib_main\(\) \{$', text, re.M), text


def test_patchsite_tracepoint(k):
    reset_events(k)
    off = k.run('patchsite sched_switch')
    assert re.fullmatch(
        r'sched_switch: tracepoint, key disabled, 0 probes\n'
        r'  site:   0x[0-9a-f]+ \(__schedule\+0x[0-9a-f]+/0x[0-9a-f]+\)\n'
        r'  bytes:  01 00\n  insn:   nop\n', off), off
    write(k, f'{EV}/enable', '1')
    on = k.run('patchsite sched_switch')
    write(k, f'{EV}/enable', '0')
    assert re.fullmatch(
        r'sched_switch: tracepoint, key enabled, 1 probe\n'
        r'  site:   0x[0-9a-f]+ \(__schedule\+0x[0-9a-f]+/0x[0-9a-f]+\)\n'
        r'  bytes:  [0-9a-f]{2} [0-9a-f]{2}\n'
        r'  insn:   j 0x[0-9a-f]+ <__schedule\+0x[0-9a-f]+/0x[0-9a-f]+>\n',
        on), on
    k.check(k.run('patchsite sched_switch'), off)


def test_set_event_pid_and_event_fork(k):
    """set_event_pid keeps the listed tasks' events; with event-fork
    their children join the list, and leave it once reaped;
    set_event_notrace_pid drops them."""
    reset_events(k)
    write(k, 'set_event_pid', '1')
    k.check(cat(k, 'set_event_pid'), '1\n')
    write(k, f'{EV}/enable', '1')
    k.run('run fib 2')
    write(k, f'{EV}/enable', '0')
    found = switches(k)
    assert found and all(m[2] == '1' for m in found), found
    write(k, 'options/event-fork', '1')
    write(k, 'trace', '')
    write(k, f'{EV}/enable', '1')
    k.run('run fib 2')
    write(k, f'{EV}/enable', '0')
    write(k, 'options/event-fork', '0')
    k.check(cat(k, 'set_event_pid'), '1\n')
    found = switches(k)
    fibs = {m[2] for m in found if m[1] == 'fib'}
    assert len(fibs) == 1 and '1' not in fibs, found
    assert all(m[2] in fibs | {'1'} for m in found), found
    write(k, 'set_event_pid', '')
    k.check(cat(k, 'set_event_pid'), '')
    write(k, 'set_event_notrace_pid', '1')
    write(k, 'set_event_notrace_pid', '7', append=True)
    k.check(cat(k, 'set_event_notrace_pid'), '1\n7\n')
    k.check(write(k, 'set_event_notrace_pid', 'abc'), EINVAL)
    k.check(cat(k, 'set_event_notrace_pid'), '1\n7\n')
    write(k, 'trace', '')
    write(k, f'{EV}/enable', '1')
    k.run('run fib 2')
    write(k, f'{EV}/enable', '0')
    found = switches(k)
    assert found and all(m[2] != '1' for m in found), found
    write(k, 'set_event_notrace_pid', '')
    reset_events(k)


def test_system_filter(k):
    """events/SYS/filter sets the filter of each event that has its
    fields; one that none has is refused, error_log says why."""
    reset_events(k)
    write(k, 'events/sched/filter', "'prev_pid == 1'")
    k.check(cat(k, f'{EV}/filter'), 'prev_pid == 1\n')
    k.check(cat(k, 'events/sched/sched_wakeup/filter'),
            'prev_pid == 1\n         ^\nparse_error: Field not found\n\n')
    k.check(cat(k, 'events/sched/filter'), GLOBAL_FILTER)
    write(k, 'events/sched/filter', "'pid == 1'")
    k.check(cat(k, 'events/sched/sched_wakeup/filter'), 'pid == 1\n')
    k.check(cat(k, f'{EV}/filter'),
            'pid == 1\n    ^\nparse_error: Field not found\n\n')
    k.check(write(k, 'events/sched/filter', "'nosuch == 1'"), EINVAL)
    assert "Couldn't find or set field in one of a subsystem's events" in \
        cat(k, 'error_log')
    write(k, 'events/sched/filter', '0')
    k.check(cat(k, f'{EV}/filter'), 'none\n')
    k.check(cat(k, 'events/sched/sched_wakeup/filter'), 'none\n')
    reset_events(k)
