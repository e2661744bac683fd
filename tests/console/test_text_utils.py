"""test_text_utils.py: the text utilities at the console, on tracefs
files and on files in /tmp, as a user types them: grep, sed, sort,
uniq, cut and tr, their options, their error messages, and standard
input typed at the console (line by line, Ctrl-D ends it, Ctrl-C stops
the command). All tests share one booted kernel, in order; each sets up
the files it needs.
"""

from tracing import T, reset, write

SMP = (1,)
CTRL_C, CTRL_D = '\x03', '\x04'

LINES = ('a fib b', 'nothing', 'FIB', 'fibonacci 10', 'x_fib_y')


def make_file(k, path, lines):
    k.run(f'echo {lines[0]} > {path}')
    for line in lines[1:]:
        k.run(f'echo {line} >> {path}')


def fib_trace(k):
    reset(k)
    write(k, 'set_ftrace_filter', 'fib')
    write(k, 'current_tracer', 'function')
    k.run('run fib 10')
    write(k, 'tracing_on', '0')


# --- grep ---------------------------------------------------------------

def test_grep_counts_the_fib_trace(k):
    fib_trace(k)
    k.check(k.run(f'grep -c fib {T}/trace'), '177\n')
    k.check(k.run(f"grep -c 'fib <-fib$' {T}/trace"), '176\n')
    k.check(k.run(f"grep -c -v '^#' {T}/trace"), '177\n')
    k.check(k.run(f"grep -o -E 'fib <-[a-z_]+' {T}/trace > /tmp/callers"),
            '')
    k.check(k.run('sort /tmp/callers > /tmp/sorted'), '')
    k.check(k.run('uniq -c /tmp/sorted'),
            '    176 fib <-fib\n      1 fib <-fib_main\n')
    reset(k)


def test_grep_tracefs_lists(k):
    k.check(k.run(f'grep -x fib {T}/available_filter_functions'), 'fib\n')
    # '_' is a word character: function_graph is no match for -w function
    k.check(k.run(f'grep -o -w function {T}/available_tracers'),
            'function\n')
    k.check(k.run(f'grep -c -E "^(fib|fib_main)$" '
                  f'{T}/available_filter_functions'), '2\n')


def test_grep_options(k):
    make_file(k, '/tmp/f', LINES)
    k.check(k.run('grep fib /tmp/f'), 'a fib b\nfibonacci 10\nx_fib_y\n')
    k.check(k.run('grep -i -n fib /tmp/f'),
            '1:a fib b\n3:FIB\n4:fibonacci 10\n5:x_fib_y\n')
    k.check(k.run('grep -v fib /tmp/f'), 'nothing\nFIB\n')
    k.check(k.run('grep -c fib /tmp/f'), '3\n')
    k.check(k.run('grep -w fib /tmp/f'), 'a fib b\n')
    k.check(k.run('grep -x FIB /tmp/f'), 'FIB\n')
    k.check(k.run("grep -o 'fib[a-z]*' /tmp/f"), 'fib\nfibonacci\nfib\n')
    k.check(k.run("grep -o -n '[0-9]' /tmp/f"), '4:1\n4:0\n')
    k.check(k.run('grep -e FIB -e nothing /tmp/f'), 'nothing\nFIB\n')
    k.check(k.run("grep -E 'no|^F' /tmp/f"), 'nothing\nFIB\n')
    k.check(k.run("grep 'no\\|^F' /tmp/f"), 'nothing\nFIB\n')
    k.check(k.run("grep 'f\\(i\\).*\\1' /tmp/f"), 'fibonacci 10\n')
    k.check(k.run("grep -F 'a.f' /tmp/f"), '')
    k.check(k.run("grep 'a.f' /tmp/f"), 'a fib b\n')
    k.check(k.run('grep -q fib /tmp/f'), '')


def test_grep_several_files(k):
    make_file(k, '/tmp/f', LINES)
    make_file(k, '/tmp/g', ('fib', 'other'))
    k.check(k.run('grep -c fib /tmp/f /tmp/g'), '/tmp/f:3\n/tmp/g:1\n')
    k.check(k.run('grep -l FIB /tmp/f /tmp/g'), '/tmp/f\n')
    k.check(k.run('grep -h other /tmp/f /tmp/g'), 'other\n')
    k.check(k.run('grep -H other /tmp/g'), '/tmp/g:other\n')
    k.check(k.run('grep -n other /tmp/f /tmp/g'), '/tmp/g:2:other\n')


def test_grep_errors(k):
    make_file(k, '/tmp/f', LINES)
    k.check(k.run('grep fib /nosuch /tmp/f'),
            'grep: /nosuch: No such file or directory\n'
            '/tmp/f:a fib b\n/tmp/f:fibonacci 10\n/tmp/f:x_fib_y\n')
    k.check(k.run("grep 'x\\(' /tmp/f"),
            "grep: bad regex 'x\\(': Unmatched ( or \\(\n")
    k.check(k.run("grep -E 'a{2,1}' /tmp/f"),
            "grep: bad regex 'a{2,1}': Invalid content of \\{\\}\n")
    k.check(k.run("grep '[[:nope:]]' /tmp/f"),
            "grep: bad regex '[[:nope:]]': Invalid character class name\n")
    k.check(k.run('grep -z x /tmp/f'), "grep: invalid option -- 'z'\n")
    k.check(k.run('grep -e'), "grep: option requires an argument -- 'e'\n")
    assert k.run('grep').startswith('Usage: grep ')
    k.check(k.run(f'grep x {T}'), f'grep: {T}: Is a directory\n')
    # a back-reference pattern that would take for ever is an error
    k.run('echo aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa > /tmp/p')
    k.check(k.run("grep '\\(.*\\)*\\(.*\\)*\\(.*\\)*c\\1' /tmp/p"),
            'grep: Memory exhausted\n')


def test_grep_reads_what_is_typed(k):
    k.type('grep -n b\r')
    k.expect(r'grep -n b\n')
    k.type('abc\rxyz\rb\r')
    k.type(CTRL_D)
    k.check(k.read_until_prompt(), 'abc\n1:abc\nxyz\nb\n3:b\n')
    k.type('grep -c x -\r')
    k.expect(r'grep -c x -\n')
    k.type('x\r' + CTRL_D)
    k.check(k.read_until_prompt(), 'x\n1\n')


def test_a_short_read_leaves_the_rest_of_the_line(k):
    # As n_tty keeps a cooked line: dd's one-byte reads take "abc" of one
    # typed line, and the shell then reads the rest as its next command.
    k.type('dd bs=1 count=3\r')
    k.expect(r'dd bs=1 count=3\n')
    k.type('abcecho left\r')
    k.check(k.read_until_prompt(),
            'abcecho left\nabc3+0 records in\n3+0 records out\n'
            '3 bytes copied\n')
    k.check(k.read_until_prompt(), 'echo left\nleft\n')


def test_ctrl_d_mid_line_hands_over_the_text(k):
    # VEOF after some text ends the read without a newline; a second
    # Ctrl-D, on the empty line, is the end of input.
    k.type('cat\r')
    k.expect(r'cat\n')
    k.type('xyz' + CTRL_D + CTRL_D)
    k.check(k.read_until_prompt(), 'xyzxyz')
    k.type('wc -c\r')
    k.expect(r'wc -c\n')
    k.type('ab' + CTRL_D + 'c\r' + CTRL_D)
    k.check(k.read_until_prompt(), 'abc\n4\n')


def test_ctrl_c_stops_grep_on_stdin(k):
    k.type('grep never\r')
    k.expect(r'grep never\n')
    k.type('typed\r')
    k.expect(r'typed\n')
    k.type(CTRL_C)
    k.check(k.read_until_prompt(), '^C\n')
    k.check(k.run('echo after'), 'after\n')


# --- sed ----------------------------------------------------------------

def test_sed(k):
    make_file(k, '/tmp/f', LINES)
    k.check(k.run('sed s/fib/FOO/ /tmp/f'),
            'a FOO b\nnothing\nFIB\nFOOonacci 10\nx_FOO_y\n')
    k.check(k.run('sed -n 2p /tmp/f'), 'nothing\n')
    k.check(k.run("sed '1,3d;s/_/-/g' /tmp/f"), 'fibonacci 10\nx-fib-y\n')
    k.check(k.run("sed -n '/^n/,/^f/p' /tmp/f"),
            'nothing\nFIB\nfibonacci 10\n')
    k.check(k.run("sed -n '$=' /tmp/f"), '5\n')
    k.check(k.run("sed 2q /tmp/f"), 'a fib b\nnothing\n')
    k.check(k.run("sed '/fib/!d' /tmp/f"),
            'a fib b\nfibonacci 10\nx_fib_y\n')
    k.check(k.run("sed -E -n 's/([a-z]+) ([0-9]+)/\\2 \\1/p' /tmp/f"),
            '10 fibonacci\n')
    k.check(k.run("sed -e 's/i/I/2' -e 's/^/> /' /tmp/f"),
            '> a fib b\n> nothing\n> FIB\n> fibonaccI 10\n> x_fib_y\n')
    k.check(k.run("sed -n 's/fib/[&]/gip' /tmp/f"),
            'a [fib] b\n[FIB]\n[fib]onacci 10\nx_[fib]_y\n')


def test_sed_on_the_trace(k):
    fib_trace(k)
    k.check(k.run(f'sed -n 1p {T}/trace'), '# tracer: function\n')
    k.check(k.run(f"sed -n '/^#/d;s/.*: //p' {T}/trace > /tmp/funcs"), '')
    k.check(k.run('uniq -c /tmp/funcs'),
            '      1 fib <-fib_main\n    176 fib <-fib\n')
    reset(k)


def test_sed_errors(k):
    k.check(k.run('sed s/a/b /tmp/f'), "sed: unmatched '/'\n")
    k.check(k.run('sed k /tmp/f'), 'sed: unsupported command k\n')
    k.check(k.run("sed 's/a/\\1/' /tmp/f"),
            "sed: invalid reference \\1 on 's' command's RHS\n")
    k.check(k.run('sed p /nosuch'),
            'sed: /nosuch: No such file or directory\n')
    assert k.run('sed').startswith('Usage: sed ')


# --- sort, uniq, cut, tr -------------------------------------------------

def test_sort_and_uniq(k):
    make_file(k, '/tmp/s', ('"b 10 x"', '"a 9 y"', '"c 100 x"', '"a 9 y"'))
    k.check(k.run('sort /tmp/s'), 'a 9 y\na 9 y\nb 10 x\nc 100 x\n')
    k.check(k.run('sort -k2 /tmp/s'), 'b 10 x\nc 100 x\na 9 y\na 9 y\n')
    k.check(k.run('sort -n -r -k 2 /tmp/s'),
            'c 100 x\nb 10 x\na 9 y\na 9 y\n')
    k.check(k.run('sort -u /tmp/s'), 'a 9 y\nb 10 x\nc 100 x\n')
    k.check(k.run("sort -t ' ' -k 3,3 -k 2n /tmp/s"),
            'b 10 x\nc 100 x\na 9 y\na 9 y\n')
    k.check(k.run('sort -k 0 /tmp/s'), "sort: invalid key '0'\n")
    k.check(k.run('sort -t ab /tmp/s'), "sort: multi-character tab 'ab'\n")
    k.check(k.run('sort /tmp/s > /tmp/t'), '')
    k.check(k.run('uniq /tmp/t'), 'a 9 y\nb 10 x\nc 100 x\n')
    k.check(k.run('uniq -c /tmp/t'),
            '      2 a 9 y\n      1 b 10 x\n      1 c 100 x\n')
    k.check(k.run('uniq -d /tmp/t'), 'a 9 y\n')
    k.check(k.run('uniq -u /tmp/t'), 'b 10 x\nc 100 x\n')


def test_cut(k):
    make_file(k, '/tmp/s', ('"b 10 x"', '"a 9 y"'))
    k.check(k.run("cut -d ' ' -f 2 /tmp/s"), '10\n9\n')
    k.check(k.run("cut -d ' ' -f 3,1 /tmp/s"), 'b x\na y\n')
    k.check(k.run("cut -d ' ' -f 2- /tmp/s"), '10 x\n9 y\n')
    k.check(k.run('cut -c 1,3-4 /tmp/s'), 'b10\na9 \n')
    k.check(k.run('cut -c -2 /tmp/s'), 'b \na \n')
    k.check(k.run('cut -f 1 /tmp/s'), 'b 10 x\na 9 y\n')
    k.check(k.run('cut -s -f 1 /tmp/s'), '')
    k.check(k.run('cut /tmp/s'),
            'cut: expected a list of bytes, characters, or fields\n')
    k.check(k.run('cut -f 0 /tmp/s'), "cut: invalid list '0'\n")
    k.check(k.run(f"cut -d ' ' -f 1 {T}/trace_clock"), '[local]\n')


def test_tr(k):
    def tr(args, typed):
        k.type(f'tr {args}\r')
        k.expect(r'tr .*\n')
        k.type(typed + '\r' + CTRL_D)
        return k.read_until_prompt()

    k.check(tr('a-z A-Z', 'hello world'), 'hello world\nHELLO WORLD\n')
    k.check(tr("'[:lower:]' '[:upper:]'", 'fib'), 'fib\nFIB\n')
    k.check(tr('-d "[:digit:]"', 'a1b22c'), 'a1b22c\nabc\n')
    k.check(tr('-s l', 'hello   llama'), 'hello   llama\nhelo   lama\n')
    k.check(tr("-s ' ' '\\n'", 'a  b   c'), 'a  b   c\na\nb\nc\n')
    k.check(k.run('tr z-a x'),
            "tr: range-endpoints of 'z-a' are in reverse collating "
            'sequence order\n')
    k.check(k.run('tr a'), 'tr: missing operand after SET1\n')


# --- xargs, md5sum, expr, diff, dd ---------------------------------------

def test_xargs(k):
    make_file(k, '/tmp/f', LINES)
    k.type('xargs\r')
    k.expect(r'xargs\n')
    k.type('a b\r c\r' + CTRL_D)
    k.check(k.read_until_prompt(), 'a b\n c\na b c\n')
    k.type('xargs -n 2 -t echo x\r')
    k.expect(r'xargs -n 2 -t echo x\n')
    k.type("1 '2 3' 4\\ 5 6\r" + CTRL_D)
    k.check(k.read_until_prompt(),
            "1 '2 3' 4\\ 5 6\necho x 1 2 3\nx 1 2 3\necho x 4 5 6\n"
            'x 4 5 6\n')
    k.type('xargs grep -c fib\r')
    k.expect(r'xargs grep -c fib\n')
    k.type('/tmp/f /nosuch\r' + CTRL_D)
    k.check(k.read_until_prompt(),
            '/tmp/f /nosuch\n/tmp/f:3\n'
            'grep: /nosuch: No such file or directory\n')
    k.type('xargs -r echo nothing\r')
    k.expect(r'xargs -r echo nothing\n')
    k.type(CTRL_D)
    k.check(k.read_until_prompt(), '')
    k.check(k.run('xargs nosuch'),
            'xargs: nosuch: No such file or directory\n')
    k.check(k.run('xargs -n 0'), "xargs: invalid number '0'\n")


def test_md5sum(k):
    k.run('echo abc > /tmp/a')
    k.run('echo -n abc > /tmp/b')
    # printf 'abc\n' | md5sum; printf abc | md5sum
    k.check(k.run('md5sum /tmp/a /tmp/b /nosuch'),
            '0bee89b07a248e27c83fc3d5951213c1  /tmp/a\n'
            '900150983cd24fb0d6963f7d28e17f72  /tmp/b\n'
            'md5sum: /nosuch: No such file or directory\n')
    k.type('md5sum\r')
    k.expect(r'md5sum\n')
    k.type('abc\r' + CTRL_D)
    k.check(k.read_until_prompt(),
            'abc\n0bee89b07a248e27c83fc3d5951213c1  -\n')


def test_expr(k):
    k.check(k.run("expr 1 + 2 '*' 3"), '7\n')
    k.check(k.run("expr '(' 1 + 2 ')' '*' 3"), '9\n')
    k.check(k.run('expr 7 / 2'), '3\n')
    k.check(k.run('expr -7 % 3'), '-1\n')
    k.check(k.run("expr 10 '>' 9"), '1\n')
    k.check(k.run("expr 10 '<' 9"), '0\n')
    k.check(k.run("expr b '>' abc"), '1\n')
    k.check(k.run("expr fib_main : 'fib_\\(.*\\)'"), 'main\n')
    k.check(k.run("expr fib_main : 'f[a-z]*'"), '3\n')
    k.check(k.run("expr '' '|' 0"), '0\n')
    k.check(k.run("expr 3 '&' 4"), '3\n')
    k.check(k.run('expr length hello'), '5\n')
    k.check(k.run('expr substr hello 2 3'), 'ell\n')
    k.check(k.run('expr index hello l'), '3\n')
    k.check(k.run('expr 7 % 0'), 'expr: division by zero\n')
    k.check(k.run('expr a + 1'), 'expr: non-numeric argument\n')
    k.check(k.run('expr 1 +'), 'expr: syntax error\n')
    k.check(k.run('expr'), 'expr: missing operand\n')
    k.check(k.run("expr a : '\\('"), 'expr: Unmatched ( or \\(\n')


def test_diff(k):
    make_file(k, '/tmp/d1', tuple('abcdefghij'))
    k.run("sed 's/b/B/;3d' /tmp/d1 > /tmp/d2")
    k.run('echo k >> /tmp/d2')
    k.check(k.run('diff /tmp/d1 /tmp/d2'),
            '2,3c2\n< b\n< c\n---\n> B\n10a10\n> k\n')
    k.check(k.run('diff -u /tmp/d1 /tmp/d2'),
            '--- /tmp/d1\n+++ /tmp/d2\n'
            '@@ -1,6 +1,5 @@\n a\n-b\n-c\n+B\n d\n e\n f\n'
            '@@ -8,3 +7,4 @@\n h\n i\n j\n+k\n')
    k.check(k.run('diff /tmp/d1 /tmp/d1'), '')
    k.check(k.run("sed -n '2,3p' /tmp/d1 > /tmp/d3"), '')
    k.check(k.run('diff /tmp/d3 /tmp/d1'),
            '0a1\n> a\n2a4,10\n> d\n> e\n> f\n> g\n> h\n> i\n> j\n')
    k.check(k.run('diff /tmp/d1 /tmp/d3'),
            '1d0\n< a\n4,10d2\n< d\n< e\n< f\n< g\n< h\n< i\n< j\n')
    k.check(k.run('diff /tmp/d1 /nosuch'),
            'diff: /nosuch: No such file or directory\n')
    k.check(k.run('diff /tmp/d1'), 'Usage: diff [-u] FILE1 FILE2\n')


def test_dd(k):
    k.run('echo 0123456789 > /tmp/n')
    k.check(k.run('dd if=/tmp/n bs=4'),
            '0123456789\n2+1 records in\n2+1 records out\n'
            '11 bytes copied\n')
    k.check(k.run('dd if=/tmp/n bs=4 count=1 skip=1 of=/tmp/m'),
            '1+0 records in\n1+0 records out\n4 bytes copied\n')
    k.check(k.run('cat /tmp/m'), '4567')
    k.check(k.run('dd if=/nosuch'),
            'dd: /nosuch: No such file or directory\n')
    k.check(k.run('dd bs=1x'), "dd: invalid number '1x'\n")
    k.check(k.run('dd foo=1'), "dd: unrecognized operand 'foo=1'\n")


def test_long_lines(k):
    # one line of 9001 bytes, longer than a read brings at once
    chunk = 'a' * 3000
    k.run('echo -n > /tmp/long')
    for _ in range(3):
        k.run(f'echo -n {chunk} >> /tmp/long')
    k.run('echo x >> /tmp/long')
    k.check(k.run("sed -n '$=' /tmp/long"), '1\n')
    k.check(k.run('grep -c a /tmp/long'), '1\n')
    k.check(k.run('cut -c 9000- /tmp/long'), 'ax\n')
    k.check(k.run("grep -o 'a*x$' /tmp/long"), chunk * 3 + 'x\n')


# --- awk ----------------------------------------------------------------

def test_awk_on_the_trace(k):
    fib_trace(k)
    k.check(k.run(f"awk '$NF == \"<-fib\" {{ n++ }} END {{ print n, NR }}' "
                  f'{T}/trace'), '176 189\n')
    # no arrays here
    k.check(k.run(f"awk '{{ c[$1] = 1 }}' {T}/trace"), 'awk: syntax error\n')
    k.check(k.run(f"awk '!/^#/ {{ print $NF }}' {T}/trace > /tmp/callers"),
            '')
    k.check(k.run('uniq -c /tmp/callers'),
            '      1 <-fib_main\n    176 <-fib\n')
    reset(k)


def test_awk(k):
    make_file(k, '/tmp/s', ('"b 10 x"', '"a 9 y"', '"c 100 x"'))
    k.check(k.run("awk '{ print $2 }' /tmp/s"), '10\n9\n100\n')
    k.check(k.run("awk '{ s += $2 } END { print s, NR, s / NR }' /tmp/s"),
            '119 3 39\n')
    k.check(k.run("awk '$2 > 9 { print NR \": \" $1 }' /tmp/s"),
            '1: b\n3: c\n')
    k.check(k.run("awk '$3 ~ /x/' /tmp/s"), 'b 10 x\nc 100 x\n')
    k.check(k.run("awk -F 0 '{ print NF }' /tmp/s"), '2\n1\n3\n')
    # no ?: here
    k.check(k.run("awk 'BEGIN { print 1 ? 2 : 3 }'"), 'awk: syntax error\n')
    k.check(k.run("awk 'BEGIN { for (i = 1; i <= 3; i++) printf \"%3d|\", "
                  "i * i; print \"\" }'"), '  1|  4|  9|\n')
    k.check(k.run("awk 'NR == 2 { print length($1), length }' /tmp/s"),
            '1 5\n')
    k.check(k.run("awk '{ print 1 / 0 }' /tmp/s"),
            'awk: division by zero\n')
    k.check(k.run("awk '{ print $1' /tmp/s"), 'awk: syntax error\n')
    k.check(k.run("awk 1 /nosuch"),
            'awk: /nosuch: No such file or directory\n')
    assert k.run('awk').startswith('Usage: awk ')


def test_ctrl_c_stops_an_awk_loop(k):
    k.type("awk 'BEGIN { while (1) n++ }'\r")
    k.expect(r"awk 'BEGIN \{ while \(1\) n\+\+ \}'\n")
    k.type(CTRL_C)
    k.check(k.read_until_prompt(), '^C\n')
    k.check(k.run('echo after'), 'after\n')
