"""test_trace_dat.py: the guest's trace.dat as Debian's trace-cmd 3.1
reads it. Each test records one run in the guest (`trace-cmd start`,
the command, `trace-cmd stop`), keeps the guest's own `cat trace` of it,
writes the buffers with `trace-cmd extract` into the host's folder
(virtio-9p), and holds the host's `trace-cmd report` against that text
event for event: CPU, pid, comm, time stamp to the microsecond, function
and parent, graph depth and duration, each event's fields. The report
must print no warning, and `report --stat` and `dump --summary` must
count what it printed. Without trace-cmd on the host (scripts/deps.sh
installs it) those tests skip.

The guest's own `trace-cmd report` of each file must print what the
host's `report -N` (or `-R`, for the sched events' fields) prints.

KernelShark opens the sched events' file under Xvfb: a screenshot of
its window, which shows the CPUs and the tasks, is kept in
BUILD/kernelshark.png and must not be empty (docs/kernelshark.png is
one).

Also: `trace-cmd record` writes trace.dat in the working directory, `cp`
copies it to the host byte for byte, and a file that cannot be written
is trace-cmd's error.
"""

import atexit
import os
import re
import shutil
import subprocess
import tempfile
import unittest

import harness
from tracing import T

SMP = (2,)
SHARE = tempfile.mkdtemp(prefix='rvftrace-trace-dat-')
atexit.register(shutil.rmtree, SHARE, ignore_errors=True)
QEMU_ARGS = harness.share_args(SHARE)

# The guest's `cat trace` line, and trace-cmd report's.
GUEST = re.compile(r'^ *(?P<comm>.*?)-(?P<pid>\d+) +\[(?P<cpu>\d{3})\] '
                   r'\S{5} +(?P<ts>\d+\.\d{6}): (?P<rest>.*)$')
REPORT = re.compile(r'^ *(?P<comm>.*?)-(?P<pid>\d+) +\[(?P<cpu>\d{3})\] +'
                    r'(?P<ts>\d+\.\d{6}): (?P<event>\w+): +(?P<rest>.*)$')
# function_graph with funcgraph-proc: " 0)    fib-4    |  ... |  fib() {"
GRAPH = re.compile(r'^ *(?P<cpu>\d+)\) +(?P<comm>.*?)-(?P<pid>\d+) +\|'
                   r'(?P<dur>[^|]*)\|(?P<call>.*)$')
REPORT_GRAPH = re.compile(r'^ *(?P<dur>.*?) *\|(?P<call>.*)$')


def need_trace_cmd():
    if not shutil.which('trace-cmd'):
        raise unittest.SkipTest('no trace-cmd on the host '
                                '(scripts/deps.sh installs it)')


def host(name):
    return os.path.join(SHARE, name)


def capture(k, setup, cmd, name):
    """Record cmd with setup; the guest's event lines and the file."""
    k.run('trace-cmd reset')
    k.check(k.run(f'trace-cmd start {setup}'), '')
    k.run(cmd, timeout=120)
    k.check(k.run('trace-cmd stop'), '')
    k.check(k.run(f'cat {T}/trace > /mnt/host/{name}.txt', timeout=120), '')
    k.check(k.run(f'trace-cmd extract -o /mnt/host/{name}.dat',
                  timeout=120), '')
    k.run('trace-cmd reset')
    with open(host(f'{name}.txt')) as f:
        lines = [l for l in f.read().splitlines() if not l.startswith('#')]
    return lines, host(f'{name}.dat')


def trace_cmd(*args):
    """trace-cmd's output; anything on stderr is a warning, a failure."""
    r = subprocess.run(['trace-cmd', *args], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0 and not r.stderr, (r.returncode, r.stderr)
    assert 'WARNING' not in r.stdout and 'failed' not in r.stdout, r.stdout
    return r.stdout


def report(path, *opts):
    """The event lines of trace-cmd report, after its `cpus=N` line."""
    lines = trace_cmd('report', *opts, path).splitlines()
    assert lines[0] == 'cpus=2', lines[:3]
    return lines[1:]


def parse(regex, lines):
    out = []
    for line in lines:
        m = regex.match(line)
        assert m, line
        out.append(m)
    return out


def check_counts(path, report_lines):
    """--stat's per-CPU counts of events read, dump --summary's header."""
    per_cpu = {}
    for m in parse(REPORT, report_lines):
        per_cpu[int(m['cpu'])] = per_cpu.get(int(m['cpu']), 0) + 1
    stat = trace_cmd('report', '--stat', path)
    read = [int(n) for n in re.findall(r'^read events: (\d+)$', stat, re.M)]
    assert read == [per_cpu.get(0, 0), per_cpu.get(1, 0)], (read, per_cpu)
    summary = trace_cmd('dump', '--summary', path)
    for want in ('\t\t6\t[Version]\n', '\t\t8\t[Bytes in a long]\n',
                 '\t[Ftrace format, 9 events]\n',
                 '\t2 [CPUs with tracing data]\n',
                 '\t[Flyrecord tracing data]\n'):
        assert want in summary, summary


def guest_report(k, name, host_opt):
    """The guest's own `trace-cmd report` of the file is the host's
    `report -N` (the tracers' events by print fmt) or `-R` (the fields),
    but for -R's %03d of target_cpu, which it takes from the print fmt."""
    k.check(k.run(f'trace-cmd report /mnt/host/{name}.dat > '
                  f'/mnt/host/{name}.out', timeout=120), '')
    with open(host(f'{name}.out')) as f:
        guest = f.read()
    want = trace_cmd('report', host_opt, host(f'{name}.dat'))
    want = re.sub(r'target_cpu=0*(\d)', r'target_cpu=\1', want)
    assert guest == want, '\n'.join(
        f'{a!r}\n{b!r}' for a, b in zip(guest.splitlines(),
                                       want.splitlines()) if a != b)


def same_task_and_time(g, r):
    """CPU, pid, comm and time stamp of a guest line and a report line;
    both round the nanoseconds to the microsecond, as Linux does."""
    assert (g['cpu'], g['pid'], g['comm'], g['ts']) == \
        (r['cpu'], r['pid'], r['comm'], r['ts']), (g.group(0), r.group(0))


def test_function(k):
    need_trace_cmd()
    guest, path = capture(k, '-p function -l fib', 'run fib 10', 'function')
    assert len(guest) == 177, len(guest)
    lines = report(path, '-N')     # no plugins: the format's print fmt
    assert len(lines) == len(guest)
    for g, r in zip(parse(GUEST, guest), parse(REPORT, lines)):
        same_task_and_time(g, r)
        assert r['event'] == 'function'
        func, parent = g['rest'].split(' <-')
        assert r['rest'] == f'{func} <-- {parent}', (g.group(0), r.group(0))
    check_counts(path, lines)
    guest_report(k, 'function', '-N')


def test_function_graph(k):
    """Depth and duration as trace-cmd's function_graph printer draws
    them from funcgraph_entry and funcgraph_exit's two times."""
    need_trace_cmd()
    guest, path = capture(k, "-p function_graph -l 'fib*' -O funcgraph-proc",
                          'run fib 6', 'graph')
    lines = report(path)
    graph = parse(GRAPH, guest)
    events = parse(REPORT, lines)
    assert len(graph) == len(events) > 20, (len(graph), len(events))
    for g, r in zip(graph, events):
        assert (g['cpu'], g['pid']) == (str(int(r['cpu'])), r['pid'])
        assert r['event'] in ('funcgraph_entry', 'funcgraph_exit')
        call = REPORT_GRAPH.match(r['rest'])
        assert call, r.group(0)
        assert g['dur'].strip() == call['dur'].strip(), (g.group(0), r[0])
        assert g['call'] == call['call'], (g.group(0), r.group(0))
    check_counts(path, report(path, '-N'))  # a leaf's two events, apart
    guest_report(k, 'graph', '-N')


def test_sched_events(k):
    """Each event's fields, printed by its format's print fmt."""
    need_trace_cmd()
    guest, path = capture(k, '-e sched:sched_switch -e sched:sched_wakeup',
                          'run pingpong 100', 'sched')
    lines = report(path, '-N')
    assert len(lines) == len(guest) > 100, (len(lines), len(guest))
    for g, r in zip(parse(GUEST, guest), parse(REPORT, lines)):
        same_task_and_time(g, r)
        assert g['rest'] == f'{r["event"]}: {r["rest"]}', (g[0], r[0])
    check_counts(path, lines)
    guest_report(k, 'sched', '-R')


def test_bprint(k):
    """trace_printk's events: trace-cmd finds each format by its
    address in the printk section and prints the binary arguments as
    the guest's `cat trace` does."""
    need_trace_cmd()
    guest, path = capture(k, '-p nop', 'run printk 3', 'bprint')
    lines = report(path, '-N')
    assert len(lines) == len(guest) == 3, (lines, guest)
    for i, (g, r) in enumerate(zip(parse(GUEST, guest),
                                   parse(REPORT, lines)), 1):
        same_task_and_time(g, r)
        assert g['rest'].startswith(f'printk_demo_step: step {i} of 3: ')
        assert (r['event'], r['rest']) == ('bprint', g['rest']), (g[0], r[0])
    check_counts(path, lines)
    guest_report(k, 'bprint', '-N')


def test_raw_data(k):
    """trace_marker_raw's events, converted into Linux's raw_data
    entries: trace-cmd prints the id and the first byte by the print
    fmt, `id:%04x %08x`."""
    need_trace_cmd()
    k.check(k.run(r"printf '\052\000\000\000\201\002\003' > /tmp/raw"), '')
    guest, path = capture(k, '-p nop', f'dd if=/tmp/raw '
                          f'of={T}/trace_marker_raw bs=7; '
                          f'dd if=/tmp/raw of={T}/trace_marker_raw bs=4',
                          'raw_data')
    lines = report(path, '-N')
    assert len(lines) == len(guest) == 2, (lines, guest)
    for g, r in zip(parse(GUEST, guest), parse(REPORT, lines)):
        same_task_and_time(g, r)
    assert [g['rest'] for g in parse(GUEST, guest)] == [
        '# 2a buf: 81 02 03' + ' 00' * 13, '# 2a buf:' + ' 00' * 16]
    assert [(r['event'], r['rest']) for r in parse(REPORT, lines)] == [
        ('raw_data', 'id:002a 00000081'), ('raw_data', 'id:002a 00000000')]
    check_counts(path, lines)
    guest_report(k, 'raw_data', '-N')


def screenshot(dat, png):
    """KernelShark on dat under Xvfb, its screen in png once drawn. It
    runs as nobody: as root it first asks whether to go on."""
    script = f"""
        setpriv --reuid=65534 --regid=65534 --clear-groups \\
            env -u XAUTHORITY HOME=/tmp kernelshark {dat} >/dev/null 2>&1 &
        for i in $(seq 150); do
            import -window root {png}.tmp.png 2>/dev/null &&
            [ "$(convert {png}.tmp.png -format %k info:)" -gt 200 ] && break
            sleep 0.2
        done
        sleep 1
        import -window root {png}.tmp.png
        kill $!
        convert {png}.tmp.png -trim +repage {png} && rm {png}.tmp.png
    """
    subprocess.run(['xvfb-run', '-a', '-s', '-ac -screen 0 1280x800x24',
                    'sh', '-c', script], check=True, timeout=90)


def test_kernelshark_screenshot(k):
    """KernelShark shows the CPUs and tasks of a sched recording."""
    for tool in ('kernelshark', 'xvfb-run', 'import'):
        if not shutil.which(tool):
            raise unittest.SkipTest(f'no {tool} on the host '
                                    '(scripts/deps.sh installs it)')
    _, path = capture(k, '-e sched', 'run pingpong 100', 'shot')
    os.chmod(SHARE, 0o755)
    os.chmod(path, 0o644)
    png = os.path.join(k.build, 'kernelshark.png')
    screenshot(path, png)
    info = subprocess.run(['convert', png, '-format', '%w %h %k', 'info:'],
                          capture_output=True, text=True).stdout.split()
    width, height, colors = map(int, info)
    assert width > 400 and height > 200 and colors > 200, info


def test_record_writes_trace_dat_in_cwd(k):
    """record's default file, copied to the host byte for byte."""
    k.run('trace-cmd reset')
    k.run('rm -f /tmp/trace.dat')
    k.check(k.run('cd /tmp'), '')
    out = k.run('trace-cmd record -p function -l fib run fib 3')
    assert out.startswith('fib(3) = 2\nCPU: 0\n'), out
    k.check(k.run('cp trace.dat /mnt/host/copy.dat'), '')
    with open(host('copy.dat'), 'rb') as f:
        data = f.read()
    assert data.startswith(b'\x17\x08\x44tracing6\0\0\x08'), data[:20]
    guest_md5 = k.run('md5sum /tmp/trace.dat').split()[0]
    host_md5 = subprocess.run(['md5sum', host('copy.dat')],
                              capture_output=True, text=True).stdout.split()[0]
    assert guest_md5 == host_md5
    k.run('trace-cmd reset')
    k.run('cd /')
    if shutil.which('trace-cmd'):
        assert len(report(host('copy.dat'))) == 5


def test_write_error(k):
    k.check(k.run('trace-cmd extract -o /no/such/dir/trace.dat; echo $?'),
            "trace-cmd: No such file or directory\n"
            "  writing '/no/such/dir/trace.dat'\n1\n")
