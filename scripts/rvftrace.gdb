# rvftrace.gdb: what `make debug` loads into gdb-multiarch.
# The kernel is halted at reset; `continue` runs OpenSBI and boots.
set architecture riscv:rv64
set pagination off
target remote localhost:1234

# Where boot turns every site into a nop.
break ftrace_init
# Where a tracer change patches sites and ftrace_call (all harts stopped).
break ftrace_modify_all_code
# A traced call entering the trampoline, and a hooked return.
break ftrace_caller
break return_to_handler
# Stop only on the breakpoints above; keep the console free.
echo rvftrace: breakpoints on ftrace_init, ftrace_modify_all_code,\n
echo rvftrace: ftrace_caller and return_to_handler. Type `continue`.\n
# rv-tasks, rv-ret-stack, rv-site, rv-ops: ftrace's state (scripts/gdb/).
source scripts/gdb/rvftrace.py
echo rvftrace: rv-tasks, rv-ret-stack [PID], rv-site FUNC, rv-ops.\n
