# lib.sh: what the .tc scripts share, after Linux's ftracetest: the
# verdicts (exit 0 pass, 1 fail, 4 unsupported) and a clean tracer.
T=/sys/kernel/tracing

exit_pass() {
	exit 0
}

exit_fail() {
	echo "FAIL: $*" >&2
	exit 1
}

exit_unsupported() {
	exit 4
}

# Each command named must exist, or the test cannot run here.
require() {
	for c in "$@"; do
		command -v "$c" > /dev/null || exit_unsupported
	done
}

# The tracer as boot left it: nop, no filters, an empty buffer, on.
reset_tracer() {
	echo 0 > $T/tracing_on
	echo nop > $T/current_tracer
	echo > $T/set_ftrace_filter
	echo > $T/set_ftrace_notrace
	echo > $T/set_ftrace_pid
	echo > $T/set_graph_function
	echo 0 > $T/function_profile_enabled
	echo > $T/trace
	echo 1 > $T/tracing_on
}

# How many lines of a file match a shell pattern (grep -c without grep).
count_matching() {
	_n=0
	while IFS= read -r _l; do
		case $_l in
		$1) _n=$((_n + 1)) ;;
		esac
	done < "$2"
	echo $_n
}
