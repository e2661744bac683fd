# rvftrace: a small RISC-V kernel built around a faithful dynamic ftrace.
#
# `make`        build build/kernel.elf (FTRACE=patchable, the default)
# `make run`    boot it in QEMU to the shell
# `make test`   host unit tests, in-kernel selftests and console tests
# `make fuzz`    the libFuzzer targets, FUZZ_SECONDS=60 each
# `make stress`  patch storm, soak, -ENOMEM sweep and console fuzzing
# `make mutate`  break the kernel in each of tests/mutants/'s ways: the
#                tests must notice (docs/testing.md)
# `make docs`    every sample output of README.md and docs/ from a real run
# `make lab LAB=NAME`, `make grade LAB=NAME`: the labs (docs/labs/)
# `make listing` the book's listings (docs/book/) from the tree, and the
#               core: the path of one traced call, line-numbered
# `make help`   list every target

CROSS	?= riscv64-unknown-elf-
CC	:= $(CROSS)gcc
OBJDUMP	:= $(CROSS)objdump
NM	:= $(CROSS)nm
HOSTCC	?= cc
CLANG	?= clang
PYTHON	?= python3
QEMU	?= qemu-system-riscv64
# scripts/checkelf.py imports scripts/kallsyms.py: leave no __pycache__.
export PYTHONDONTWRITEBYTECODE := 1

# FTRACE=patchable: -fpatchable-function-entry sites (the default)
# FTRACE=mcount:    classic -pg, `call _mcount` after the prologue
# FTRACE=static:    -pg without dynamic ftrace: every call of _mcount
#                   stays, and _mcount tests what to call (Linux
#                   without CONFIG_DYNAMIC_FTRACE; nothing is patched)
# FTRACE=none:      no instrumentation at all (the baseline for `make bench`)
FTRACE	?= patchable
# PAD_TEXT=SIZE (e.g. 3M): SIZE of padding in text between the untraced
# objects (the trampolines and every callback they call) and the traced
# ones, whose sites then lie beyond jal's reach and call the trampolines
# through their veneers (asm/ftrace_veneer.h). In build/pad.
PAD_TEXT ?=
ifneq ($(PAD_TEXT),)
B	?= build/pad
else ifeq ($(FTRACE),patchable)
B	?= build
else
B	?= build/$(FTRACE)
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

SMP	?= 4
MEM	?= 256M
APPEND	?=

# -Wno-unused-parameter as Linux builds: a callback takes the arguments
# of its type whether it uses them or not.
ARCH_FLAGS := -march=rv64imac_zicsr_zifencei -mabi=lp64 -mcmodel=medany
CFLAGS	:= $(ARCH_FLAGS) -ffreestanding -nostdlib -fno-builtin -fno-common \
	   -fno-omit-frame-pointer -fno-stack-protector -fno-pie -O2 -g \
	   -falign-functions=4 -fno-ipa-icf -Wall -Wextra -Werror -std=gnu11 \
	   -Wno-unused-parameter \
	   -Iinclude -Iarch/riscv/include -MMD -MP -DFTRACE_MODE_$(FTRACE)
ASFLAGS	:= $(ARCH_FLAGS) -Iinclude -Iarch/riscv/include -MMD -MP -D__ASSEMBLY__ \
	   -DFTRACE_MODE_$(FTRACE) -g
LDFLAGS	:= -nostdlib -static -Wl,--no-dynamic-linker -Wl,-T,linker.ld \
	   -Wl,--build-id=none

# Why a site is two halfwords: GCC under RVC emits two c.nop (4 bytes),
# which ftrace_init rewrites into one 4-byte nop (1 instruction when off)
# and which later holds one `jal t0, ftrace_caller` when on. The four
# c.nop before the entry (8 bytes, 8-aligned) are the site's ops
# literal, as Linux's DYNAMIC_FTRACE_WITH_CALL_OPS (asm/ftrace.h). The
# included header gives each traced object the veneers its sites call
# when the trampolines are out of jal's reach.
ifeq ($(FTRACE),patchable)
TRACE_FLAGS := -fpatchable-function-entry=6,4 -falign-functions=8 \
	       -include arch/riscv/include/asm/ftrace_veneer.h
# scripts/sorttable.py makes those two c.nop one nop at build time, 8
# bytes (the ops literal, FTRACE_OPS_LITERAL_SIZE) after each entry of
# the table it sorts; ftrace_init then only checks them.
SORTTABLE_FLAGS := --nop 8
else ifneq ($(filter mcount static,$(FTRACE)),)
TRACE_FLAGS := -pg
else
TRACE_FLAGS :=
endif

SRCS_C	:= $(wildcard arch/riscv/kernel/*.c arch/riscv/mm/*.c kernel/*.c \
	   kernel/drivers/*.c kernel/fs/*.c kernel/shell/*.c kernel/demo/*.c trace/*.c lib/*.c)
SRCS_S	:= $(wildcard arch/riscv/kernel/*.S)
# One trampoline family per build mode: -pg's calling convention in
# mcount-pg.S (mcount and static), the patchable sites' in mcount-dyn.S
# (as Kbuild picks objects by CONFIG_); what both share is in mcount.S.
# The static build has no site to patch: no arch/riscv/kernel/ftrace.c
# (Linux builds its patching part only with CONFIG_DYNAMIC_FTRACE).
OTHER_TRAMPOLINES := $(if $(filter mcount static,$(FTRACE)),mcount-dyn,mcount-pg)
SRCS_S	:= $(filter-out arch/riscv/kernel/$(OTHER_TRAMPOLINES).S,$(SRCS_S))
ifeq ($(FTRACE),static)
SRCS_C	:= $(filter-out arch/riscv/kernel/ftrace.c,$(SRCS_C))
endif
# Nor have the -pg builds veneers (asm/ftrace.h says why).
ifneq ($(filter mcount static,$(FTRACE)),)
SRCS_C	:= $(filter-out arch/riscv/kernel/ftrace_veneer.c,$(SRCS_C))
endif
OBJS	:= $(SRCS_C:%.c=$(B)/%.o) $(SRCS_S:%.S=$(B)/%.o)

# Never traced (Linux's CFLAGS_REMOVE_*), each for a reason:
#  arch/riscv/kernel/*   trap entry, SBI, SMP bring-up, the patcher itself
#  arch/riscv/mm/*       page tables, also used by the patcher's alias map
#  kernel/stop_machine   runs while sites change under it
#  kernel/rcu            __schedule calls it, the trampolines' way out too
#  kernel/spinlock       taken inside the tracer and the patcher
#  kernel/printk, uart   oops and ftrace_bug reports must not recurse
#  kernel/kallsyms       the trace output and backtraces call it
#  kernel/selftest       counts what the tracer does and must not be counted
#  kernel/jump_label.c, kernel/tracepoint.c, kernel/trace_preemptirq.c
#                        they patch text (inside stop_machine) and run
#                        every probe: the tracer's own machinery
#  lib/*                 string and printf run inside tracers
#  trace/*               the tracer must never trace itself
#  kernel/drivers/*, kernel/fs/9p*
#                        virtio and 9P carry trace_pipe_raw to the host:
#                        traced, a recording would record its own writing
#  kernel/shell/cmd_{bench,stress,patchsite,trace_cmd,fgraph}
#                        drive and measure the tracer: traced, they would
#                        count themselves
#  kernel/shell/trace_dat*  trace-cmd's trace.dat: traced, extract would
#                        record its own reading of the buffers
#  *_test.c, *_selftest.c  the selftests: available_filter_functions lists
#                        the kernel, not its tests; what they trace is in
#                        kernel/trace_fixtures.c, which stays traced
NOTRACE	:= arch/riscv/% kernel/stop_machine.c kernel/rcu.c \
	   kernel/jump_label.c kernel/tracepoint.c kernel/trace_preemptirq.c \
	   kernel/spinlock.c kernel/printk.c kernel/uart.c kernel/kallsyms.c \
	   kernel/selftest.c lib/% trace/% kernel/drivers/% kernel/fs/9p% \
	   $(addprefix kernel/shell/cmd_,$(addsuffix .c,bench stress patchsite \
	   trace_cmd fgraph)) kernel/shell/trace_dat% \
	   %_test.c %_selftest.c
traceflags = $(if $(filter $(NOTRACE),$(1)),,$(TRACE_FLAGS))

# PAD_TEXT's padding goes after every untraced object: the trampolines
# call only those (a callback is never traced) with one jal, and every
# traced site lies beyond it.
ifneq ($(PAD_TEXT),)
PAD_OBJ	:= $(B)/pad_text.o
OBJS	:= $(patsubst %.c,$(B)/%.o,$(filter $(NOTRACE),$(SRCS_C))) \
	   $(SRCS_S:%.S=$(B)/%.o) $(PAD_OBJ) \
	   $(patsubst %.c,$(B)/%.o,$(filter-out $(NOTRACE),$(SRCS_C)))
endif

# The sources are a wildcard, so a removed one leaves no newer object to
# trigger the link. $(B)/objects lists the objects and changes only when
# that list does (as Kbuild's filechk does), so the link depends on it;
# the objects of removed sources go with their old list.
OBJS_FILE := $(B)/objects
OLD_OBJS  := $(file <$(OBJS_FILE))
STALE_OBJS := $(filter-out $(OBJS),$(OLD_OBJS))
OBJS_CHANGED := $(STALE_OBJS)$(filter-out $(OLD_OBJS),$(OBJS))

# trace/trace.h is trace/'s own: the rooms above use include/tracing.h.
private_inc = $(if $(filter trace/%,$(1)),-Itrace)

# Per-file flags (Linux's CFLAGS_foo.o), each for a reason:
#  trace/trace_functions{,_graph}.c: no frame records, which would cost
#    each traced call 4 instructions in their callbacks; s0 is kept fixed,
#    so it goes on naming the caller's record and unwinders skip them.
CFLAGS_trace/trace_functions.o := -fomit-frame-pointer -ffixed-s0
CFLAGS_trace/trace_functions_graph.o := -fomit-frame-pointer -ffixed-s0
#  trace/ring_buffer_write.c: the same for the writers, called on every
#    event; and ring_buffer_write's copy loop stays a loop, which GCC
#    would otherwise turn into a call to memcpy.
CFLAGS_trace/ring_buffer_write.o := -fomit-frame-pointer -ffixed-s0 \
	-fno-tree-loop-distribute-patterns

# -pg leaves no table of its sites: scripts/recordmcount.py adds one to
# each traced object (its __mcount_loc section), and checks the linked
# kernel: one record per function that calls _mcount, nothing else. The
# static build patches none, but its filters name sites by them.
ifneq ($(filter mcount static,$(FTRACE)),)
RECORDMCOUNT := scripts/recordmcount.py
record_mcount = $(if $(call traceflags,$(1)),$(PYTHON) $(RECORDMCOUNT) $(2))
check_mcount = $(PYTHON) $(RECORDMCOUNT) --check $(1)
endif

.PHONY: all run initrd test fuzz help clean deps debug console bench \
	bench-scale stress asan-bins fuzz-bins trace-demo record mutate docs \
	listing lab grade grade-check FORCE
# A generator or check that fails must not leave its output looking done.
.DELETE_ON_ERROR:
all: $(B)/kernel.elf

# make sees only file times, so a change of flags (TRACE_FLAGS, NOTRACE,
# a per-file CFLAGS) would leave objects built the old way. As Kbuild's
# if_changed does, each object's command is kept beside it in
# $(B)/X.o.cmd, and the object is rebuilt when a prerequisite is newer
# or its own command changed, and no other. The test is make's own, with
# no shell run for an object that is up to date.
differ = $(subst $(strip $(1)),,$(strip $(2)))$(subst $(strip $(2)),,$(strip $(1)))
if_changed = $(if $(strip $(filter-out FORCE,$?) \
			  $(call differ,$(file <$@.cmd),$(1))),\
		 $(if $(Q),echo "  $(2)      $<" && )mkdir -p $(dir $@) && \
		 $(1) && printf '%s\n' '$(strip $(1))' > $@.cmd)
cc_cmd = $(CC) $(CFLAGS) $(CFLAGS_$*.o) $(call traceflags,$<) \
	 $(call private_inc,$<) -c $< -o $@ \
	 $(if $(call record_mcount,$<),&& $(call record_mcount,$<,$@))
as_cmd = $(CC) $(ASFLAGS) -c $< -o $@

$(B)/%.o: %.c $(RECORDMCOUNT) FORCE
	$(Q)$(call if_changed,$(cc_cmd),CC)

$(B)/%.o: %.S FORCE
	$(Q)$(call if_changed,$(as_cmd),AS)

# PAD_TEXT's padding: zeros in text, never run, remade when its size
# changes ($(B)/pad_text.size, rewritten only then).
PAD_SIZE_FILE := $(B)/pad_text.size
ifneq ($(strip $(file <$(PAD_SIZE_FILE))),$(PAD_TEXT))
$(PAD_SIZE_FILE): FORCE
	@mkdir -p $(B)
	@echo '$(PAD_TEXT)' > $@
endif

$(PAD_OBJ): $(PAD_SIZE_FILE)
	@mkdir -p $(dir $@)
	$(Q)printf '\t.section .text.pad, "ax"\n\t.space %s\n' \
		'$(subst M,*1024*1024,$(subst K,*1024,$(PAD_TEXT)))' | \
		$(CC) $(ARCH_FLAGS) -x assembler -c - -o $@

$(OBJS_FILE): FORCE
	$(if $(OBJS_CHANGED),$(Q)mkdir -p $(B) && \
		rm -f $(STALE_OBJS) $(STALE_OBJS:.o=.d) && echo $(OBJS) > $@)

# Two-pass link: kallsyms sits after .bss, so filling it in moves no
# other symbol; scripts/checkelf.py checks that on the second pass.
# The table is generated C, compiled without tracing flags.
$(B)/kernel.pass1.elf: $(OBJS) $(OBJS_FILE) $(B)/kallsyms0.o linker.ld
	$(CC) $(LDFLAGS) $(OBJS) $(B)/kallsyms0.o -o $@ -lgcc

$(B)/kallsyms0.c: scripts/kallsyms.py
	@mkdir -p $(B)
	$(PYTHON) scripts/kallsyms.py --empty > $@

$(B)/kallsyms.c: $(B)/kernel.pass1.elf scripts/kallsyms.py
	$(NM) -n -S $< > $(B)/kernel.pass1.nm
	$(PYTHON) scripts/kallsyms.py $(B)/kernel.pass1.nm > $@

$(B)/kallsyms0.o $(B)/kallsyms.o: %.o: %.c include/kallsyms.h
	$(CC) $(CFLAGS) -c $< -o $@

# The link map's cross references show who calls whom:
# scripts/check_layers.py fails the build on a call up the layers.
$(B)/kernel.elf: $(OBJS) $(OBJS_FILE) $(B)/kallsyms.o linker.ld \
		 scripts/checkelf.py scripts/check_layers.py \
		 scripts/sorttable.py $(RECORDMCOUNT)
	$(CC) $(LDFLAGS) $(OBJS) $(B)/kallsyms.o -o $@ -lgcc \
		-Wl,-Map,$(B)/kernel.map -Wl,--cref
	$(PYTHON) scripts/sorttable.py $(SORTTABLE_FLAGS) $@
	$(NM) -n $@ > $(B)/kernel.sym
	$(PYTHON) scripts/checkelf.py $(B)/kernel.pass1.nm $(B)/kernel.sym
	$(PYTHON) scripts/check_layers.py $(B)/kernel.map
	$(call check_mcount,$@)
	$(OBJDUMP) -d $@ > $(B)/kernel.asm

# SHARE=DIR: the host folder DIR is /mnt/host in the guest, a
# virtio-9p device on virtio-mmio's modern layout (docs/virtio.md).
SHARE	?=
SHARE_ARGS = -global virtio-mmio.force-legacy=false \
	     -fsdev local,id=share,path=$(SHARE),security_model=none \
	     -device virtio-9p-device,fsdev=share,mount_tag=host
QEMU_ARGS = -machine virt -smp $(SMP) -m $(MEM) -nographic -bios default \
	    -kernel $(B)/kernel.elf $(if $(APPEND),-append "$(APPEND)") \
	    $(if $(SHARE),$(SHARE_ARGS)) \
	    $(if $(INITRD),-initrd $(INITRD))

# The unused-function check (tests/host/test_unused.py): each source
# again with a section per function and per object, linked with
# --gc-sections; a function the linker drops, nothing references.
# Untraced, since the site tables (__patchable_function_entries,
# __mcount_loc) point at every traced function and would keep it; not
# inlined, since a call inlined everywhere leaves no reference.
GC	:= $(B)/gc
GC_OBJS	:= $(SRCS_C:%.c=$(GC)/%.o) $(SRCS_S:%.S=$(GC)/%.o)
GC_FLAGS := -ffunction-sections -fdata-sections -fno-inline
# A function nothing calls, which the check must find.
GC_PROBE := $(GC)/tests/host/fixtures/unused_probe.o

$(GC)/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(GC_FLAGS) -c $< -o $@

$(GC)/%.o: %.S
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ASFLAGS) -c $< -o $@

# $(GC)/NAME.removed: the sections the linker removed, one line each;
# $(GC)/NAME.sym: the symbols it kept.
gc_link = $(CC) $(LDFLAGS) -Wl,--gc-sections -Wl,--print-gc-sections \
	  $(1) $(B)/kallsyms0.o -o $(2).elf -lgcc 2> $(2).removed && \
	  $(NM) $(2).elf > $(2).sym

$(GC)/kernel.removed: $(GC_OBJS) $(OBJS_FILE) $(B)/kallsyms0.o linker.ld
	$(Q)$(call gc_link,$(GC_OBJS),$(GC)/kernel)

$(GC)/probe.removed: $(GC_OBJS) $(GC_PROBE) $(OBJS_FILE) $(B)/kallsyms0.o \
		     linker.ld
	$(Q)$(call gc_link,$(GC_OBJS) $(GC_PROBE),$(GC)/probe)

run: deps $(B)/kernel.elf
	$(QEMU) $(QEMU_ARGS)

# `make initrd DIR=folder`: a cpio archive of it for `make run INITRD=...`
initrd:
	$(Q)test -n "$(DIR)" || { echo "usage: make initrd DIR=folder [OUT=file]"; exit 2; }
	$(Q)mkdir -p $(B)
	$(PYTHON) scripts/mkinitramfs.py $(DIR) $(or $(OUT),$(B)/initrd.cpio)

debug: deps $(B)/kernel.elf
	scripts/debug.sh $(B)/kernel.elf $(SMP) $(MEM)

# The console of `make debug`'s kernel, from a second terminal.
console:
	$(PYTHON) scripts/console.py $(B)/console.sock

deps:
	@CROSS=$(CROSS) QEMU=$(QEMU) HOSTCC=$(HOSTCC) CLANG=$(CLANG) \
		scripts/deps.sh

# --- tests -------------------------------------------------------------
HOST_TESTS := $(wildcard tests/host/test_*.c)
HOST_BINS  := $(HOST_TESTS:tests/host/%.c=$(B)/host/%)
# Host tests in Python (the scripts/ tools): run_all.py runs them as is.
HOST_PY    := $(wildcard tests/host/test_*.py)
# Host tests #include the kernel sources they test; -MMD tracks which.
HOST_CFLAGS := -O1 -g -Wall -Wextra -Werror -Wno-unused-parameter \
	       -std=gnu11 -DHOST_TEST \
	       -Iinclude -Iarch/riscv/include -Itrace -Itests/host -MMD -MP

$(B)/host/%: tests/host/%.c
	@mkdir -p $(dir $@)
	$(HOSTCC) $(HOST_CFLAGS) $< -o $@

# test_kallsyms includes kernel/kallsyms.c and a table generated from a
# fixed nm listing, so it checks scripts/kallsyms.py too.
$(B)/host/test_kallsyms: kernel/kallsyms.c $(B)/host/kallsyms_table.c
$(B)/host/test_kallsyms: HOST_CFLAGS += -I$(B)/host

$(B)/host/kallsyms_table.c: tests/host/kallsyms.nm scripts/kallsyms.py
	@mkdir -p $(dir $@)
	$(PYTHON) scripts/kallsyms.py $< > $@

# --- sanitizers and fuzzing ---------------------------------------------
# Each host test again under ASan and UBSan, and one libFuzzer target
# per parser (tests/fuzz/fuzz_*.c), all built with clang. Without clang
# and its runtimes, `make test` reports them skipped and `make fuzz`
# does nothing, each saying why.
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
	     -fno-omit-frame-pointer
ASAN_BINS := $(HOST_TESTS:tests/host/%.c=$(B)/host-asan/%)
FUZZ_BINS := $(patsubst tests/fuzz/%.c,$(B)/fuzz/%,\
	     $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_CFLAGS := $(subst -Itests/host,-Itests/fuzz,$(HOST_CFLAGS))
# `make fuzz`: seconds per target; `make test`: runs per target.
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?= 50000
NO_FUZZER := $(CLANG) cannot build sanitized libFuzzer binaries \
	     (Debian: apt-get install clang libclang-rt-14-dev)
# $(call if_fuzzer,COMMANDS): run them if clang can, else say why not.
if_fuzzer = if scripts/have_fuzzer.sh $(CLANG); then $(1); \
	    else echo "$@: skipping sanitized builds: $(NO_FUZZER)"; fi

$(B)/host-asan/%: tests/host/%.c
	@mkdir -p $(dir $@)
	$(CLANG) $(HOST_CFLAGS) $(SAN_FLAGS) $< -o $@

$(B)/host-asan/test_kallsyms: kernel/kallsyms.c $(B)/host/kallsyms_table.c
$(B)/host-asan/test_kallsyms: HOST_CFLAGS += -I$(B)/host

$(B)/fuzz/%: tests/fuzz/%.c
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_CFLAGS) $(SAN_FLAGS) -fsanitize=fuzzer $< -o $@

# Goals for the sub-makes below, which would call each binary a goal
# and say it is up to date.
asan-bins: $(ASAN_BINS)
	@:
fuzz-bins: $(FUZZ_BINS)
	@:

# The -pg build's selftests run too: the same core on the other sites;
# the static build's once, on 1 CPU (the same core, nothing patched);
# the PAD_TEXT=3M build's tracer suites and console test_far_sites.py,
# on 1 CPU (every traced site beyond jal's reach, called through a veneer);
# and 5 mutants of the catalogue, chosen by MUTATE_SEED (empty: from the
# commit), each a test that passes when the suite kills it.
MUTATE_SEED ?=
test: deps $(B)/kernel.elf $(HOST_BINS) $(GC)/kernel.removed \
      $(GC)/probe.removed
	$(Q)$(call if_fuzzer,$(MAKE) --no-print-directory asan-bins fuzz-bins)
	$(Q)$(MAKE) --no-print-directory FTRACE=mcount all
	$(Q)$(MAKE) --no-print-directory FTRACE=static all
	$(Q)$(MAKE) --no-print-directory PAD_TEXT=3M all
	$(PYTHON) tests/run_all.py --build $(B) $(HOST_BINS) $(HOST_PY) \
		$(ASAN_BINS) --fuzz $(FUZZ_BINS) --fuzz-runs $(FUZZ_RUNS) \
		--mcount-build build/mcount --static-build build/static \
		--pad-build build/pad \
		--mutants=$(MUTATE_SEED)

# Every mutant (MUTANTS=a,b: only those), MUTATE_JOBS at a time, each
# in its own copy of the tree under build/mutate/.
MUTANTS ?=
MUTATE_JOBS ?= 2
mutate: deps all
	$(PYTHON) scripts/mutate.py -j $(MUTATE_JOBS) $(MUTANTS)

fuzz: deps
	$(Q)$(call if_fuzzer,$(MAKE) --no-print-directory fuzz-bins && \
		$(PYTHON) tests/fuzz/run_fuzz.py --build $(B) \
			--seconds $(FUZZ_SECONDS) $(FUZZ_BINS))

# Instruction counts under -icount: this build, the uninstrumented
# baseline, the -pg build and the static one (static -> -pg -> patchable:
# each step of the climb measured), each booted with -smp 1; then README's
# figures are rewritten from them (docs/bench.json keeps the copy that
# tests/host/test_bench_readme.py checks README against).
bench: deps
	$(MAKE) FTRACE=patchable all
	$(MAKE) FTRACE=none all
	$(MAKE) FTRACE=mcount all
	$(MAKE) FTRACE=static all
	$(PYTHON) scripts/bench.py build/bench.json build build/none \
		build/mcount build/static
	cp build/bench.json docs/bench.json
	$(PYTHON) scripts/bench.py --readme docs/bench.json README.md

# The cost of a switch of tracer against the number of harts, 1 to 64,
# in both patch modes, under -icount: docs/scale.md's table and charts
# and docs/scale.svg (scripts/bench_scale.py). A few minutes: not part
# of `make test`.
bench-scale: deps $(B)/kernel.elf
	$(PYTHON) scripts/bench_scale.py $(B) $(B)/bench_scale.json \
		docs/scale.md docs/scale.svg
	cp $(B)/bench_scale.json docs/bench_scale.json

# function_graph of `run sort 2000`, captured at the console, as text,
# Perfetto JSON and a flame graph (docs/export.md).
trace-demo: deps $(B)/kernel.elf
	$(PYTHON) scripts/trace_demo.py --build $(B) --smp $(SMP) --out $(B)

# `make record CMD='run fib 10' [TRACER=function_graph] [EVENTS=sched]
# [FILTER=fib]`: the guest's trace-cmd record into $(B)/trace.dat, over
# the shared folder, then the host's trace-cmd report (docs/export.md).
CMD	?= run fib 10
record: deps $(B)/kernel.elf
	$(PYTHON) scripts/record.py --build $(B) --smp $(SMP) --cmd "$(CMD)" \
	    $(if $(TRACER),--tracer $(TRACER)) \
	    $(foreach e,$(EVENTS),--events $(e)) \
	    $(foreach f,$(FILTER),--filter $(f))

# Reliability on SMP=4, with figures in $(B)/stress.json; ARGS passes
# options to scripts/stress.py (--ops N --soak SECONDS --seed N ...).
stress: deps $(B)/kernel.elf
	$(PYTHON) scripts/stress.py --build $(B) $(ARGS)

# Every sample of README.md and docs/*.md made again from a real run:
# the blocks after a `<!-- sample: ... -->` marker (scripts/docs.py).
docs: deps $(B)/kernel.elf
	$(PYTHON) scripts/docs.py --build $(B) write

# The book's listings (docs/book/): each `<!-- listing: FILE:NAME -->`
# block and the core's line count made again from the tree; then the
# core itself, every function on the path of one traced call, printed
# as one numbered listing (scripts/listing.py).
listing:
	$(PYTHON) scripts/listing.py write
	$(PYTHON) scripts/listing.py core

# The labs (tests/labs/NAME.lab, docs/labs/NAME.md): `make lab` copies
# the tree to build/lab/LAB with the lab's functions stubbed; `make
# grade`, run in that copy, grades them (in this tree: full marks);
# `make grade-check` grades a clean copy, which must score full marks,
# and each lab's stub and mutants, which must lose points (slow:
# LABS=a,b for some).
LAB	?=
LABS	?=
comma	:= ,
lab: deps
	$(PYTHON) scripts/lab.py start $(LAB)

grade: deps
	$(PYTHON) scripts/lab.py grade $(LAB)

grade-check: deps
	$(PYTHON) scripts/lab.py grade-check --clean $(subst $(comma), ,$(LABS))

help:
	@echo "Targets:"
	@echo "  all (default)  build $(B)/kernel.elf"
	@echo "  run            boot in QEMU (SMP=$(SMP) MEM=$(MEM) APPEND=... INITRD=file)"
	@echo "  initrd         DIR=folder: a cpio archive of it, build/initrd.cpio"
	@echo "  test           host tests (also under ASan+UBSan), short fuzz"
	@echo "                 runs, selftests and console tests"
	@echo "  fuzz           each fuzz target for FUZZ_SECONDS=$(FUZZ_SECONDS)"
	@echo "  bench          -icount instruction counts: build/bench.json, README"
	@echo "  bench-scale    switch costs on 1 to 64 harts, both patch modes: docs/scale.md"
	@echo "  trace-demo     function_graph of run sort 2000: $(B)/trace.txt, trace.json, flame.svg"
	@echo "  record         CMD='run fib 10' [TRACER=...] [EVENTS=sched]: $(B)/trace.dat, trace-cmd report"
	@echo "  stress         patch storm, soak, -ENOMEM sweep, console fuzzing (SMP=4)"
	@echo "  mutate         the tests must kill each mutant (MUTANTS=a,b)"
	@echo "  debug          QEMU halted with a gdb stub, and gdb-multiarch"
	@echo "  console        the console of make debug's kernel (Ctrl-] quits)"
	@echo "  docs           every sample of README.md and docs/ from a real run"
	@echo "  listing        the book's listings (docs/book/), and print the core"
	@echo "  lab            LAB=NAME: a copy of the tree in build/lab/NAME to do it in"
	@echo "  grade          LAB=NAME: points per test of the lab, and the total"
	@echo "  grade-check    each lab's stub and mutants must lose points (LABS=a,b)"
	@echo "  deps           check or install the toolchain, QEMU, OpenSBI"
	@echo "  clean          remove build/"
	@echo "Variables: FTRACE=patchable|mcount|static|none SMP=N MEM=SIZE APPEND=..."
	@echo "           MUTATE_SEED=N (make test's 5 mutants) MUTATE_JOBS=N"

clean:
	rm -rf build

-include $(OBJS:.o=.d) $(GC_OBJS:.o=.d) $(GC_PROBE:.o=.d) $(HOST_BINS:=.d) \
	 $(ASAN_BINS:=.d) $(FUZZ_BINS:=.d)
