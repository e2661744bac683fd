"""test_write_rules.py: how writes to the filter and pid files behave,
as Linux 6.1's do (shared/reference/linux-6.1: q-h-write-rules, l-errors,
k-filter-commands): `>` truncates at open, words before a bad word
stay, a word without a newline is applied at close, duplicate probes,
`:mod:`, the dump commands, pid numbers in any base, ftrace_enabled,
and the files' modes."""

import re

from tracing import T, EINVAL, reset, cat, write

SMP = 1

PRINTK_TIME = re.compile(r'^\[ *\d+\.\d{6}\] ', re.M)
ALL = '#### all functions enabled ####\n'
NONE = '#### no functions disabled ####\n'


def clean(k):
    """reset(), and no probes left by a test that failed half-way."""
    reset(k)
    for line in cat(k, 'set_ftrace_filter').splitlines():
        func, cmd, count = (line.split(':') + ['', ''])[:3]
        if cmd and cmd != 'mod':
            arg = f'!{func}:{cmd}' + (':0' if count.startswith('count') else '')
            write(k, 'set_ftrace_filter', f"'{arg}'", append=True)
    write(k, 'set_ftrace_filter', '')


def test_truncate_then_fail(k):
    """`>` empties the file at open, so a failed write leaves it empty;
    `>>` keeps what was there."""
    clean(k)
    for name, empty in (('set_ftrace_filter', ALL),
                        ('set_ftrace_notrace', NONE),
                        ('set_graph_function', ALL),
                        ('stack_trace_filter', ALL)):
        k.check(write(k, name, 'fib'), '')
        k.check(write(k, name, 'nosuch'), EINVAL)
        k.check(cat(k, name), empty)
        k.check(write(k, name, 'fib'), '')
        k.check(write(k, name, 'nosuch', append=True), EINVAL)
        k.check(cat(k, name), 'fib\n')
        k.check(write(k, name, ''), '')
    k.check(write(k, 'set_ftrace_pid', '1'), '')
    k.check(write(k, 'set_ftrace_pid', 'abc'), EINVAL)
    k.check(cat(k, 'set_ftrace_pid'), 'no pid\n')
    k.check(write(k, 'set_ftrace_pid', '1'), '')
    k.check(write(k, 'set_ftrace_pid', 'abc', append=True), EINVAL)
    k.check(cat(k, 'set_ftrace_pid'), '1\n')
    reset(k)


def test_words_before_bad_word_stay(k):
    clean(k)
    k.check(write(k, 'set_ftrace_filter', "'fib nosuch fib_main'"), EINVAL)
    k.check(cat(k, 'set_ftrace_filter'), 'fib\n')
    k.check(write(k, 'set_ftrace_notrace', "'fib nosuch'"), EINVAL)
    k.check(cat(k, 'set_ftrace_notrace'), 'fib\n')
    reset(k)


def test_last_word_without_newline(k):
    """A word at the end of the data is applied at close, where a bad
    one cannot fail the write (l-errors: write() = 20, close() = 0)."""
    clean(k)
    k.check(k.run(f"echo -n 'fib nosuch' > {T}/set_ftrace_filter"), '')
    k.check(cat(k, 'set_ftrace_filter'), 'fib\n')
    k.check(k.run(f"echo -n 'nosuch' > {T}/set_ftrace_filter"), '')
    k.check(cat(k, 'set_ftrace_filter'), ALL)
    k.check(k.run(f"echo -n 'fib_main' >> {T}/set_ftrace_filter"), '')
    k.check(cat(k, 'set_ftrace_filter'), 'fib_main\n')
    reset(k)


def test_duplicate_probe_refused(k):
    """A probe already on every function its glob names adds nothing:
    Linux 6.1's register_ftrace_function_probe says EINVAL."""
    clean(k)
    k.check(write(k, 'set_ftrace_filter', 'fib:traceoff'), '')
    k.check(write(k, 'set_ftrace_filter', 'fib:traceoff', append=True),
            EINVAL)
    k.check(write(k, 'set_ftrace_filter', 'fib:traceoff:3', append=True),
            '')
    k.check(write(k, 'set_ftrace_filter', 'fib:traceoff:5', append=True),
            EINVAL)
    k.check(write(k, 'set_ftrace_filter', 'fib*:traceoff', append=True),
            '')
    k.check(cat(k, 'set_ftrace_filter'),
            ALL + 'fib:traceoff:count=3\n'
            'fib:traceoff:unlimited\nfib_main:traceoff:unlimited\n')
    for cmd in ('!fib:traceoff:0', '!fib*:traceoff'):
        k.check(write(k, 'set_ftrace_filter', cmd, append=True), '')
    k.check(cat(k, 'set_ftrace_filter'), ALL)
    reset(k)


def test_mod_cached(k):
    """With no modules, `FUNC:mod:MOD` is kept for a module that never
    loads, listed newest first, and `>` or `!FUNC:mod:MOD` drops it."""
    clean(k)
    k.check(write(k, 'set_ftrace_filter', "'*:mod:foo'"), '')
    k.check(write(k, 'set_ftrace_filter', 'fib:mod:bar', append=True), '')
    k.check(write(k, 'set_ftrace_filter', 'fib_main', append=True), '')
    k.check(cat(k, 'set_ftrace_filter'),
            'fib_main\nfib:mod:bar\n*:mod:foo\n')
    k.check(write(k, 'set_ftrace_filter', "'!*:mod:bar'", append=True), '')
    k.check(cat(k, 'set_ftrace_filter'), 'fib_main\n*:mod:foo\n')
    k.check(write(k, 'set_ftrace_filter', "'!fib:mod:baz'", append=True),
            EINVAL)
    k.check(write(k, 'set_ftrace_notrace', 'fib:mod:foo'), '')
    k.check(cat(k, 'set_ftrace_notrace'), NONE + 'fib:mod:foo\n')
    k.check(write(k, 'set_ftrace_filter', ''), '')
    k.check(cat(k, 'set_ftrace_filter'), ALL)
    k.check(write(k, 'set_graph_function', 'fib:mod:foo'), EINVAL)
    reset(k)


def test_dump_commands(k):
    """FUNC:dump prints the whole buffer on the console once, as
    ftrace_dump() does, and leaves tracing off; cpudump the CPU's own."""
    clean(k)
    write(k, 'set_ftrace_filter', 'fib')
    write(k, 'current_tracer', 'function')
    k.run('run fib 3')
    k.check(write(k, 'set_ftrace_filter', 'fib_main:dump', append=True), '')
    k.check(cat(k, 'set_ftrace_filter'),
            'fib\nfib_main:dump:count=1\n')
    out = PRINTK_TIME.sub('', k.run('run fib 3'))
    lines = out.splitlines()
    assert lines[0] == 'Dumping ftrace buffer:', out
    assert lines[1] == '---------------------------------', out
    assert lines[-2] == '---------------------------------', out
    assert lines[-1] == 'fib(3) = 2', out
    events = lines[2:-2]
    assert len(events) == 5, out
    assert events[0].endswith(': fib <-fib_main'), out
    assert all(l.endswith(': fib <-fib') for l in events[1:]), out
    k.check(cat(k, 'tracing_on'), '0\n')
    k.check(cat(k, 'set_ftrace_filter'),
            'fib\nfib_main:dump:count=0\n')
    write(k, 'tracing_on', '1')
    k.check(k.run('run fib 3'), 'fib(3) = 2\n')
    k.check(write(k, 'set_ftrace_filter', '!fib_main:dump', append=True), '')
    k.check(write(k, 'set_ftrace_filter', 'fib_main:cpudump', append=True),
            '')
    k.check(write(k, 'trace', ''), '')
    out = PRINTK_TIME.sub('', k.run('run fib 1'))
    k.check(out, 'Dumping ftrace buffer:\n   (ftrace buffer empty)\n'
            'fib(1) = 1\n')
    k.check(cat(k, 'set_ftrace_filter'), 'fib\nfib_main:cpudump:count=0\n')
    reset(k)


def test_pid_base_0(k):
    clean(k)
    k.check(write(k, 'set_ftrace_pid', '0x10'), '')
    k.check(cat(k, 'set_ftrace_pid'), '16\n')
    k.check(write(k, 'set_ftrace_pid', '010', append=True), '')
    k.check(cat(k, 'set_ftrace_pid'), '8\n16\n')
    k.check(write(k, 'set_ftrace_pid', "'1 abc'"), EINVAL)
    k.check(cat(k, 'set_ftrace_pid'), 'no pid\n')
    k.check(write(k, 'set_ftrace_pid', '0x'), EINVAL)
    reset(k)


def test_glob_caret_is_a_member(k):
    """`[^s]*` is `^` or `s`, then anything (q-h-write-rules)."""
    clean(k)
    k.check(write(k, 'set_ftrace_filter', "'[^s]*'"), '')
    want = [f for f in cat(k, 'available_filter_functions').splitlines()
            if f[0] in 's^']
    assert want, 'no function starts with s'
    k.check(cat(k, 'set_ftrace_filter'), ''.join(f + '\n' for f in want))
    k.check(write(k, 'set_ftrace_filter', "'[!f]ib'"), EINVAL)
    reset(k)


def test_ftrace_enabled_keeps_any_integer(k):
    path = '/proc/sys/kernel/ftrace_enabled'
    k.check(k.run(f'echo 5 > {path}'), '')
    k.check(k.run(f'cat {path}'), '5\n')
    k.check(k.run(f'echo -3 > {path}'), '')
    k.check(k.run(f'cat {path}'), '-3\n')
    k.check(k.run(f'echo x > {path}'), EINVAL)
    k.check(k.run(f'cat {path}'), '-3\n')
    k.check(k.run(f'echo 1 > {path}'), '')
    k.check(k.run(f'cat {path}'), '1\n')


def test_modes_and_trace_pipe_write(k):
    """Linux 6.1's modes (TRACE_MODE_READ 0440, TRACE_MODE_WRITE 0640,
    0220 for trace_marker); root opens any of them, and a file with no
    write operation fails the write, not the open."""
    out = k.run(f'ls -l {T}')
    modes = {l.split()[-1]: l.split()[0] for l in out.splitlines()}
    for name, mode in (('trace_pipe', '-r--r-----'),
                       ('available_tracers', '-r--r-----'),
                       ('README', '-r--r-----'),
                       ('available_filter_functions', '-r--r-----'),
                       ('enabled_functions', '-r--r-----'),
                       ('buffer_total_size_kb', '-r--r-----'),
                       ('current_tracer', '-rw-r-----'),
                       ('trace', '-rw-r-----'),
                       ('set_ftrace_filter', '-rw-r-----'),
                       ('set_ftrace_pid', '-rw-r-----'),
                       ('tracing_on', '-rw-r-----'),
                       ('trace_marker', '--w--w----'),
                       ('options', 'drwxr-x---'),
                       ('per_cpu', 'drwxr-x---')):
        k.check(modes.get(name, 'missing') + ' ' + name, mode + ' ' + name)
    k.check(write(k, 'trace_pipe', 'x'), EINVAL)
    k.check(write(k, 'available_tracers', 'x'), EINVAL)
    k.check(k.run(f'cat {T}/trace_marker'),
            'cat: /sys/kernel/tracing/trace_marker: Invalid argument\n')
