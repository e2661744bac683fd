"""test_sh.py: the shell language at the console, as a Linux user types it.

Pipelines of real tasks and pipes (and what ps shows of them), Ctrl-C
stopping a whole foreground job or a loop, background jobs, the
redirections and here-documents, the expansions, compound commands,
functions, set -e/-u/-x, traps, scripts (sh FILE, sh -c, a #! file run
by its name), and that a ( subshell ) is a task made by kernel_clone,
as the function tracer sees. All tests share one booted kernel.
"""

import re
import time

SMP = (1, 4)
T = '/sys/kernel/tracing'
CTRL_C = '\x03'


def lines(k, text, timeout=10):
    """Type a command of several lines; its output without the '> '
    continuation prompts and the lines they echo."""
    out = k.run(text, timeout)
    return ''.join(l for l in out.splitlines(True) if not l.startswith('> '))


# --- pipelines and jobs --------------------------------------------------

def test_pipelines(k):
    k.check(k.run('echo a | cat'), 'a\n')
    k.check(k.run('seq 1 1000 | wc -l'), '1000\n')
    k.check(k.run('seq 10 | head -n 3 | tail -n 1'), '3\n')
    k.check(k.run('cat /sys/kernel/tracing/available_tracers | wc -w'), '8\n')
    # head stops reading; yes is stopped by the pipe (EPIPE), not forever
    k.check(k.run('yes | head -2'), 'y\ny\n')
    # the reader is asleep on the empty pipe when the writer ends
    k.check(k.run('sleep 0.3 | cat; echo eof'), 'eof\n')
    k.check(k.run('echo x | false; echo $?'), '1\n')
    k.check(k.run('false | true; echo $?'), '0\n')
    k.check(k.run('! true; echo $?'), '1\n')


def test_pipeline_longer_than_the_pipe_buffer(k):
    # 20000 lines are about 100 KB: the writer blocks until wc reads
    k.check(k.run('seq 20000 | wc -lc', timeout=30), '  20000  108894\n')


def test_pipeline_tasks_show_in_ps(k):
    # while a job runs, its stages are tasks of their own; the job's
    # shell starts them after the prompt is back, and a stage may not
    # have run yet (R) when ps looks: ps again until both are there
    k.run('sleep 3 | cat &')
    for _ in range(20):
        ps = k.run('ps')
        if all(re.search(rf'\d+ +\d+ +[RS] +{name}\n', ps)
               for name in ('sleep', 'cat')):
            break
        k.run('sleep 0.05')
    assert re.search(r'\d+ +\d+ +[RS] +sleep\n', ps), ps
    assert re.search(r'\d+ +\d+ +[RS] +cat\n', ps), ps
    k.check(k.run('wait; echo done', timeout=15), 'done\n')


def test_ctrl_c_stops_a_pipeline(k):
    k.type(f'cat {T}/trace_pipe | cat\r')
    time.sleep(1)
    assert not k.output.endswith('# '), 'the pipeline ended by itself'
    k.type(CTRL_C)
    out = k.read_until_prompt(timeout=10)
    assert out.endswith('^C\n'), out
    k.check(k.run('echo after'), 'after\n')
    ps = k.run('ps')
    assert ' cat\n' not in ps, ps


def test_ctrl_c_stops_a_loop(k):
    k.type('while true; do sleep 0.1; done\r')
    time.sleep(1)
    k.type(CTRL_C)
    out = k.read_until_prompt(timeout=10)
    assert out.endswith('^C\n'), out
    k.check(k.run('echo $?'), '130\n')


def test_background_jobs(k):
    out = k.run('sleep 5 & echo started $!')
    m = re.fullmatch(r'\[1\] (\d+)\nstarted (\d+)\n', out)
    assert m and m[1] == m[2], out
    k.check(k.run('jobs'), '[1]   Running                sleep 5\n')
    k.check(k.run('kill $!; wait $!; echo $?'), '130\n')
    k.check(k.run('jobs'), '')
    # Ctrl-C stops the foreground, not a background job
    k.run('sleep 2 &')
    k.type('sleep 5\r')
    time.sleep(0.5)
    k.type(CTRL_C)
    k.read_until_prompt(timeout=10)
    assert 'Running' in k.run('jobs'), k.tail()
    k.check(k.run('wait; echo waited'), 'waited\n')
    k.check(k.run('kill 9999'), 'kill: can\'t kill pid 9999: No such process\n')


# --- redirections ----------------------------------------------------------

def test_redirections(k):
    k.check(k.run('echo one > /tmp/r; echo two >> /tmp/r; cat < /tmp/r'),
            'one\ntwo\n')
    k.check(k.run('nosuch 2> /tmp/e; cat /tmp/e'), 'sh: nosuch: not found\n')
    k.check(k.run('{ echo out; nosuch; } > /tmp/b 2>&1; cat /tmp/b'),
            'out\nsh: nosuch: not found\n')
    k.check(k.run('echo to-err 2>/dev/null >&2'), '')
    k.check(k.run('echo to-err >&2 2>/dev/null'), 'to-err\n')
    k.check(k.run('echo gone > /dev/null'), '')
    k.check(k.run('cat < /nope'), 'sh: /nope: No such file or directory\n')


def test_here_documents(k):
    k.run('x=world')
    k.check(lines(k, 'cat <<EOF\nhello $x $((1+2))\nEOF'), 'hello world 3\n')
    k.check(lines(k, "cat <<'EOF'\nhello $x\nEOF"), 'hello $x\n')
    # Tab completes at the console: <<- gets its tabs from a script
    k.run("printf 'cat <<-EOF\\n\\t\\tindented\\n\\tEOF\\n' > /tmp/h.sh")
    k.check(k.run('sh /tmp/h.sh'), 'indented\n')
    k.check(lines(k, 'while read -r a b; do echo "$b-$a"; done <<EOF\n'
                     '1 one\n2 two\nEOF'), 'one-1\ntwo-2\n')


# --- expansions and quoting ----------------------------------------------

def test_parameters(k):
    k.check(k.run('x=hello.tar.gz; echo ${x%.gz} ${x%%.*} ${x#*.} ${#x}'),
            'hello.tar hello tar.gz 12\n')
    k.check(k.run('unset y; echo ${y:-def} ${y:=set} $y ${y:+alt} '
                  '"${z-unset}"'), 'def set set alt unset\n')
    k.check(k.run('set -- a "b c" d; echo $#; for a in "$@"; do '
                  'echo "[$a]"; done; shift 2; echo $1'),
            '3\n[a]\n[b c]\n[d]\nd\n')
    k.check(k.run('echo "${q:?is empty}"; echo not run'),
            'sh: q: is empty\n')
    k.check(k.run('echo $$ | wc -w; echo $?'), '1\n0\n')


def test_substitutions_and_arithmetic(k):
    k.check(k.run('echo $(seq 3) "$(seq 2)" `echo bq`'), '1 2 3 1\n2 bq\n')
    k.check(k.run('i=7; echo $((i * 6)) $((0x10 + 010)) $((i > 3 && 1))'),
            '42 24 1\n')
    k.check(k.run('echo $((1 / 0)); echo next'),
            'sh: division by zero\n')
    k.check(k.run('set -- $(seq 1000); echo $# $1000'), '1000 1000\n')


def test_field_splitting_and_quotes(k):
    k.check(k.run('v="a  b   c"; for w in $v; do echo "<$w>"; done'),
            '<a>\n<b>\n<c>\n')
    k.check(k.run('v="a:b::c"; IFS=:; set -- $v; IFS=" "; echo $#'), '4\n')
    k.check(k.run('''echo 'single $x' "double \\$x \\"q\\"" \\$x'''),
            'single $x double $x "q" $x\n')


def test_pathname_globs(k):
    k.check(k.run(f'cd {T}; echo *_tracer; echo trace_*e; cd /'),
            'current_tracer\ntrace_pipe\n')
    k.check(k.run('echo /sys/kernel/tr?cing'), '/sys/kernel/tracing\n')
    k.check(k.run('echo /nomatch*'), '/nomatch*\n')
    k.check(k.run("echo '/tmp/*'"), '/tmp/*\n')


# --- compound commands, functions, options --------------------------------

def test_compound_commands(k):
    k.check(k.run('if false; then echo a; elif true; then echo b; '
                  'else echo c; fi'), 'b\n')
    k.check(k.run('i=0; while [ $i -lt 3 ]; do i=$((i+1)); '
                  '[ $i = 2 ] && continue; echo $i; done'), '1\n3\n')
    k.check(k.run('until true; do echo never; done; echo ok'), 'ok\n')
    k.check(k.run('for t in nop function nop; do echo $t > '
                  f'{T}/current_tracer; cat {T}/current_tracer; done'),
            'nop\nfunction\nnop\n')
    k.check(k.run('for i in 1 2 3; do for j in a b; do [ $j = b ] && '
                  'break 2; echo $i$j; done; done'), '1a\n')
    k.check(k.run('case foo.c in *.h) echo h;; *.c|*.s) echo c;; esac'),
            'c\n')
    k.check(k.run('{ echo g1; echo g2; } | wc -l'), '2\n')


def test_functions(k):
    k.check(k.run('f() { local v=in; echo $v $1 $#; return 3; }; v=out; '
                  'f a b; echo $? $v'), 'in a 2\n3 out\n')
    k.check(k.run('fact() { [ $1 -le 1 ] && { echo 1; return; }; '
                  'echo $(( $1 * $(fact $(($1 - 1))) )); }; fact 6'),
            '720\n')
    k.check(k.run('local x'), 'sh: local: not in a function\n')


def test_subshell_is_a_task_made_by_kernel_clone(k):
    k.check(k.run('x=1; ( x=2; echo in $x ); echo out $x'),
            'in 2\nout 1\n')
    k.check(k.run('( exit 7 ); echo $?'), '7\n')
    k.run(f'echo kernel_clone > {T}/set_ftrace_filter')
    k.run(f'echo function > {T}/current_tracer')
    k.run('( echo forked ) > /dev/null; ( : ); echo 0 > '
          f'{T}/tracing_on')
    out = k.run(f'n=0; while read -r l; do case $l in *kernel_clone*) '
                f'n=$((n+1));; esac; done < {T}/trace; echo $n')
    assert int(out) >= 2, out
    k.run(f'echo nop > {T}/current_tracer; echo 1 > {T}/tracing_on; '
          f'echo > {T}/set_ftrace_filter')


def test_set_options(k):
    k.check(k.run('sh -c "set -e; false; echo no"; echo $?'), '1\n')
    k.check(k.run('sh -c "set -e; false || true; if false; then :; fi; '
                  '! true; echo yes"'), 'yes\n')
    k.check(k.run('sh -c "set -u; echo \\$nope; echo no"; echo $?'),
            'sh: nope: parameter not set\n2\n')
    k.check(k.run('sh -c "set -x; echo traced"'), '+ echo traced\ntraced\n')


def test_traps(k):
    k.check(k.run('sh -c "trap \'echo bye\' EXIT; echo hi; exit 3"; echo $?'),
            'hi\nbye\n3\n')
    k.type('sh -c "trap \'echo caught; exit 4\' INT; while :; do sleep 1; '
           'done"; echo $?\r')
    time.sleep(1)
    k.type(CTRL_C)
    out = k.read_until_prompt(timeout=10)
    assert 'caught\n4\n' in out, out


def test_builtins(k):
    k.check(k.run("printf '%s-%03d|%-3s|%x\\n' a 7 b 255"), 'a-007|b  |ff\n')
    k.check(k.run('echo -e "a\\tb\\c" never; echo'), 'a\tb\n')
    k.check(k.run('eval "echo \\$((2+2))"'), '4\n')
    k.check(k.run('[ -d /tmp ] && [ ! -f /tmp ] && [ 10 -gt 9 ] && '
                  '[ abc != abd ] && test -n x -a -z ""; echo $?'), '0\n')
    k.check(k.run('[ 1 -lt 2'), '[: missing ]\n')
    k.check(k.run('command -v cat; command -v nosuch; echo $?'), 'cat\n1\n')
    k.check(k.run('basename /a/b/c.txt .txt; dirname /a/b/c.txt'),
            'c\n/a/b\n')


# --- scripts ---------------------------------------------------------------

def test_scripts(k):
    k.run("printf 'echo script $0 $1\\nexit 4\\n' > /tmp/s.sh")
    k.check(k.run('sh /tmp/s.sh arg; echo $?'), 'script /tmp/s.sh arg\n4\n')
    k.check(k.run("sh -c 'echo in $0 $1' zero one"), 'in zero one\n')
    k.check(k.run("echo 'echo piped' | sh"), 'piped\n')
    k.run("printf '#!/bin/sh\\necho by name \"$@\"\\n' > /tmp/n.sh")
    k.check(k.run('/tmp/n.sh x'), 'sh: /tmp/n.sh: Permission denied\n')
    k.run('chmod +x /tmp/n.sh')
    k.check(k.run('/tmp/n.sh x y; cd /tmp; ./n.sh z; cd /'),
            'by name x y\nby name z\n')
    k.check(k.run('PATH=/tmp n.sh p'), 'by name p\n')
    k.run("printf 'helper() { echo helped; }\\n' > /tmp/lib.sh")
    k.check(k.run('. /tmp/lib.sh; helper'), 'helped\n')
    k.check(k.run('export E=exported; sh -c "echo \\$E"'), 'exported\n')


# --- the utilities next to the shell ---------------------------------------

def test_file_utilities(k):
    k.check(k.run('cd /tmp; mkdir -p d/e; touch d/e/f; ls d/e; mv d/e/f d/g; '
                  'ls d; cp d/g d/h; rm d/g; ls -a d; cd /'),
            'f\ne\ng\n.\n..\ne\nh\n')
    k.check(k.run('rmdir /tmp/d'), "rmdir: '/tmp/d': Directory not empty\n")
    k.check(k.run('rm -r /tmp/d; ls /tmp/d'),
            "ls: cannot access '/tmp/d': No such file or directory\n")
    k.check(k.run('rm /sys/kernel/tracing/trace'),
            "rm: can't remove '/sys/kernel/tracing/trace': "
            'Permission denied\n')
    k.check(k.run('mkdir /sys/x'),
            "mkdir: can't create directory '/sys/x': Permission denied\n")
    k.check(k.run('printf abc > /tmp/s; chmod 640 /tmp/s; '
                  "stat -c '%n %s %a %A %F' /tmp/s"),
            '/tmp/s 3 640 -rw-r----- regular file\n')
    out = k.run('t=$(mktemp); d=$(mktemp -d); [ -f $t ] && [ -d $d ] && '
                'echo $t $d')
    assert re.fullmatch(r'/tmp/tmp\.\w{10} /tmp/tmp\.\w{10}\n', out), out


def test_stream_utilities(k):
    k.check(k.run('seq 3 | tee /tmp/tee | wc -l; cat /tmp/tee'),
            '3\n1\n2\n3\n')
    k.check(k.run('printf "a b\\nc\\n" | wc; wc -c /tmp/tee'),
            '      2       3       6\n6 /tmp/tee\n')
    k.check(k.run('seq 10 | tail -n +9; seq -s , 3 3 9'), '9\n10\n3,6,9\n')
    k.check(k.run('cat - < /tmp/tee | head -n 1'), '1\n')
    k.type('tail -f /tmp/tee\r')
    k.expect(r'3\n')
    time.sleep(0.3)
    k.type(CTRL_C)
    k.read_until_prompt(timeout=10)
    k.check(k.run('env X=1 sh -c "echo \\$X"; env X=2 env | while read -r l;'
                  ' do case $l in X=*) echo $l;; esac; done; echo "[$X]"'),
            '1\nX=2\n[]\n')
    k.check(k.run('which cat nosuch; echo $?'), 'cat\n1\n')


def test_system_utilities(k):
    assert re.fullmatch(r'\d+\n', k.run('nproc')), k.tail()
    k.check(k.run('id; id -u'), 'uid=0(root) gid=0(root) groups=0(root)\n0\n')
    assert re.fullmatch(r'1970-01-01 \d\d:\d\d:\d\d\n',
                        k.run("date '+%F %T'")), k.tail()
    out = k.run('time sleep 0.2')
    assert re.fullmatch(r'real\t0m 0\.[23]\ds\n', out), out
    # the message is on the console too, as printk puts it
    out = k.run('echo from-the-shell > /dev/kmsg; dmesg | tail -n 1 | '
                'while read -r stamp time msg; do echo $msg; done')
    assert out.endswith(']from-the-shell\n') or \
        out.endswith('\nfrom-the-shell\n'), out
    k.check(k.run('sleep x'), "sleep: invalid number 'x'\n")
