#!/usr/bin/env bash
# bench.sh IDEMLINT FLOOR PATTERN...: run the idemlint suite and the no-op
# floor over the same packages, each from a warm build cache, and print wall
# time, peak memory and the ratios.
set -euo pipefail
idemlint=$1 floor=$2
shift 2
measure() {
	local out
	out=$( { /usr/bin/time -f '%e %M' "$@" >/dev/null 2>/dev/null; } 2>&1 | tail -n1 ) || true
	echo "$out"
}
# Warm the build cache and export data once, so both runs load the same way.
"$floor" "$@" >/dev/null 2>&1 || true
read -r ft fm < <(measure "$floor" "$@")
read -r it im < <(measure "$idemlint" "$@")
printf '%-10s %10s %14s\n' tool "wall (s)" "peak RSS (MB)"
printf '%-10s %10s %14.0f\n' floor "$ft" "$(echo "$fm/1024" | bc -l)"
printf '%-10s %10s %14.0f\n' idemlint "$it" "$(echo "$im/1024" | bc -l)"
printf 'ratio: time %.2fx, memory %.2fx (packages: %s)\n' "$(echo "$it/$ft" | bc -l)" "$(echo "$im/$fm" | bc -l)" "$*"
