"""test_shell.py: the shell at the console, typed at as a person would.

Every command and its error messages, the line editor (backspace,
Ctrl-U, Ctrl-C, history, Tab, the line limit, UTF-8, control bytes),
long lines typed ahead, quoting and redirection, and the workloads
`run` starts. All tests share one booted kernel, in order, so each one
sets up the files and directory it needs.
"""

import itertools
import re
import time
import zlib

import harness

SMP = (1, 4)

COMMANDS = ('cat', 'cd', 'cpus', 'dmesg', 'echo', 'free', 'help', 'klp', 'ls',
            'poweroff', 'ps', 'pwd', 'run', 'selftest', 'uptime')
WORKLOADS = ('fib', 'deep', 'sort', 'crc32', 'pingpong', 'klpdemo', 'printk')
LINE_MAX = 4096         # bytes, as a Linux tty's line
TOO_LONG = f'sh: line longer than {LINE_MAX} bytes: not run\n'
CONTROL = 'sh: control character in the line: not run\n'
T = '/sys/kernel/tracing'
UP, DOWN = '\x1b[A', '\x1b[B'
CTRL_C, CTRL_U, DEL, BS = '\x03', '\x15', '\x7f', '\x08'


def prompt_line(k):
    """The last prompt printed, e.g. 'rvftrace:/# '."""
    return re.findall(r'rvftrace:[^\n#]*# ', k.output)[-1]


# --- commands ------------------------------------------------------------

def test_help_lists_every_command(k):
    out = k.run('help')
    names = [line.split()[0] for line in out.splitlines()]
    assert names == sorted(names), f'help is not sorted:\n{out}'
    for cmd in COMMANDS:
        assert cmd in names, f'help does not list {cmd}:\n{out}'


def test_unknown_command(k):
    k.check(k.run('foo'), 'sh: foo: not found\n')
    k.check(k.run('foo bar baz'), 'sh: foo: not found\n')
    k.check(k.run('echo $?'), '127\n')
    k.check(k.run('echo still here'), 'still here\n')


def test_empty_and_blank_lines(k):
    k.check(k.run(''), '')
    k.check(k.run('    '), '')
    k.check(k.run('# a comment'), '')


def test_echo(k):
    k.check(k.run('echo hello   world'), 'hello world\n')
    k.check(k.run('echo'), '\n')
    k.check(k.run('echo -n no newline'), 'no newline')
    k.check(k.run('echo -x'), '-x\n')


def test_quoting(k):
    k.run("echo 'fib*' > /tmp/q")
    k.check(k.run('cat /tmp/q'), 'fib*\n')
    k.check(k.run('''echo "a  b" 'c  d' e\\ \\ f'''), 'a  b c  d e  f\n')
    k.check(k.run('''echo 'it'"'"'s' "say \\"hi\\"" '>' x'''),
            'it\'s say "hi" > x\n')


def test_syntax_errors(k):
    k.check(k.run('echo > ;'), 'sh: syntax error: unexpected ";"\n')
    k.check(k.run('fi'), 'sh: syntax error: unexpected "fi"\n')
    k.check(k.run('echo $?'), '2\n')
    k.check(k.run('echo a | cat'), 'a\n')
    k.check(k.run('echo fine'), 'fine\n')


def test_open_quote_asks_for_more(k):
    """As bash and ash at a terminal: an open quote or if wants more lines
    (the PS2 prompt '> '), and Ctrl-C drops what was typed."""
    k.type('echo "open\n')
    k.expect(r'> $')
    k.check(k.run('quote"'), 'open\nquote\n')
    k.type('if true\n')
    k.expect(r'> $')
    k.type('then echo yes\n')
    k.expect(r'> $')
    k.check(k.run('fi'), 'yes\n')
    k.type('echo never "\n')
    k.expect(r'> $')
    k.type(CTRL_C)
    k.read_until_prompt()
    k.check(k.run('echo after'), 'after\n')


# --- redirection ---------------------------------------------------------

def test_redirect_truncates_and_appends(k):
    k.check(k.run('echo one > /tmp/r'), '')
    k.check(k.run('echo two >> /tmp/r'), '')
    k.check(k.run('echo -n three >>/tmp/r'), '')
    k.check(k.run('cat /tmp/r'), 'one\ntwo\nthree')
    k.run('echo four >/tmp/r')
    k.check(k.run('cat /tmp/r'), 'four\n')
    k.run('> /tmp/r')
    k.check(k.run('cat /tmp/r'), '')


def test_redirect_any_command(k):
    k.run('cd /')
    k.check(k.run('pwd > /tmp/out'), '')
    k.run('ls / >> /tmp/out')
    k.run('run fib 10 >> /tmp/out')
    k.check(k.run('cat /tmp/out'),
            '/\ndev\nproc\nsys\ntmp\nfib(10) = 55\n')
    k.run('help > /tmp/help')
    k.check(k.run('cat /tmp/help'), k.run('help'))


def test_redirect_errors(k):
    k.run('echo x > /tmp/q')
    k.check(k.run('echo x > /nope/f'),
            'sh: /nope/f: No such file or directory\n')
    k.check(k.run('echo x > /tmp'), 'sh: /tmp: Is a directory\n')
    k.check(k.run('echo x > /sys/kernel/tracing/new'),
            'sh: /sys/kernel/tracing/new: Permission denied\n')
    k.check(k.run('echo x > /tmp/q/f'), 'sh: /tmp/q/f: Not a directory\n')
    # Errors go to the console, not to the file; bash opens the file
    # even for a command it cannot find.
    k.check(k.run('cat /nope > /tmp/err'),
            'cat: /nope: No such file or directory\n')
    k.check(k.run('nosuch > /tmp/err2'), 'sh: nosuch: not found\n')
    k.check(k.run('ls /tmp/err /tmp/err2'), '/tmp/err\n/tmp/err2\n')
    k.check(k.run('cat /tmp/err /tmp/err2'), '')


# --- files ---------------------------------------------------------------

def test_cat(k):
    k.run('echo first > /tmp/c1')
    k.run('echo second > /tmp/c2')
    k.check(k.run('cat /tmp/c1 /tmp/c2 /tmp/c1'), 'first\nsecond\nfirst\n')
    k.check(k.run('cat /tmp/c1 /nope /tmp/c2'),
            'first\ncat: /nope: No such file or directory\nsecond\n')


def test_cat_errors(k):
    k.check(k.run('cat /nope'), 'cat: /nope: No such file or directory\n')
    k.check(k.run('cat /tmp'), 'cat: /tmp: Is a directory\n')
    k.run('echo x > /tmp/plain')
    k.check(k.run('cat /tmp/plain/x'), 'cat: /tmp/plain/x: Not a directory\n')
    k.check(k.run('cat /tmp/plain >> /tmp/plain'),
            'cat: /tmp/plain: input file is output file\n')
    k.check(k.run('cat /tmp/plain'), 'x\n')


def test_cat_streams_a_large_file(k):
    line = 'abcdefghijklmnopqrstuvwxyz0123456789' * 2
    k.run(f'echo {line} > /tmp/big')
    for _ in range(10):     # doubles each time: 2^10 lines, 73 KiB
        k.run('cat /tmp/big /tmp/big > /tmp/big2')
        k.run('cat /tmp/big2 > /tmp/big')
    out = k.run('cat /tmp/big', timeout=60)
    k.check(out, (line + '\n') * 1024)
    k.check(k.run('ls -l /tmp/big'), f'-rw-r--r-- {1024 * 73:8} /tmp/big\n')


def test_ls(k):
    k.check(k.run('ls /'), 'dev\nproc\nsys\ntmp\n')
    k.check(k.run('ls /sys/kernel'), 'debug\ntracing\n')
    k.check(k.run('ls /proc/sys'), 'kernel\n')
    names = k.run('ls /sys/kernel/tracing').splitlines()
    assert names == sorted(names), names
    assert 'current_tracer' in names and 'trace' in names, names
    k.run('cd /sys')
    k.check(k.run('ls'), 'devices\nkernel\n')
    k.check(k.run('ls ../proc/sys'), 'kernel\n')
    k.run('cd /')
    k.check(k.run('ls /proc/sys /sys'),
            '/proc/sys:\nkernel\n\n/sys:\ndevices\nkernel\n')


def test_ls_sorted_and_long(k):
    for name in ('zeta', 'alpha', 'Mid', 'beta'):
        k.run(f'echo {name} > /tmp/ls_{name}')
    names = [n for n in k.run('ls /tmp').split() if n.startswith('ls_')]
    assert names == ['ls_Mid', 'ls_alpha', 'ls_beta', 'ls_zeta'], names
    k.check(k.run('ls -l /tmp/ls_beta'), '-rw-r--r--        5 /tmp/ls_beta\n')
    k.check(k.run('ls -l /sys'), 'drwxr-xr-x        0 devices\n'
            'drwxr-xr-x        0 kernel\n')


def test_ls_errors(k):
    k.check(k.run('ls /nope'),
            "ls: cannot access '/nope': No such file or directory\n")
    k.check(k.run('ls -q'), "ls: invalid option -- 'q'\n")
    k.check(k.run('ls /nope /sys'),
            "ls: cannot access '/nope': No such file or directory\n"
            '/sys:\ndevices\nkernel\n')
    k.run('echo x > /tmp/lsfile')
    k.check(k.run('ls /sys /tmp/lsfile /proc/sys'),
            '/tmp/lsfile\n\n/sys:\ndevices\nkernel\n\n'
            '/proc/sys:\nkernel\n')


def test_cd_pwd_and_prompt(k):
    k.run('cd /sys/kernel/tracing')
    assert prompt_line(k) == 'rvftrace:/sys/kernel/tracing# ', prompt_line(k)
    k.check(k.run('pwd'), '/sys/kernel/tracing\n')
    k.run('cd ..')
    k.check(k.run('pwd'), '/sys/kernel\n')
    k.run('cd ./tracing/../../../proc/sys/kernel')
    k.check(k.run('pwd'), '/proc/sys/kernel\n')
    k.run('cd')
    k.check(k.run('pwd'), '/\n')
    assert prompt_line(k) == 'rvftrace:/# ', prompt_line(k)
    k.run('cd tmp')
    k.run('echo relative > rel')
    k.check(k.run('cat /tmp/rel'), 'relative\n')
    k.run('cd /')


def test_cd_errors(k):
    k.run('cd /tmp')
    k.run('echo x > /tmp/notdir')
    k.check(k.run('cd /nope'), 'sh: cd: /nope: No such file or directory\n')
    k.check(k.run('cd /tmp/notdir'), 'sh: cd: /tmp/notdir: Not a directory\n')
    k.check(k.run('cd / /tmp'), 'sh: cd: too many arguments\n')
    k.check(k.run('pwd'), '/tmp\n')
    k.run('cd /')


# --- system commands -----------------------------------------------------

def test_ps(k):
    lines = k.run('ps').splitlines()
    assert lines[0].split() == ['PID', 'CPU', 'STAT', 'COMMAND'], lines
    rows = [line.split() for line in lines[1:]]
    idle = sorted(r[3] for r in rows if r[0] == '0')
    assert idle == sorted(f'swapper/{n}' for n in range(k.smp)), lines
    shells = [r for r in rows if r[3] == 'sh']
    assert len(shells) == 1 and shells[0][0] == '1', lines
    assert shells[0][2] == 'R', f'the shell runs ps, so it runs: {lines}'
    for pid, cpu, stat, _ in rows:
        assert int(cpu) < k.smp and stat in 'RSZ', lines


def test_free(k):
    lines = k.run('free').splitlines()
    assert lines[0].split() == ['total', 'used', 'free'], lines
    label, total, used, free = lines[1].split()
    assert label == 'Mem:', lines
    total, used, free = int(total), int(used), int(free)
    assert total == used + free, lines
    assert 200 * 1024 < total <= 256 * 1024, f'256 MiB in KiB: {lines}'


def test_uptime(k):
    pattern = re.compile(r'up (\d+)\.(\d\d) seconds\n')
    first = pattern.fullmatch(k.run('uptime'))
    time.sleep(1.1)
    second = pattern.fullmatch(k.run('uptime'))
    assert first and second, k.tail()
    elapsed = float('.'.join(second.groups())) - float('.'.join(first.groups()))
    assert 1 <= elapsed < 5, elapsed


def test_bench_bad_arguments(k):
    # Refused before measuring anything: no `bench:` figures printed.
    k.check(k.run('bench nosuch'), 'bench: nosuch: no such benchmark\n')
    k.check(k.run('bench smp 2'), 'usage: bench [smp|modes]\n')
    k.check(k.run('echo still here'), 'still here\n')


def test_cpus(k):
    lines = k.run('cpus').splitlines()
    assert lines[0].split() == ['CPU', 'HART', 'ONLINE', 'TICKS', 'IRQS',
                                'CURRENT'], lines
    rows = [line.split() for line in lines[1:]]
    assert [int(r[0]) for r in rows] == list(range(k.smp)), lines
    assert all(r[2] == 'yes' for r in rows), lines
    assert all(int(r[3]) > 0 for r in rows), lines
    current = [r[5] for r in rows]
    assert current.count('sh') == 1, f'sh runs `cpus` on one CPU: {lines}'
    assert all(c == 'sh' or c.startswith('swapper/') for c in current), lines


def test_dmesg(k):
    out = k.run('dmesg')
    assert 'rvftrace: RISC-V kernel with dynamic ftrace' in out, out
    assert f'smp: {k.smp} CPU(s) online' in out, out
    assert all(re.match(r'\[ *\d+\.\d{6}\] ', line)
               for line in out.splitlines()), out


def test_selftest_command(k):
    out = k.run('selftest vfs', timeout=60)
    assert re.search(r'# vfs: pass:(\d+) fail:0 skip:0 total:\1', out), out
    out = k.run('selftest workloads', timeout=60)
    assert re.search(r'# workloads: pass:\d+ fail:0 skip:0', out), out
    out = k.run('selftest fdt,kallsyms', timeout=60)
    assert re.search(r'^1\.\.2$', out, re.M), out
    assert '# fdt: pass:' in out and '# kallsyms: pass:' in out, out
    k.check(k.run('selftest nosuite'), 'selftest: nosuite: no such suite\n')
    k.check(k.run('selftest fdt,nosuite'),
            'selftest: nosuite: no such suite\n')


# --- workloads -----------------------------------------------------------

def test_run_fib(k):
    k.check(k.run('run fib 10'), 'fib(10) = 55\n')
    k.check(k.run('run fib'), 'fib(10) = 55\n')
    k.check(k.run('run fib 0'), 'fib(0) = 0\n')
    k.check(k.run('run fib 25'), 'fib(25) = 75025\n')


def test_run_bad_numbers(k):
    k.check(k.run('run fib x'), "run: fib: invalid number 'x'\n")
    k.check(k.run('run fib -1'), "run: fib: invalid number '-1'\n")
    k.check(k.run('run fib 10x'), "run: fib: invalid number '10x'\n")
    k.check(k.run('run fib 99999999999999999999999'),
            "run: fib: invalid number '99999999999999999999999'\n")
    k.check(k.run('run fib 31'), 'run: fib: 31 is out of range (0 to 30)\n')
    k.check(k.run('run fib 1 2'), 'run: fib: too many arguments\n')
    k.check(k.run('run sort 0'), 'run: sort: 0 is out of range (1 to 1000000)\n')
    k.check(k.run('run sort 1000001'),
            'run: sort: 1000001 is out of range (1 to 1000000)\n')
    k.check(k.run('run crc32 16385'),
            'run: crc32: 16385 is out of range (1 to 16384)\n')
    k.check(k.run('run pingpong zero'), "run: pingpong: invalid number 'zero'\n")
    k.check(k.run('run fib 3'), 'fib(3) = 2\n')


def test_run_unknown_workload(k):
    out = k.run('run nope')
    assert out.startswith('run: nope: no such workload\n'), out
    for w in WORKLOADS:
        assert re.search(rf'^  {w} ', out, re.M), f'{w} not listed:\n{out}'
    out = k.run('run')
    assert out.startswith('usage: run WORKLOAD [ARGS]\n'), out


def test_run_sort(k):
    m = re.fullmatch(r'sort: 100000 numbers sorted, from (\d+) to (\d+)\n',
                     k.run('run sort 100000', timeout=60))
    assert m and int(m[1]) <= int(m[2]), k.tail()
    m = re.fullmatch(r'sort: 1 numbers sorted, from (\d+) to \1\n',
                     k.run('run sort 1'))
    assert m, k.tail()


def test_run_crc32(k):
    def pattern(kib):
        return bytes((i ^ (i >> 8)) & 0xff for i in range(kib * 1024))

    for kib in (1, 64, 100):
        out = k.run(f'run crc32 {kib}')
        k.check(out, f'crc32 of {kib} KiB: 0x{zlib.crc32(pattern(kib)):08x}\n')
    k.check(k.run('run crc32'),
            f'crc32 of 64 KiB: 0x{zlib.crc32(pattern(64)):08x}\n')


def test_run_pingpong(k):
    out = k.run('run pingpong', timeout=60)
    m = re.fullmatch(r'ping on cpu (\d+), pong on cpu (\d+)( \(one CPU\))?: '
                     r'1000 round trips\n', out)
    assert m, out
    if k.smp == 1:
        assert m[1] == m[2] == '0' and m[3], out
    else:
        assert m[1] != m[2] and not m[3], f'want two CPUs: {out}'
    assert re.fullmatch(r'ping on .*: 10 round trips\n',
                        k.run('run pingpong 10')), k.tail()


def test_ctrl_c_stops_a_workload(k):
    k.type('run pingpong 10000000\r')
    k.expect(r'run pingpong 10000000\n')
    time.sleep(1)
    assert not k.output.endswith('# '), 'pingpong ended too soon'
    k.type(CTRL_C)
    out = k.read_until_prompt(timeout=10)
    assert re.fullmatch(r'ping on cpu \d+, pong on cpu \d+.*: \d+ round trips'
                        r'\n\^C\n', out), out
    k.check(k.run('echo after'), 'after\n')
    assert 'ping' not in k.run('ps'), k.tail()


def test_ctrl_c_typed_ahead_is_dropped(k):
    # What was typed before the Ctrl-C is flushed, as a tty's ISIG does.
    k.type('run pingpong 10000000\r')
    k.expect(r'run pingpong 10000000\n')
    time.sleep(0.5)
    k.type('echo lost' + CTRL_C)
    out = k.read_until_prompt(timeout=10)
    assert out.endswith('^C\n') and 'lost' not in out, out
    k.check(k.run('echo kept'), 'kept\n')


# --- the line editor -----------------------------------------------------

def test_ctrl_c_at_the_prompt(k):
    k.type('echo abandoned' + CTRL_C)
    k.check(k.read_until_prompt(), 'echo abandoned^C\n')
    k.type(CTRL_C)
    k.check(k.read_until_prompt(), '^C\n')
    k.check(k.run('echo ok'), 'ok\n')
    assert 'abandoned\n' not in k.output


def test_ctrl_u_kills_the_line(k):
    k.check(k.run('garbage here' + CTRL_U + 'echo ok'), 'ok\n')
    k.check(k.run(CTRL_U + CTRL_U + 'echo twice' + CTRL_U + 'echo once'),
            'once\n')


def test_backspace(k):
    k.check(k.run('echo abx' + DEL + 'c' + BS + BS + 'bc'), 'abc\n')
    k.check(k.run(DEL * 3 + BS + 'echo fine'), 'fine\n')
    k.check(k.run('echo xy' + DEL * 10 + 'echo all gone'), 'all gone\n')
    k.check(k.run('ech' + DEL * 10), '')


def test_history(k):
    k.run('echo first')
    k.run('echo second')
    k.check(k.run(UP), 'second\n')
    k.check(k.run(UP + UP), 'first\n')
    k.check(k.run('\x1bOA'), 'first\n')                 # SS3 form
    k.check(k.run(UP + UP + UP + DOWN), 'second\n')
    k.check(k.run('echo draft' + UP + DOWN), 'draft\n')
    k.check(k.run(UP + DEL * 5 + 'edited'), 'edited\n')


def test_history_holds_16_lines(k):
    for i in range(40):
        k.run(f'echo h{i}')
    k.check(k.run(UP * 16), 'h24\n')
    # Walking past the oldest line rings the bell and stays there.
    bells = k.output.count('\a')
    assert re.fullmatch(r'h\d+\n', k.run(UP * 100)), k.tail()
    assert k.output.count('\a') > bells, 'no bell past the oldest line'


def test_crlf_runs_a_line_once(k):
    k.type('echo crlf\r\n')
    k.check(k.read_until_prompt(), 'echo crlf\ncrlf\n')
    k.type('echo lf\n')
    k.check(k.read_until_prompt(), 'echo lf\nlf\n')
    k.type('echo cr\r')
    k.check(k.read_until_prompt(), 'echo cr\ncr\n')
    time.sleep(0.3)
    assert k.output.endswith('cr\nrvftrace:/# '), k.tail()


def test_tab_completes_a_command(k):
    k.check(k.run('ech\thi'), 'hi\n')
    k.check(k.run('pw\t'), '/\n')
    assert k.run('  upti\t').startswith('up '), k.tail()


def test_tab_completes_a_path(k):
    k.run('echo tabbed > /tmp/tab_file')
    k.check(k.run('cat /tmp/tab_f\t'), 'tabbed\n')
    k.check(k.run('ls /sy\tk\t'), 'debug\ntracing\n')
    k.run('cd /tmp')
    k.check(k.run('cat tab_\t'), 'tabbed\n')
    k.run('cd /')


def test_tab_lists_candidates(k):
    k.type('c\t')
    out = k.read_until_prompt()
    assert 'cat  cd  chmod  chrt  command  continue  cp  cpus  cut\n' in out, out
    time.sleep(0.2)
    assert k.output.endswith('rvftrace:/# c'), k.tail()
    k.check(k.run('d /tmp'), '')
    k.check(k.run('pwd'), '/tmp\n')
    k.run('cd /')
    k.type('ls /\t')
    out = k.read_until_prompt()
    assert 'dev/  proc/  sys/  tmp/\n' in out, out
    k.check(k.run(''), 'dev\nproc\nsys\ntmp\n')


def test_tab_completes_a_function_name(k):
    t = '/sys/kernel/tracing'
    # An echo into a filter file: the redirect first, the line editor
    # only adds at the end.
    k.check(k.run(f'echo > {t}/set_ftrace_filter fib_m\t'), '')
    k.check(k.run(f'cat {t}/set_ftrace_filter'), 'fib_main\n')
    k.run(f'cd {t}')
    k.check(k.run('echo >> set_ftrace_filter ftrace_test_fi\t'), '')
    assert sorted(k.run('cat set_ftrace_filter').split()) == [
        'fib_main', 'ftrace_test_fib']
    k.check(k.run('echo >> set_ftrace_filter !fib_m\t'), '')
    k.check(k.run('cat set_ftrace_filter'), 'ftrace_test_fib\n')
    k.type('echo > set_ftrace_notrace fi\t')
    out = k.read_until_prompt()
    assert '\nfib  fib_main  ' in out, out
    k.check(k.run('b_\t'), '')
    k.check(k.run('cat set_ftrace_notrace'), 'fib_main\n')
    k.run('echo > set_ftrace_filter')
    k.run('echo > set_ftrace_notrace')
    # Elsewhere a word is still a path: here the redirect's own file.
    k.check(k.run('echo hi > /tmp/fib_m\t'), '')
    k.check(k.run('cat /tmp/fib_m'), 'hi\n')
    k.run('cd /')


def test_tab_without_candidates_rings(k):
    k.type('xyz\t')
    k.expect('\a')
    k.check(k.run(CTRL_U + 'echo ok'), 'ok\n')


def test_line_of_line_max_bytes_runs(k):
    text = 'a' * (LINE_MAX - len('echo '))
    k.check(k.run('echo ' + text, timeout=30), text + '\n')


def test_long_glob_list_into_set_ftrace_filter(k):
    # Two static functions may share a name: each is a record of its own.
    records = k.run(f'cat {T}/available_filter_functions',
                    timeout=30).split()
    names = sorted(set(records))
    # The kernel has fewer functions than the line has room for: the
    # list goes round again, as a user may repeat a glob.
    globs = []
    for name in itertools.cycle(names):
        if len(' '.join(globs + [name])) > LINE_MAX - 100:
            break
        globs.append(name[:-1] + '*')
    line = f"echo '{' '.join(globs)}' > {T}/set_ftrace_filter"
    assert len(line) > 3000, f'only {len(line)} bytes of globs'
    k.check(k.run(line, timeout=30), '')
    want = [n for n in records if any(n.startswith(g[:-1]) for g in globs)]
    k.check('\n'.join(sorted(k.run(f'cat {T}/set_ftrace_filter').split())),
            '\n'.join(sorted(want)))
    k.run(f'echo > {T}/set_ftrace_filter')


def test_overlong_line_is_refused_whole(k):
    # One byte over the limit: a cut would fall inside the file's name.
    k.run('cd /tmp')
    redirect = ' > cut_here'
    line = 'echo ' + 'a' * (LINE_MAX + 1 - len('echo ' + redirect)) + redirect
    bells = k.output.count('\a')
    k.check(k.run(line, timeout=30), TOO_LONG)
    assert k.output.count('\a') - bells == 1, 'one bell per refused byte'
    assert 'cut' not in k.run('ls'), k.tail()
    k.run('cd /')
    # Far over: nothing reaches the filter.
    k.run(f'echo fib_main > {T}/set_ftrace_filter')
    globs = ' '.join(['fib*'] * 1000)
    k.check(k.run(f"echo '{globs}' > {T}/set_ftrace_filter", timeout=30),
            TOO_LONG)
    k.check(k.run(f'cat {T}/set_ftrace_filter'), 'fib_main\n')
    k.run(f'echo > {T}/set_ftrace_filter')
    # Killed, an overlong line leaves the next one whole.
    k.check(k.run('x' * 5000 + CTRL_U + 'echo fresh', timeout=30), 'fresh\n')


def test_typed_ahead_long_lines_are_not_lost(k):
    # Typed while a command runs (a few seconds), the lines outgrow the
    # UART's FIFO and the kernel's receive ring, and wait in the UART.
    trips = 1000000 if k.smp == 1 else 2000
    k.type(f'run pingpong {trips}\r')
    k.expect(f'run pingpong {trips}\n')
    lines = [c * 3000 for c in 'xy']
    k.type(''.join(f'echo {text}\r' for text in lines))
    assert 'round trips' in k.read_until_prompt(timeout=60), k.tail()
    for text in lines:
        k.check(k.read_until_prompt(timeout=30), f'echo {text}\n{text}\n')


def test_utf8_passes_through(k):
    k.check(k.run('echo café'), 'café\n')
    # Backspace erases a whole character, both bytes of an é.
    k.check(k.run('echo cafx' + DEL + 'é' + DEL + 'e'), 'cafe\n')
    k.check(k.run('echo crème > /tmp/brûlée'), '')
    k.check(k.run('cat /tmp/brûlée'), 'crème\n')
    # As on Linux: the word reaches tracefs, and no function matches it
    # (`>` emptied the filter at open).
    k.run(f'echo fib_main > {T}/set_ftrace_filter')
    k.check(k.run(f'echo café >> {T}/set_ftrace_filter'),
            'sh: write error: Invalid argument\n')
    k.check(k.run(f'cat {T}/set_ftrace_filter'), 'fib_main\n')
    k.run(f'echo > {T}/set_ftrace_filter')


def test_control_bytes_refuse_the_line(k):
    # Echoed as ^X, as a tty's ECHOCTL does; Enter then runs nothing.
    k.type(b'echo a\x01b\r')
    k.check(k.read_until_prompt(), 'echo a^Ab\n' + CONTROL)
    k.type(b'echo nul\x00 > /tmp/nul\r')
    k.check(k.read_until_prompt(), 'echo nul^@ > /tmp/nul\n' + CONTROL)
    assert 'nul' not in k.run('ls /tmp'), k.tail()
    for byte in (0x04, 0x0e, 0x10, 0x1a, 0x1c, 0x1f):
        k.check(k.run(f'echo {chr(byte)}x'), CONTROL)
    # Erased before Enter, a control byte is gone.
    k.check(k.run('echo a\x02' + DEL + 'b'), 'ab\n')
    # Bytes >= 0x80 are text, passed on as they are.
    k.type(b'echo x\x80\xffy\r')
    k.check(k.read_until_prompt(), 'echo x\ufffd\ufffdy\nx\ufffd\ufffdy\n')
    # Escape sequences the editor does not know are dropped whole.
    k.type('echo e\x1b[Cs\x1b[3~c\x1b[1;5Ha\x1bOHp\x1bxe\r')
    k.check(k.read_until_prompt(), 'echo escape\nescape\n')
    k.check(k.run('echo clean'), 'clean\n')
