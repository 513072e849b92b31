package retrystatus

import (
	"sort"
	"strconv"
	"strings"
)

// Statuses modelled: 100 to 599.
const (
	minStatus = 100
	maxStatus = 599
)

// set is a set of HTTP statuses.
type set [10]uint64 // bit i is status i, 0 <= i < 640

func (s *set) add(code int)     { s[code/64] |= 1 << (code % 64) }
func (s set) has(code int) bool { return s[code/64]&(1<<(code%64)) != 0 }

func (s set) empty() bool {
	for _, w := range s {
		if w != 0 {
			return false
		}
	}
	return true
}

func (s set) and(t set) set {
	for i := range s {
		s[i] &= t[i]
	}
	return s
}

func (s set) or(t set) set {
	for i := range s {
		s[i] |= t[i]
	}
	return s
}

// all returns every modelled status.
func all() set {
	var s set
	for c := minStatus; c <= maxStatus; c++ {
		s.add(c)
	}
	return s
}

// permanent returns the 4xx statuses that a retry cannot change: every
// 4xx but 408 and 429, and but 409 when keyed (the in-progress answer to a
// request whose idempotency key is still being processed).
func permanent(keyed bool) set {
	var s set
	for c := 400; c <= 499; c++ {
		if c == 408 || c == 429 || (keyed && c == 409) {
			continue
		}
		s.add(c)
	}
	return s
}

// describe names the statuses of bad for a message: "404, a permanent
// status", "400 and 404, permanent statuses", or "every 4xx status but
// 408 and 429 (400, 401, 403, 404, 422, ...)".
func describe(bad set, keyed bool) string {
	if bad == permanent(keyed) {
		but := "408 and 429"
		if keyed {
			but = "408, 409 and 429"
		}
		return "every 4xx but " + but
	}
	var codes []int
	for c := minStatus; c <= maxStatus; c++ {
		if bad.has(c) {
			codes = append(codes, c)
		}
	}
	sort.Ints(codes)
	var list []string
	for i, c := range codes {
		if i == 3 {
			list = append(list, "...")
			break
		}
		list = append(list, strconv.Itoa(c))
	}
	if len(list) == 1 {
		return list[0] + ", a permanent status"
	}
	if list[len(list)-1] != "..." {
		return strings.Join(list[:len(list)-1], ", ") + " and " + list[len(list)-1] + ", permanent statuses"
	}
	return strings.Join(list, ", ") + " (permanent)"
}
