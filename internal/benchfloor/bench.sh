#!/usr/bin/env bash
# bench.sh IDEMLINT FLOOR STATICCHECK: time, on the same packages (std, then
# the corpus of testdata/corpus/modules.txt), two routes.
#
# The standalone route: the idemlint suite, the same multichecker driver
# with a no-op analyzer (FLOOR: the load+typecheck floor) and `staticcheck
# -checks all` with a cold staticcheck cache, all with -test=false. The
# floor and the suite run BENCH_RUNS times each (default 3), one after the
# other, and the run of median wall time stands for each (a shared VM's
# speed drifts by 10-20% from minute to minute); staticcheck, which takes
# minutes with a cold cache, runs once. The suite's dependency cache
# (IDEMLINT_CACHE) is a fresh directory for each set: one run with it
# empty is timed apart (the cold figures), then the timed runs read it.
#
# The vet route: `go vet -vettool=IDEMLINT` against `go vet -vettool=FLOOR`
# (FLOOR under go vet is unitchecker with the no-op analyzer: it speaks the
# same protocol, parses and type-checks every package and writes its facts
# file, and analyses nothing), BENCH_RUNS times each, interleaved, test
# files included (go vet always vets them). No run replays a cached
# result: go vet caches each action's output and facts file under the
# tool's ID, the hash of its executable (-V=full), and every timed run gets
# a fresh copy of its tool with a different trailer (the ELF loader ignores
# it), so that every vet action runs; what the go command builds whatever
# the tool (the package graph, cgo's output, the packages it compiles) is
# warmed by one untimed run first, so that the timed runs cost the tools'
# work and no more. (A fresh GOCACHE, or go vet -a, would rebuild those
# too, the same for both tools, and hide the tools' difference in it.)
# Then one more run of each through a wrapper that logs every action's
# wall time and facts-file size (per action and facts figures), and the
# findings of the vet route, which must be those of the standalone driver
# with test files (`IDEMLINT -test=true PATTERNS`, compared as sets of
# path:line:col: message): the bench fails when they differ.
#
# Each run prints wall time and peak RSS (/usr/bin/time -f '%e %M'; under
# go vet that is its largest process) and the ratios, with the load
# average. BENCH_ROUTES (default "standalone vet") and BENCH_SETS (default
# "std corpus") select what runs; BENCH_VET_WARM=0 skips the vet route's
# warm-up run. Run from the repository root (make
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

	go build -o "$work/soaknorm" ./internal/benchfloor/soaknorm
	goroot=$(go env GOROOT) modcache=$(go env GOMODCACHE)
	local set route
	for set in ${BENCH_SETS:-std corpus}; do
		local -a patterns=(std)
		[ "$set" = corpus ] && patterns=("${corpus[@]}")
		for route in ${BENCH_ROUTES:-standalone vet}; do
			case $route in
			standalone) run_set "$set" "${patterns[@]}" ;;
			vet) run_vet_set "$set" "${patterns[@]}" ;;
			*) echo "bench: unknown route $route" >&2; exit 2 ;;
			esac
		done
	done
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
	local ft fm it im ct cm st sm runs=${BENCH_RUNS:-3} i
	# The suite's dependency cache (IDEMLINT_CACHE) starts empty: the first
	# run, timed apart, fills it (a run after every dependency changed);
	# the timed runs then read it, as the floor reads the export data the
	# go command's cache keeps.
	local cache="$work/idemlint-cache-$name"
	rm -rf "$cache"
	read -r ct cm < <(measure 3 env IDEMLINT_CACHE="$cache" "$idemlint" -test=false "$@")
	: >"$work/floor.runs"
	: >"$work/suite.runs"
	for ((i = 0; i < runs; i++)); do
		measure 3 "$floor" -test=false "$@" >>"$work/floor.runs"
		measure 3 env IDEMLINT_CACHE="$cache" "$idemlint" -test=false "$@" >>"$work/suite.runs"
	done
	read -r ft fm < <(median "$work/floor.runs")
	read -r it im < <(median "$work/suite.runs")
	read -r st sm < <(measure 1 env STATICCHECK_CACHE="$work/sc-$name" "$staticcheck" -checks all -tests=false "$@")
	printf '\n== %s (%d patterns; load now %s)\n' "$name" "$#" "$(cut -d' ' -f1-3 /proc/loadavg)"
	printf 'floor runs (s, MB): %s; suite runs (s, MB): %s\n' "$(awk '{printf "%s %.0f; ", $1, $2 / 1024}' "$work/floor.runs")" \
		"$(awk '{printf "%s %.0f; ", $1, $2 / 1024}' "$work/suite.runs")"
	printf '%-22s %9s %14s\n' tool "wall (s)" "peak RSS (MB)"
	printf '%-22s %9s %14.0f\n' "floor (no-op)" "$ft" "$(bc -l <<<"$fm/1024")"
	printf '%-22s %9s %14.0f\n' "idemlint suite" "$it" "$(bc -l <<<"$im/1024")"
	printf '%-22s %9s %14.0f\n' "suite, cold cache" "$ct" "$(bc -l <<<"$cm/1024")"
	printf '%-22s %9s %14.0f\n' "staticcheck -checks all" "$st" "$(bc -l <<<"$sm/1024")"
	printf 'suite/floor: time %.2fx, memory %.2fx\n' "$(bc -l <<<"$it/$ft")" "$(bc -l <<<"$im/$fm")"
	printf 'suite with a cold dependency cache/floor: time %.2fx, memory %.2fx\n' "$(bc -l <<<"$ct/$ft")" "$(bc -l <<<"$cm/$fm")"
	printf 'suite/staticcheck: time %.2fx, memory %.2fx\n' "$(bc -l <<<"$it/$st")" "$(bc -l <<<"$im/$sm")"
}

# vettool TOOL: a copy of TOOL that go vet has no cached result for (see
# the top of the file), printed.
vettool() {
	local copy
	copy=$(mktemp "$work/vettool.XXXXXX")
	cp "$1" "$copy"
	printf '\nbench %s\n' "$(date +%s%N)" >>"$copy"
	chmod +x "$copy"
	echo "$copy"
}

# vet_measure TOOL PATTERNS...: go vet -vettool=TOOL PATTERNS in the
# corpus module, stderr to $work/vet.stderr; prints "wall_s peak_kb
# user_s sys_s" (the CPU time of go vet and every tool process). go
# vet exits 1 on findings and on errors alike: an error is any line of
# output that soaknorm does not read as a finding, and stops the bench, as
# does an exit status above 1.
vet_measure() {
	local tool=$1 rc
	shift
	set +e
	(cd "$work/corpus" && GOFLAGS=-mod=mod GOWORK=off /usr/bin/time -o "$work/time" -f '%e %M %U %S' \
		go vet -vettool="$tool" "$@" >"$work/vet.stdout" 2>"$work/vet.stderr")
	rc=$?
	set -e
	# /usr/bin/time appends its line to the file; go vet writes nothing to stdout.
	if [ $rc -gt 1 ] || [ -s "$work/vet.stdout" ] ||
		! "$work/soaknorm" -format vet -dir "$work/corpus" -strip "$modcache" -strip "$goroot/src" \
			"$work/vet.stderr" >"$work/vet.findings" 2>"$work/vet.errors"; then
		echo "bench: go vet -vettool=$tool failed ($rc)" >&2
		head -20 "$work/vet.errors" "$work/vet.stdout" >&2
		exit 1
	fi
	tail -n1 "$work/time"
}

# actions LOG: per-action figures of one instrumented vet run: the number
# of actions, how many were for facts only, the sum and median of the
# tool's wall time (ms) for each kind, and the facts files' total size and
# that of their facts parts.
actions() {
	awk -F'\t' '
		{ n++; t = $3 / 1000; size += $4; facts += $5
		  if ($2 == "1") { nd++; dt[nd] = t; dsum += t } else { nr++; rt[nr] = t; rsum += t }
		  if ($5 > 0) nf++ }
		function median(a, k,   i, j, x) {
			for (i = 2; i <= k; i++) { x = a[i]; for (j = i - 1; j > 0 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
			return k ? a[int((k + 1) / 2)] : 0 }
		END {
			printf "%d actions: %d vetted (sum %.0f ms, median %.1f ms), %d for facts only (sum %.0f ms, median %.1f ms); ", n, nr, rsum, median(rt, nr), nd, dsum, median(dt, nd)
			printf "facts files %d bytes, of which facts %d bytes in %d files\n", size, facts, nf }' "$1"
}

# wrapper TOOL LOG: a vet tool that runs TOOL and appends, for each
# package action, "ID<TAB>VetxOnly (1 or 0)<TAB>wall µs<TAB>facts-file
# size<TAB>size of its facts part" to LOG; printed.
wrapper() {
	local w
	w=$(mktemp "$work/wrapper.XXXXXX")
	cat >"$w" <<EOW
#!/usr/bin/env bash
cfg=\${@: -1}
case \$cfg in
*.cfg) ;;
*) exec "$1" "\$@" ;;
esac
s=\$(date +%s%N)
"$1" "\$@"
rc=\$?
e=\$(date +%s%N)
out=\$(sed -n 's/^[[:space:]]*"VetxOutput": *"\\(.*\\)",*\$/\\1/p' "\$cfg")
id=\$(sed -n 's/^[[:space:]]*"ID": *"\\(.*\\)",*\$/\\1/p' "\$cfg")
only=0
grep -q '"VetxOnly": *true' "\$cfg" && only=1
size=0 facts=0
if [ -f "\$out" ]; then
	size=\$(stat -c %s "\$out")
	facts=\$(od -An -t u4 -j 8 -N 4 "\$out" | tr -d ' ')
fi
printf '%s\t%s\t%d\t%d\t%d\n' "\$id" \$only \$(((e - s) / 1000)) \$size \${facts:-0} >>"$2"
exit \$rc
EOW
	chmod +x "$w"
	echo "$w"
}

# run_vet_set NAME PATTERNS...: the vet route over PATTERNS (see the top
# of the file).
run_vet_set() {
	local name=$1
	shift
	local runs=${BENCH_RUNS:-3} i ft fm fu fs it im iu is
	echo
	echo "== $name, go vet -vettool ($# patterns; load at start $(cut -d' ' -f1-3 /proc/loadavg))"
	# Download the modules the packages' tests import first: on a fresh
	# machine go vet prints "go: downloading" lines, which are no findings.
	(cd "$work/corpus" && GOFLAGS=-mod=mod GOWORK=off go list -test -deps "$@" >/dev/null)
	# Warm what the go command builds whatever the tool (BENCH_VET_WARM=0
	# skips it, for a cache known warm).
	[ "${BENCH_VET_WARM:-1}" = 0 ] || vet_measure "$(vettool "$floor")" "$@" >/dev/null
	: >"$work/vfloor.runs"
	: >"$work/vsuite.runs"
	for ((i = 0; i < runs; i++)); do
		vet_measure "$(vettool "$floor")" "$@" >>"$work/vfloor.runs"
		vet_measure "$(vettool "$idemlint")" "$@" >>"$work/vsuite.runs"
		rm -f "$work"/vettool.*
	done
	read -r ft fm fu fs < <(median "$work/vfloor.runs")
	read -r it im iu is < <(median "$work/vsuite.runs")
	printf 'load after the timed runs %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
	printf 'floor runs (s): %s; idemlint runs (s): %s\n' "$(cut -d' ' -f1 "$work/vfloor.runs" | tr '\n' ' ')" "$(cut -d' ' -f1 "$work/vsuite.runs" | tr '\n' ' ')"
	printf 'run-by-run ratios: %s\n' "$(paste -d' ' "$work/vsuite.runs" "$work/vfloor.runs" | awk '{printf "%.2fx ", $1 / $5}')"
	printf '%-28s %9s %14s %15s\n' tool "wall (s)" "peak RSS (MB)" "user+sys (s)"
	printf '%-28s %9s %14.0f %15.1f\n' "go vet, floor (no-op)" "$ft" "$(bc -l <<<"$fm/1024")" "$(bc -l <<<"$fu+$fs")"
	printf '%-28s %9s %14.0f %15.1f\n' "go vet, idemlint" "$it" "$(bc -l <<<"$im/1024")" "$(bc -l <<<"$iu+$is")"
	printf 'idemlint/floor under go vet: time %.2fx, memory %.2fx, CPU %.2fx (medians by wall time)\n' \
		"$(bc -l <<<"$it/$ft")" "$(bc -l <<<"$im/$fm")" "$(bc -l <<<"($iu+$is)/($fu+$fs)")"
	# One instrumented run of each: per-action time and facts files.
	local tool
	for tool in floor idemlint; do
		: >"$work/$tool.actions"
		vet_measure "$(wrapper "$(vettool "${!tool}")" "$work/$tool.actions")" "$@" >/dev/null
		[ $tool = idemlint ] && cp "$work/vet.findings" "$work/vet.set"
		printf '%-8s per action: %s' "$tool" "$(actions "$work/$tool.actions")"
		echo
	done
	rm -f "$work"/vettool.* "$work"/wrapper.*
	# The same findings as the standalone driver, test files included.
	measure 3 "$idemlint" -test=true "$@" >/dev/null
	"$work/soaknorm" -format text -dir "$work/corpus" -strip "$modcache" -strip "$goroot/src" "$work/stderr" >"$work/standalone.set"
	sort -u -o "$work/standalone.set" "$work/standalone.set"
	sort -u -o "$work/vet.set" "$work/vet.set"
	if ! cmp -s "$work/standalone.set" "$work/vet.set"; then
		echo "bench: go vet -vettool=idemlint and idemlint -test=true disagree (< standalone only, > vet only):" >&2
		diff "$work/standalone.set" "$work/vet.set" | grep '^[<>]' | head -20 >&2
		exit 1
	fi
	echo "findings: the vet route and the standalone driver (-test=true) report the same $(wc -l <"$work/vet.set")"
}

# One line: bash has read it in full (the exit too) before it runs main.
main "$@"; exit
