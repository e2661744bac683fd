#!/usr/bin/env python3
"""docs.py: every sample output in README.md, docs/*.md and the book
(docs/book/*.md) from a real run.

A sample is a fenced block with a marker on the line before it:

    <!-- sample: kernel [OPTIONS] -->
    ```console
    rvftrace:/# cd /sys/kernel/tracing
    rvftrace:/sys/kernel/tracing# run fib 3
    fib(3) = 2
    ```

The lines that start with a prompt (`rvftrace:DIR# `) are typed at a
booted kernel, in order; what each prints replaces the lines below it,
and the prompt is the one the kernel printed. The samples of a document
run in one kernel, one after another, as a reader would type them; a
sample whose smp or append differs from the one before, or that says
`fresh`, boots a new one. OPTIONS:

    smp=N        harts (default 1)
    append=W,W   words of the kernel command line
    fresh        boot a new kernel for this sample
    grep=REGEX   keep only the output lines that match
    fold=N       an output over 2N+1 lines keeps its first and last N,
                 with `...` between
    errors       the sample shows an error on purpose (otherwise an
                 error a user would see fails the run)
    vary         its counts change from run to run (several harts
                 racing): `check` ignores every number in it
    timeout=S    seconds per command (default 120: a loaded host is slow)

    <!-- sample: boot grep=REGEX [smp=N] [append=W,W] -->
    ```
    ```

is the console output of a fresh boot up to the first prompt, the lines
that match REGEX, and

    <!-- sample: host COMMAND -->
    ```
    ```

is what COMMAND prints, run by sh at the top of the tree, with $B the
build directory.

Every kernel runs under `-icount shift=0,sleep=off`, so on one hart what
a sample counts is the same on every run of the same kernel; its
timestamps still move with the time the kernel idled waiting for the
typing. `compare` normalises those and what changes with the code
(addresses, instruction words, timestamps, durations, spacing) before
it compares.

    docs.py [--build B] write [FILE...]    rewrite the samples that changed
    docs.py [--build B] check [FILE...]    compare with a fresh run
"""

import argparse
import difflib
import glob
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), '..'))
sys.path.insert(0, os.path.join(ROOT, 'tests', 'console'))
import harness  # noqa: E402

MARKER = re.compile(r'^<!-- sample: (kernel|boot|host)\b(.*?)\s*-->$')
PROMPT = re.compile(r'^(rvftrace:[^#\n]*# )(.*)$')
ERRORS = ('command not found', 'No such file', 'write error', 'usage:',
          'Invalid argument', 'not a traceable function', 'no such')
BOOT_TIMEOUT = 120


class SampleError(Exception):
    """A sample could not be made, or shows an error it should not."""


def documents():
    return (sorted(glob.glob(os.path.join(ROOT, 'docs', '*.md'))) +
            sorted(glob.glob(os.path.join(ROOT, 'docs', 'book', '*.md'))) +
            [os.path.join(ROOT, 'README.md')])


class Sample:
    """One marked block: its kind, options, and the lines of its body."""

    def __init__(self, kind, args, fence, body, line):
        self.kind = kind
        self.fence = fence
        self.body = body
        self.line = line
        self.command = args.strip()
        self.opts = {}
        if kind != 'host':
            for word in shlex.split(args):
                key, _, value = word.partition('=')
                self.opts[key] = value
        self.smp = int(self.opts.get('smp', '1'))
        self.append = self.opts.get('append', '').replace(',', ' ') or None
        self.timeout = int(self.opts.get('timeout', '120'))

    def config(self):
        return (self.smp, self.append)

    def inputs(self):
        """The commands typed, in order."""
        return [m[2] for m in map(PROMPT.match, self.body) if m]


def parse(text):
    """Split a document into text lines and Samples, in order."""
    lines = text.split('\n')
    parts, i = [], 0
    while i < len(lines):
        m = MARKER.match(lines[i])
        if not m or i + 1 >= len(lines) or not lines[i + 1].startswith('```'):
            parts.append(lines[i])
            i += 1
            continue
        end = i + 2
        while end < len(lines) and lines[end] != '```':
            end += 1
        if end == len(lines):
            raise SampleError(f'{i + 1}: the sample never ends')
        parts.append(lines[i])
        parts.append(Sample(m[1], m[2], lines[i + 1], lines[i + 2:end], i + 1))
        parts.append('```')
        i = end + 1
    return parts


def parse_file(path):
    try:
        return parse(open(path).read())
    except SampleError as e:
        raise SampleError(f'{os.path.relpath(path, ROOT)}: {e}') from e


def fold(lines, n):
    if n and len(lines) > 2 * n + 1:
        return lines[:n] + ['...'] + lines[-n:]
    return lines


def keep(lines, sample):
    if 'grep' in sample.opts:
        lines = [line for line in lines
                 if re.search(sample.opts['grep'], line)]
    return fold(lines, int(sample.opts.get('fold', '0')))


class Runner:
    """Kernels for the samples of one document, booted as they need."""

    def __init__(self, build):
        self.build = build
        self.kernel = None
        self.config = None

    def boot(self, sample):
        self.close()
        self.kernel = harness.Kernel(build=self.build, smp=sample.smp,
                                     append=sample.append,
                                     timeout=BOOT_TIMEOUT,
                                     qemu_args=harness.ICOUNT)
        self.kernel.start()
        self.config = sample.config()

    def close(self):
        if self.kernel:
            try:
                self.kernel.poweroff()
            except harness.KernelError:
                pass        # it hung or crashed: close() kills it
            self.kernel.close()
        self.kernel = None

    def kernel_sample(self, sample):
        if (self.kernel is None or 'fresh' in sample.opts or
                sample.config() != self.config):
            self.boot(sample)
        k, body = self.kernel, []
        for cmd in sample.inputs():
            prompt = k.prompt()
            out = k.run(cmd, timeout=sample.timeout)
            bad = [e for e in ERRORS if e in out]
            if bad and 'errors' not in sample.opts:
                raise SampleError(f'`{cmd}` printed:\n{out}')
            body.append(prompt + cmd)
            body += keep(out.rstrip('\n').split('\n') if out else [], sample)
        return body

    def boot_sample(self, sample):
        k = harness.Kernel(build=self.build, smp=sample.smp,
                           append=sample.append, timeout=BOOT_TIMEOUT,
                           qemu_args=harness.ICOUNT)
        with k:
            text = k.output
            k.poweroff()
        return keep(text[:text.rfind('\n')].split('\n'), sample)

    def host_sample(self, sample):
        env = dict(os.environ, B=self.build)
        out = subprocess.run(['sh', '-c', sample.command], cwd=ROOT, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True)
        if out.returncode:
            raise SampleError(f'`{sample.command}` exited '
                              f'{out.returncode}:\n{out.stdout}')
        return out.stdout.rstrip('\n').split('\n')

    def run(self, sample):
        return {'kernel': self.kernel_sample, 'boot': self.boot_sample,
                'host': self.host_sample}[sample.kind](sample)


def regenerate(path, build):
    """[(sample, the body of a fresh run)] for one document."""
    parts = parse_file(path)
    runner = Runner(build)
    out = []
    try:
        for p in parts:
            if isinstance(p, Sample):
                out.append((p, runner.run(p)))
        return out
    except (SampleError, harness.KernelError, TimeoutError) as e:
        raise SampleError(f'{os.path.relpath(path, ROOT)}:{p.line}: {e}') \
            from e
    finally:
        runner.close()


def rewrite(path, build):
    """A sample the fresh run matches, as compare() sees it, is left as
    it is: only what changed moves in the diff."""
    parts = parse_file(path)
    fresh = iter(body for _, body in regenerate(path, build))
    out = []
    for p in parts:
        if isinstance(p, Sample):
            body, vary = next(fresh), 'vary' in p.opts
            if normalise(body, vary) == normalise(p.body, vary):
                body = p.body
            out += [p.fence] + body
        else:
            out.append(p)
    with open(path, 'w') as f:
        f.write('\n'.join(out))


NORMALISE = [
    (re.compile(r'0x[0-9a-f]+'), '0x_'),                 # addresses
    (re.compile(r'(calltime) \d+'), r'\1 _'),      # before: 8 digits
    (re.compile(r'\b[0-9a-f]{8}\b'), '_insn_'),          # instruction words
    (re.compile(r'(bytes:)(\s+[0-9a-f]{2})+'), r'\1 _'),  # a site's bytes
    (re.compile(r'[+!#*@$]?\s*\d+\.\d+'), '_t_'),        # times, durations
    (re.compile(r'[ \t]+'), ' '),                         # column widths
]


def normalise(lines, vary=False):
    out = []
    for line in lines:
        for pattern, repl in NORMALISE:
            line = pattern.sub(repl, line)
        if vary:    # after: the digits of an address or a word are theirs
            line = re.sub(r'\d+', '_', line)
        out.append(line.rstrip())
    return out


def compare(path, build):
    """A diff per sample whose fresh run differs, normalised."""
    diffs = []
    for sample, body in regenerate(path, build):
        vary = 'vary' in sample.opts
        want, got = normalise(sample.body, vary), normalise(body, vary)
        if want != got:
            name = f'{os.path.relpath(path, ROOT)}:{sample.line}'
            diffs.append('\n'.join(difflib.unified_diff(
                want, got, f'{name} (the document)', f'{name} (a fresh run)',
                lineterm='')))
    return diffs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--build', default='build')
    parser.add_argument('action', choices=('write', 'check'))
    parser.add_argument('files', nargs='*')
    args = parser.parse_args()
    build = os.path.join(ROOT, args.build)
    files = [os.path.abspath(f) for f in args.files] or documents()
    failed = 0
    for path in files:
        try:
            if args.action == 'write':
                rewrite(path, build)
                print(f'  DOCS    {os.path.relpath(path, ROOT)}')
                continue
            diffs = compare(path, build)
        except SampleError as e:
            print(e, file=sys.stderr)
            failed += 1
            continue
        for d in diffs:
            print(d)
        failed += bool(diffs)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
