#!/usr/bin/env bash
# soak.sh IDEMLINT CUSTOM_GCL: "no crash, same answer". Runs each of the
# three drivers of the suite twice over std and twice over the corpus of
# testdata/corpus/modules.txt (the same generated corpus module as
# bench.sh), tests included:
#
#   idemlint     IDEMLINT PATTERNS                  exit 0 or 3 (findings); three
#                runs: the first with an empty dependency cache
#                (IDEMLINT_CACHE), the second with IDEMLINT_PREFILTER=check
#                (every dependency analysed, and an error if one the
#                prefilters skip has facts), the third reading the cache
#   vet          go vet -vettool=IDEMLINT PATTERNS  exit 0 or 1 (findings or errors)
#   golangci     CUSTOM_GCL run -c CONFIG DIRS      exit 0 or 1 (issues)
#
# and fails on any other exit status, on any line of output that is not a
# finding (a panic, an analyzer or driver error, a typecheck issue, a
# golangci-lint warning), when a driver's runs differ (findings
# normalized by soaknorm and sorted), and when the drivers disagree on a
# set's findings (file:line:col: message, duplicates removed). It prints
# wall time and peak RSS of every run.
#
# Every run computes its findings again: go vet gets a copy of IDEMLINT
# that hashes differently (go vet caches results by the tool's hash), and
# golangci-lint a fresh cache; the Go build cache (compiled dependencies,
# export data) stays warm for all.
#
# golangci-lint runs with only the idemlint plugin enabled and its defaults
# switched off where they would hide findings (issue limits, one issue per
# line, its own generated-file filter; the suite drops findings in
# generated files itself). It takes directories, so it gets the
# directories of the same packages (go list -f {{.Dir}}).
#
# Environment: SOAK_SETS (default "std corpus"); SOAK_OUT, a directory to
# keep every output in (default: a temporary directory, removed).
# Run from the repository root (make soak).
#
# As in bench.sh, everything is inside main, so that an edit of this file
# during a run cannot change what the run executes.
set -euo pipefail

main() {
	idemlint=$(realpath "$1") gcl=$(realpath "$2")
	sets=${SOAK_SETS:-std corpus}
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	out=${SOAK_OUT:-$work/out}
	mkdir -p "$out" "$work/corpus"
	out=$(realpath "$out")
	goroot=$(go env GOROOT) modcache=$(go env GOMODCACHE)
	echo "soak: $(date -u '+%F %T') UTC, $(nproc) cores, $(go version | cut -d' ' -f3), load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "idemlint $idemlint ($(sha256sum "$idemlint" | cut -c1-12)), golangci-lint $gcl ($(sha256sum "$gcl" | cut -c1-12))"
	go build -o "$work/soaknorm" ./internal/benchfloor/soaknorm
	echo "preparing the corpus module (go run ./internal/corpus/corpusrun -prepare)..."
	go run ./internal/corpus/corpusrun -prepare "$work/corpus" >"$work/corpus.patterns"
	echo std >"$work/std.patterns"
	write_golangci_config "$work/golangci.yml"

	failed=0
	for set in $sets; do
		mapfile -t patterns <"$work/$set.patterns"
		# The test packages' dependencies are not in the corpus module's
		# go.sum yet (-mod=mod adds them): fetch them before timing.
		in_corpus go list -e -test -deps "${patterns[@]}" >/dev/null 2>"$out/$set.fetch.log"
		mapfile -t dirs < <(in_corpus go list -f '{{.Dir}}' "${patterns[@]}")
		echo
		echo "== $set: ${#patterns[@]} patterns, ${#dirs[@]} packages (load $(cut -d' ' -f1-3 /proc/loadavg))"
		rm -rf "$work/idemlint-cache"
		for driver in idemlint vet golangci; do
			local runs="1 2" run
			[ "$driver" = idemlint ] && runs="1 2 3"
			for run in $runs; do
				soak_run "$set" "$driver" "$run" || failed=1
			done
			for run in ${runs#1 }; do
				if cmp -s "$out/$set.$driver.1.findings" "$out/$set.$driver.$run.findings"; then
					echo "$set $driver: runs 1 and $run are identical"
				else
					echo "$set $driver: runs 1 and $run DIFFER:"
					diff "$out/$set.$driver.1.findings" "$out/$set.$driver.$run.findings" | head -20 || true
					failed=1
				fi
			done
		done
		for driver in idemlint vet golangci; do
			sort -u "$out/$set.$driver.1.findings" >"$out/$set.$driver.set"
		done
		for driver in vet golangci; do
			if cmp -s "$out/$set.idemlint.set" "$out/$set.$driver.set"; then
				echo "$set: idemlint and $driver report the same $(wc -l <"$out/$set.$driver.set") findings"
			else
				echo "$set: idemlint and $driver DISAGREE (< only idemlint, > only $driver):"
				diff "$out/$set.idemlint.set" "$out/$set.$driver.set" | grep '^[<>]' | head -20 || true
				failed=1
			fi
		done
	done
	echo
	if [ $failed -ne 0 ]; then
		echo "soak: FAILED ($(date -u '+%T') UTC)"
		return 1
	fi
	echo "soak: ok ($(date -u '+%T') UTC)"
}

in_corpus() {
	(cd "$work/corpus" && GOFLAGS=-mod=mod GOWORK=off "$@")
}

# soak_run SET DRIVER RUN: run DRIVER over SET, leave its normalized
# findings in $out/SET.DRIVER.RUN.findings, print one line of figures and
# the errors; return 1 on an error.
soak_run() {
	local set=$1 driver=$2 run=$3 ok format raw rc
	local base="$out/$set.$driver.$run"
	local -a cmd
	case $driver in
	idemlint)
		ok=3 format=text raw=$base.stderr
		# The first run fills a dependency cache of its own; the second
		# analyses what the first skipped (the cache is not used then):
		# the same findings, and no fact where a prefilter said there is
		# none; the third reads the dependencies' outcomes from the cache.
		cmd=(env IDEMLINT_CACHE="$work/idemlint-cache" "$idemlint" "${patterns[@]}")
		[ "$run" = 2 ] && cmd=(env IDEMLINT_PREFILTER=check "${cmd[@]}")
		;;
	vet)
		ok=1 format=vet raw=$base.stderr
		# go vet caches each package's result under the tool's ID, the
		# hash of its executable (-V=full): a copy with a different
		# trailer (the ELF loader ignores it) runs the same code uncached.
		cp "$idemlint" "$work/vettool"
		printf '\nsoak %s %s %s\n' "$set" "$run" "$(date +%s%N)" >>"$work/vettool"
		cmd=(go vet -vettool="$work/vettool" "${patterns[@]}")
		;;
	golangci)
		ok=1 format=golangci raw=$base.json
		rm -rf "$work/gcl-cache"
		cmd=(env GOLANGCI_LINT_CACHE="$work/gcl-cache" "$gcl" run -c "$work/golangci.yml"
			--output.json.path="$raw" "${dirs[@]}")
		;;
	esac
	set +e
	in_corpus /usr/bin/time -o "$base.time" -f '%e %M' "${cmd[@]}" >"$base.stdout" 2>"$base.stderr"
	rc=$?
	set -e
	local wall peak
	read -r wall peak < <(tail -n1 "$base.time")
	local status=ok
	: >"$base.errors"
	if [ "$rc" -ne 0 ] && [ "$rc" -ne "$ok" ]; then
		echo "exit status $rc" >>"$base.errors"
	fi
	# Whatever the driver prints beside its findings is an error.
	if [ "$format" = golangci ]; then
		cat "$base.stdout" "$base.stderr" >>"$base.errors"
	else
		cat "$base.stdout" >>"$base.errors"
	fi
	if [ -s "$raw" ]; then
		"$work/soaknorm" -format "$format" -dir "$work/corpus" -strip "$modcache" -strip "$goroot/src" \
			"$raw" >"$base.findings" 2>>"$base.errors" || true
	else
		: >"$base.findings"
		[ "$format" = golangci ] && echo "no JSON output" >>"$base.errors"
	fi
	if grep -qi 'panic' "$base.errors"; then
		status=PANIC
	elif [ -s "$base.errors" ]; then
		status=ERROR
	fi
	printf '%-7s %-9s run %s: %8.1f s %7.0f MB  exit %d  %5d findings  %s\n' \
		"$set" "$driver" "$run" "$wall" "$(bc -l <<<"$peak/1024")" "$rc" "$(wc -l <"$base.findings")" "$status"
	if [ "$status" != ok ]; then
		head -30 "$base.errors" | sed 's/^/    /'
		return 1
	fi
}

write_golangci_config() {
	cat >"$1" <<'EOF'
version: "2"
run:
  timeout: 0
  tests: true
  relative-path-mode: wd
output:
  path-mode: abs
  show-stats: false
linters:
  default: none
  enable:
    - idemlint
  settings:
    custom:
      idemlint:
        type: module
        description: retry and idempotency-key checks (idemlint)
        original-url: https://github.com/idemlint/idemlint
        settings: {}
  exclusions:
    generated: disable
issues:
  max-issues-per-linter: 0
  max-same-issues: 0
  uniq-by-line: false
EOF
}

# One line: bash has read it in full (the exit too) before it runs main.
main "$@"; exit
