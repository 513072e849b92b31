// Package values is the value flow's testdata: each call of sink reports
// the origins of its argument (the query follows calls of the package's
// functions into their returns: mint's fmt.Sprint), each call of source
// where its result goes.
package values

import (
	"fmt"
	"strings"
)

func sink(v any) {}

func ranged(v any) {}

func source() string { return "s" }

func mint() string { return fmt.Sprint(1) }

// Phis: both branches' values.
func phis(c bool) {
	x := "a"
	if c {
		x = mint()
	}
	sink(x) // want `origins: call fmt.Sprint, call mint, const "a"`
}

// A cycle of phis: the loop's own value and the one before it.
func cycle(n int) {
	x := 0
	y := 1
	for i := 0; i < n; i++ {
		x, y = y, x
	}
	sink(x) // want `origins: const 0, const 1`
}

// A captured variable updated in a closure.
func captured() {
	key := "before"
	set := func() { key = mint() }
	set()
	sink(key) // want `origins: alloc key, call fmt.Sprint, call mint, const "before"`
}

// A field set in a constructor and read in a method.
type client struct{ token string }

func newClient(t string) *client { return &client{token: t} }

func (c *client) send() {
	sink(c.token) // want `origins: call fmt.Sprint, call mint, const "abc", field token, param t`
}

func useClient() {
	newClient("abc").send()
	newClient(mint()).send()
}

// A parameter given by two call sites.
func helper(p string) {
	sink(p) // want `origins: call strings.ToUpper, const "one", param p`
}

func callers() {
	helper("one")
	helper(strings.ToUpper(mint()))
}

// A helper's result.
func wrap() string { return "w-" + mint() }

func result() {
	sink(wrap()) // want `origins: call fmt.Sprint, call mint, call wrap, const "w-"`
}

// Extracts, conversions and a local struct's field.
type opts struct{ Key, Other string }

func extract() (string, error) { return mint(), nil }

func locals() {
	k, _ := extract()
	o := opts{Key: k, Other: "x"}
	sink([]byte(o.Key)) // want `origins: call extract, call fmt.Sprint, call mint, field Key`
}

// Uses: the fields and map keys a value reaches, the calls it is given to.
type req struct{ ID string }

func uses(m map[string]string) *req {
	s := source()    // want `uses: field ID, key "Idem", call sink`
	r := &req{ID: s} // want `stored: call source, const "s"`
	m["Idem"] = s    // want `stored: call source, const "s"`
	sink(s)          // want `origins: call source, const "s"`
	return r
}

// Stored values found from the syntax of their store.
func stored(r *req, m map[string][]string) {
	r.ID = "k-" + mint()                 // want `stored: call fmt.Sprint, call mint, const "k-"`
	_ = req{ID: strings.ToLower(mint())} // want `stored: call strings.ToLower`
	m["Idem"] = []string{mint()}         // want `stored: alloc slicelit, call fmt.Sprint, call mint`
}

// Answers: a value made on each pass of a loop, one made before it, a
// constant one.
func perPass(n int) {
	once := mint()
	for i := 0; i < n; i++ {
		each := "k-" + mint()
		sink(each)            // want `origins: call fmt.Sprint, call mint, const "k-"`
		sink(once)            // want `origins: call fmt.Sprint, call mint`
		sink("fixed" + "key") // want `origins: const "fixedkey"`
	}
}

// Ranged: the key or the value of one range over a map, through a local
// and a captured loop variable; not a value made from both, nor a slice's
// element.
func ranges(src map[string][]string, list []string) {
	for k, v := range src {
		name := k
		ranged(name)    // want `ranged: key of param src`
		ranged(v)       // want `ranged: value of param src`
		ranged(k + "x") // want `ranged: none`
		func() {
			ranged(k) // want `ranged: key of param src`
		}()
	}
	for _, s := range list {
		ranged(s) // want `ranged: none`
	}
}
