#!/usr/bin/env python3
"""listing.py: line-numbered listings of the code, taken from the tree,
as xv6's book prints its kernel (`make listing`).

A listing is named by `FILE:NAME`, where NAME is a C function, a
`#define`, `struct NAME`, an assembly label or an assembler `.macro`;
it runs from the comment just above the definition to its end, each
line numbered with its real line number in FILE, so nothing names a
line number that could drift.

  listing.py core    print the core: every function on the path of one
                     traced call (site, trampoline, ops dispatch,
                     function tracer, ring buffer write) as one listing
  listing.py write   regenerate every listing in docs/book/*.md (the
                     code block between `<!-- listing: FILE:NAME -->`
                     and `<!-- /listing -->`) and the core's line count
                     (between `<!-- core-lines -->` and
                     `<!-- /core-lines -->`) in the book and README.md
  listing.py check   the same, but only say what is stale; exit 1 if so
"""

import glob
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), '..'))

# The path of one call of fib while the function tracer and another ops
# both want it, so that its ops literal is ftrace_list_ops and
# ftrace_call goes through the list function: the C path of every step
# (ftrace_fast.S is its shortcut for a site that one ops alone wants).
CORE = [
    'kernel/demo/workloads.c:fib',
    'arch/riscv/kernel/mcount-dyn.S:ftrace_caller',
    'arch/riscv/include/asm/asm.h:PREEMPT_DISABLE',
    'arch/riscv/include/asm/asm.h:FTRACE_CALL_SLOT',
    'arch/riscv/include/asm/asm.h:FTRACE_GRAPH_CALL_SLOT',
    'arch/riscv/include/asm/asm.h:PREEMPT_ENABLE',
    'trace/ftrace.c:ftrace_ops_list_func',
    'trace/ftrace.c:ftrace_ops_test',
    'trace/trace_functions.c:function_trace_call',
    'trace/trace_functions.c:__function_trace_call',
    'trace/trace_functions.c:trace_function',
    'trace/trace.h:__tracing_gen_ctx_dec',
    'trace/ring_buffer_write.c:ring_buffer_write3',
    'trace/ring_buffer_write.c:rb_write_begin',
    'trace/ring_buffer_write.c:rb_reserve_fast',
    'trace/ring_buffer_write.c:rb_write_end',
]

LISTING = re.compile(r'^<!-- listing: ([\w./-]+):([\w ]+) -->\n'
                     r'(?:```\n.*?```\n)?<!-- /listing -->$', re.M | re.S)
CORE_LINES = re.compile(r'<!-- core-lines -->\d*<!-- /core-lines -->')


class ListingError(Exception):
    pass


def comment_start(lines, i):
    """Index of the first line of the comment that ends on line i - 1,
    or i if none does."""
    if i == 0 or not lines[i - 1].rstrip().endswith('*/'):
        return i
    j = i - 1
    while j > 0 and not lines[j].lstrip().startswith('/*'):
        j -= 1
    return j


def find_c_function(lines, name):
    """(first, last) of a C function's definition, or None."""
    head = re.compile(rf'^[\w \t*]*\b{re.escape(name)}\s*\(')
    for i, line in enumerate(lines):
        if not head.match(line) or line[0].isspace():
            continue
        j = i
        while j < len(lines) and lines[j] != '{':
            if lines[j].rstrip().endswith(';'):
                break
            j += 1
        if j == len(lines) or lines[j] != '{':
            continue
        end = lines.index('}', j)
        first = i
        # The return type on a line of its own above the name.
        if (i > 0 and re.match(r'^[A-Za-z_]', lines[i - 1]) and
                not lines[i - 1].rstrip().endswith(
                    ('*/', ';', '{', '}', ')', ','))):
            first = i - 1
        return first, end
    return None


def find_define(lines, name):
    pat = re.compile(rf'^#define\s+{re.escape(name)}\b')
    for i, line in enumerate(lines):
        if pat.match(line):
            end = i
            while lines[end].endswith('\\'):
                end += 1
            return i, end
    return None


def find_struct(lines, name):
    pat = re.compile(rf'^struct {re.escape(name)} {{$')
    for i, line in enumerate(lines):
        if pat.match(line):
            return i, lines.index('};', i)
    return None


def find_asm_macro(lines, name):
    pat = re.compile(rf'^\s*\.macro\s+{re.escape(name)}\b')
    for i, line in enumerate(lines):
        if pat.match(line):
            end = i
            while not re.match(r'^\s*\.endm\b', lines[end]):
                end += 1
            return i, end
    return None


def find_asm_label(lines, name):
    """From the label's directives (.globl, .balign) to the line before
    the next blank one."""
    for i, line in enumerate(lines):
        if line.startswith(f'{name}:'):
            first = i
            while first > 0 and re.match(r'^\s*\.(globl|balign|type)\b',
                                         lines[first - 1]):
                first -= 1
            end = i
            while end + 1 < len(lines) and lines[end + 1].strip():
                end += 1
            return first, end
    return None


def find_span(lines, path, name):
    """(first, last) of NAME's definition in FILE's lines, or None."""
    if name.startswith('struct '):
        return find_struct(lines, name[len('struct '):])
    finders = [find_asm_macro, find_define]
    if path.endswith('.S'):
        finders.append(find_asm_label)
    else:
        finders.insert(0, find_c_function)
    return next((s for s in (f(lines, name) for f in finders) if s), None)


def find(path, name):
    """(lines, first, last), 0-based and inclusive, of FILE:NAME with the
    comment above it."""
    full = os.path.join(ROOT, path)
    if not os.path.isfile(full):
        raise ListingError(f'{path}: no such file')
    lines = open(full).read().split('\n')
    try:
        span = find_span(lines, path, name)
    except (ValueError, IndexError):
        raise ListingError(f'{path}: {name} does not end')
    if span is None:
        raise ListingError(f'{path}: defines no {name}')
    first, last = span
    return lines, comment_start(lines, first), last


def numbered(path, name):
    """The listing of FILE:NAME, each line after its real number."""
    lines, first, last = find(path, name)
    return [f'{n + 1:4d}  {lines[n].expandtabs(8)}'.rstrip()
            for n in range(first, last + 1)]


def core():
    """The core listing as text, and how many source lines it holds."""
    out, count = [], 0
    for ref in CORE:
        path, name = ref.split(':')
        body = numbered(path, name)
        count += len(body)
        out += [f'==== {ref}'] + body + ['']
    return '\n'.join(out), count


def render_book(text):
    """The chapter with each listing made again from the tree."""
    def one(m):
        path, name = m.group(1), m.group(2)
        body = '\n'.join(numbered(path, name))
        return (f'<!-- listing: {path}:{name} -->\n```\n{body}\n```\n'
                '<!-- /listing -->')
    return LISTING.sub(one, text)


def render_count(text, count):
    return CORE_LINES.sub(f'<!-- core-lines -->{count}<!-- /core-lines -->',
                          text)


def documents():
    """The files make listing writes: the book's chapters and README."""
    return (sorted(glob.glob(os.path.join(ROOT, 'docs', 'book', '*.md'))) +
            [os.path.join(ROOT, 'README.md')])


def stale():
    """[(path, rendered text)] of each document whose listings are not
    what the tree holds now."""
    _, count = core()
    out = []
    for doc in documents():
        text = open(doc).read()
        new = render_count(render_book(text), count)
        if new != text:
            out.append((doc, new))
    return out


def main(argv):
    if len(argv) != 2 or argv[1] not in ('core', 'write', 'check'):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        if argv[1] == 'core':
            text, count = core()
            print(text)
            print(f'{count} lines')
            return 0
        changed = stale()
    except ListingError as e:
        print(f'listing: {e}', file=sys.stderr)
        return 1
    for doc, new in changed:
        short = os.path.relpath(doc, ROOT)
        if argv[1] == 'write':
            open(doc, 'w').write(new)
            print(f'listing: wrote {short}')
        else:
            print(f'listing: {short} is stale: make listing')
    return 1 if changed and argv[1] == 'check' else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
