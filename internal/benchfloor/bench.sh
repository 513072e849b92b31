#!/usr/bin/env bash
# bench.sh IDEMLINT FLOOR STATICCHECK: time, on the same packages (std, then
# the corpus of testdata/corpus/modules.txt), the idemlint suite, the same
# multichecker driver with a no-op analyzer (FLOOR: the load+typecheck floor)
# and `staticcheck -checks all` with a cold staticcheck cache. Prints wall
# time and peak RSS (/usr/bin/time -f '%e %M') of each and the ratios. The
# floor and the suite run BENCH_RUNS times each (default 3), one after the
# other, and the run of median wall time stands for each (a shared VM's
# speed drifts by 10-20% from minute to minute); staticcheck, which takes
# minutes with a cold cache, runs once. Run from the repository root (make
# bench).
#
# The whole script is one function, called on the last line: bash reads a
# script as it runs it, so an edit of this file during a run (which lasts
# many minutes) made the rest of the run execute whatever text then stood
# at the old offset ("line 59: t: command not found", and no corpus
# figures). A function body is read in full before anything runs.
set -euo pipefail

main() {
	idemlint=$(realpath "$1") floor=$(realpath "$2") staticcheck=$(realpath "$3")

	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	mkdir "$work/corpus"
	echo "machine: $(nproc) cores, $(free -g | awk '/^Mem:/{print $2}') GiB, $(go version | cut -d' ' -f3), load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "preparing the corpus module (go run ./internal/corpus/corpusrun -prepare)..."
	go run ./internal/corpus/corpusrun -prepare "$work/corpus" >"$work/patterns"
	mapfile -t corpus <"$work/patterns"

	run_set std std
	run_set corpus "${corpus[@]}"
}

# measure OK CMD...: run CMD in the corpus module, output to /dev/null,
# and print "wall_s peak_kb"; an exit status other than 0 or OK (3: idemlint
# findings, 1: staticcheck findings), or a panic, stops the bench.
measure() {
	local out rc ok=$1
	shift
	set +e
	(cd "$work/corpus" && GOFLAGS=-mod=mod GOWORK=off /usr/bin/time -o "$work/time" -f '%e %M' "$@" >/dev/null 2>"$work/stderr")
	rc=$?
	out=$(cat "$work/time")
	set -e
	if { [ $rc -ne 0 ] && [ $rc -ne "$ok" ]; } || grep -q '^panic:' "$work/stderr"; then
		echo "bench: $* failed ($rc)" >&2
		head -20 "$work/stderr" >&2
		tail -n1 <<<"$out" >&2
		exit 1
	fi
	tail -n1 <<<"$out"
}

# median FILE: the line of FILE ("wall_s peak_kb" lines) with the median
# wall time.
median() {
	sort -n "$1" | awk '{l[NR] = $0} END {print l[int((NR + 1) / 2)]}'
}

run_set() {
	local name=$1
	shift
	# Warm the Go build cache and export data, so the floor and the suite
	# (and staticcheck, which loads through the same go list -export) load
	# alike: the first run of each pays for compiling dependencies.
	(cd "$work/corpus" && GOFLAGS=-mod=mod GOWORK=off "$floor" -test=false "$@" >/dev/null 2>&1) || true
	local ft fm it im st sm runs=${BENCH_RUNS:-3} i
	: >"$work/floor.runs"
	: >"$work/suite.runs"
	for ((i = 0; i < runs; i++)); do
		measure 3 "$floor" -test=false "$@" >>"$work/floor.runs"
		measure 3 "$idemlint" -test=false "$@" >>"$work/suite.runs"
	done
	read -r ft fm < <(median "$work/floor.runs")
	read -r it im < <(median "$work/suite.runs")
	read -r st sm < <(measure 1 env STATICCHECK_CACHE="$work/sc-$name" "$staticcheck" -checks all -tests=false "$@")
	printf '\n== %s (%d patterns; load now %s)\n' "$name" "$#" "$(cut -d' ' -f1-3 /proc/loadavg)"
	printf 'floor runs (s): %s; suite runs (s): %s\n' "$(cut -d' ' -f1 "$work/floor.runs" | tr '\n' ' ')" "$(cut -d' ' -f1 "$work/suite.runs" | tr '\n' ' ')"
	printf '%-22s %9s %14s\n' tool "wall (s)" "peak RSS (MB)"
	printf '%-22s %9s %14.0f\n' "floor (no-op)" "$ft" "$(bc -l <<<"$fm/1024")"
	printf '%-22s %9s %14.0f\n' "idemlint suite" "$it" "$(bc -l <<<"$im/1024")"
	printf '%-22s %9s %14.0f\n' "staticcheck -checks all" "$st" "$(bc -l <<<"$sm/1024")"
	printf 'suite/floor: time %.2fx, memory %.2fx\n' "$(bc -l <<<"$it/$ft")" "$(bc -l <<<"$im/$fm")"
	printf 'suite/staticcheck: time %.2fx, memory %.2fx\n' "$(bc -l <<<"$it/$st")" "$(bc -l <<<"$im/$sm")"
}

# One line: bash has read it in full (the exit too) before it runs main.
main "$@"; exit
