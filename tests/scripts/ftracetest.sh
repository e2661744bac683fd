#!/bin/sh
# ftracetest.sh: run each test script (*.tc) in this folder in a shell
# of its own and print one line per script, as Linux's ftracetest does:
#   [N] DESCRIPTION	[PASS|FAIL|UNSUPPORTED]
# then the counts. Exit status: 0 when none failed.
dir=$(dirname "$0")
n=0
pass=0
fail=0
unsupported=0
for tc in "$dir"/*.tc; do
	n=$((n + 1))
	desc=$tc
	while IFS= read -r line; do
		case $line in
		"# description: "*) desc=${line#"# description: "}; break ;;
		esac
	done < "$tc"
	sh -c ". $dir/lib.sh; . $tc" > /tmp/ftracetest.log 2>&1
	case $? in
	0) verdict=PASS; pass=$((pass + 1)) ;;
	4) verdict=UNSUPPORTED; unsupported=$((unsupported + 1)) ;;
	*) verdict=FAIL; fail=$((fail + 1)); cat /tmp/ftracetest.log ;;
	esac
	echo "[$n] $desc	[$verdict]"
done
echo "# of passed:  $pass"
echo "# of failed:  $fail"
echo "# of unsupported:  $unsupported"
[ $fail = 0 ]
