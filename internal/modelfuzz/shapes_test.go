package modelfuzz

import "testing"

// shapes are valid Go files of unusual shapes that the generator does not
// make, each run through the whole suite (TestShapes): generic type
// aliases, range-over-func iterators (generic, iter.Seq2, forever), method
// values and expressions on instantiated generic types, goto into and
// around blocks, closures returned and called at once, type parameters
// whose constraints embed interfaces, range over integers, the min, max
// and clear builtins, recursive generic types and recursion through
// method values, empty selects, switch statements with init statements,
// unsafe arithmetic, and arguments that are another call's results.
var shapes = map[string]string{
	"multi-value arguments": `package p
import ("context"; "io"; "net/http"; "strings"; "time")
func reqArgs(ctx context.Context) (context.Context, string, string, io.Reader) { return ctx, http.MethodPost, "http://x", strings.NewReader("") }
func plain() (string, string, io.Reader) { return http.MethodPost, "http://x", nil }
func f(ctx context.Context, c *http.Client) error {
	for i := 0; i < 5; i++ {
		req, err := http.NewRequestWithContext(reqArgs(ctx))
		if err != nil { return err }
		if _, err := c.Do(req); err == nil { return nil }
		time.Sleep(time.Second)
	}
	for {
		req, _ := http.NewRequest(plain())
		req = req.WithContext(ctx)
		if _, err := c.Do(req); err == nil { return nil }
		time.Sleep(time.Second)
	}
}
`,
	"generic alias": `package p
import ("time"; "net/http")
type Pair[K comparable, V any] struct { k K; v V }
type A[T any] = Pair[string, T]
type F[T any] = func(T) error
func do[T any](f F[T], v T) error {
	for i := 0; ; i++ {
		if err := f(v); err == nil { return nil }
		time.Sleep(time.Second)
	}
}
func g() { _ = do[int](func(int) error { return nil }, 1); var a A[int]; _ = a; _ = http.MethodPost }
`,
	"range over func": `package p
import ("iter"; "time"; "net/http"; "context")
func attempts(n int) iter.Seq[int] { return func(yield func(int) bool) { for i := range n { if !yield(i) { return } } } }
func pairs[K comparable, V any](m map[K]V) iter.Seq2[K, V] { return func(yield func(K, V) bool) { for k, v := range m { if !yield(k, v) { return } } } }
func f(ctx context.Context, c *http.Client, r *http.Request) error {
	for i := range attempts(3) {
		if _, err := c.Do(r); err == nil { return nil }
		time.Sleep(time.Duration(i) * time.Second)
	}
	for range attempts(5) { time.Sleep(time.Second) }
	for k, v := range pairs(map[string]int{}) { _, _ = k, v; time.Sleep(time.Second) }
	for {
		for range pairs(map[int]int{}) { if _, err := c.Do(r); err == nil { return nil } }
		time.Sleep(time.Second)
	}
}
`,
	"range over func forever": `package p
import ("iter"; "time"; "net/http")
func forever() iter.Seq[int] { return func(yield func(int) bool) { for i := 0; ; i++ { if !yield(i) { return } } } }
func f(c *http.Client, r *http.Request) {
	for i := range forever() {
		if _, err := c.Do(r); err == nil { break }
		if i > 3 { goto out }
		time.Sleep(time.Second)
	}
out:
}
`,
	"method values on generic types": `package p
import ("time"; "errors")
type Box[T any] struct{ v T }
func (b *Box[T]) Do() error { return errors.New("x") }
func (b Box[T]) Get() T { return b.v }
func f() error {
	b := &Box[int]{}
	do := b.Do
	get := Box[string].Get
	_ = get(Box[string]{})
	exp := (*Box[int]).Do
	for {
		if err := do(); err == nil { return nil }
		if err := exp(b); err == nil { return nil }
		time.Sleep(time.Second)
	}
}
`,
	"goto odd": `package p
import ("time"; "net/http")
func f(c *http.Client, r *http.Request) error {
	n := 0
	goto start
again:
	time.Sleep(time.Second)
start:
	if _, err := c.Do(r); err != nil {
		n++
		if n < 3 { goto again }
		return err
	}
	{
	inner:
		if n > 10 { goto inner2 }
		n++
		goto inner
	inner2:
	}
	switch {
	case n > 0:
		goto end
	}
end:
	return nil
}
func g(c *http.Client, r *http.Request) {
L:
	for {
		select {
		default:
			if _, err := c.Do(r); err != nil { time.Sleep(time.Second); continue L }
			break L
		}
	}
	goto L2
L2:
	for range 10 { time.Sleep(time.Second) }
}
`,
	"closures": `package p
import ("time"; "net/http")
func f(c *http.Client, r *http.Request) error {
	return func() func() error {
		return func() error {
			for {
				if _, err := c.Do(r); err == nil { return nil }
				time.Sleep(time.Second)
			}
		}
	}()()
}
func g() { func() { for { time.Sleep(time.Second) } }() }
func h() { defer func() { for i := 0; i < 3; i++ { time.Sleep(time.Second) } }(); go func() {}() }
`,
	"type param constraints": `package p
import ("time"; "fmt")
type Doer interface{ Do() error }
type Stringish interface{ ~string; fmt.Stringer }
type DoerS[T any] interface{ Doer; *T }
func run[T any, P DoerS[T]]() error {
	var t T
	p := P(&t)
	for i := 0; i < 3; i++ {
		if err := p.Do(); err == nil { return nil }
		time.Sleep(time.Second)
	}
	return nil
}
type W[D Doer] struct{ d D }
func (w W[D]) Again() error { for { if err := w.d.Do(); err == nil { return nil }; time.Sleep(time.Second) } }
type E[T any] struct{ *List2[T] }
type List2[T any] struct{ n *E[T] }
type X struct{}
func (X) Do() error { return nil }
func g() { _ = run[X]; _ = W[X]{}.Again() }
`,
	"builtins": `package p
import ("time"; "net/http")
func f(c *http.Client, r *http.Request) {
	m := map[int]int{}
	s := []int{1}
	for i := range 10 {
		clear(m); clear(s)
		d := min(time.Duration(i)*time.Second, 30*time.Second)
		d = max(d, time.Millisecond)
		if _, err := c.Do(r); err == nil { return }
		time.Sleep(min(d))
	}
	for range 3 { time.Sleep(max(time.Second, 2*time.Second, 0)) }
	var n uint8 = 5
	for i := range n { _ = i; time.Sleep(time.Second) }
	const k = 4
	for range k { time.Sleep(time.Second) }
}
`,
	"recursive generics": `package p
import "time"
type List[T any] struct { next *List[T]; v T }
type Tree[T interface{ Less(T) bool }] struct { l, r *Tree[T] }
type Node[T any] interface{ Children() []Node[T] }
func (l *List[T]) Walk(f func(T) error) error {
	for n := l; n != nil; n = n.next {
		if err := f(n.v); err != nil { time.Sleep(time.Second); continue }
	}
	return l.next.Walk(f)
}
func retry[T any](n int, f func() (T, error)) (T, error) {
	v, err := f()
	if err != nil && n > 0 { time.Sleep(time.Second); return retry(n-1, f) }
	return v, err
}
func g() { _, _ = retry[int](3, func() (int, error) { return 0, nil }) }
`,
	"selects": `package p
import ("time"; "context"; "net/http")
func f(ctx context.Context, c *http.Client, r *http.Request) {
	if ctx == nil { select {} }
	for {
		select {}
	}
}
func g(ctx context.Context, c *http.Client, r *http.Request) error {
	for {
		if _, err := c.Do(r); err == nil { return nil }
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}
func h(c *http.Client, r *http.Request) {
	for {
		select {
		case <-time.After(time.Second):
			if _, err := c.Do(r); err == nil { return }
		}
	}
}
`,
	"switch and init shapes": `package p
import ("time"; "net/http")
func f(c *http.Client, r *http.Request) error {
	for i := 0; i < 5; i++ {
		switch resp, err := c.Do(r); {
		case err != nil:
			time.Sleep(time.Second)
			continue
		case resp.StatusCode >= 500:
			time.Sleep(time.Second)
			fallthrough
		default:
			return nil
		}
	}
	for {
		switch x := any(c).(type) {
		case nil:
			time.Sleep(time.Second)
		case *http.Client:
			if _, err := x.Do(r); err != nil { time.Sleep(time.Second); continue }
			return nil
		}
	}
}
func g(c *http.Client, r *http.Request) {
	for resp, err := c.Do(r); err != nil; resp, err = c.Do(r) { _ = resp; time.Sleep(time.Second) }
	for ; ; {
		if _, err := c.Do(r); err == nil { break }
	}
	var i int
	for i = range 3 { time.Sleep(time.Second) }
	_ = i
	for i := 0; i < 3; {
		if _, err := c.Do(r); err == nil { break }
		i++
	}
}
`,
	"unsafe": `package p
import ("unsafe"; "time")
type S struct{ a, b int }
func f(p *S) {
	for i := uintptr(0); i < unsafe.Sizeof(*p); i += unsafe.Alignof(p.a) {
		q := (*int)(unsafe.Add(unsafe.Pointer(p), i))
		*q = 0
		time.Sleep(time.Nanosecond)
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(p)), unsafe.Sizeof(*p))
	_ = unsafe.String(&b[0], len(b))
	_ = unsafe.SliceData(b)
	_ = unsafe.Offsetof(p.b)
}
`,
	"labels and nested": `package p
import ("time"; "net/http")
func f(c *http.Client, r *http.Request) {
outer:
	for i := 0; i < 3; i++ {
	inner:
		for {
			if _, err := c.Do(r); err != nil {
				time.Sleep(time.Second)
				continue outer
			}
			break inner
		}
	}
	func() {
	L:
		for {
			break L
		}
	}()
}
`,
	"generic retry helper": `package p
import ("time"; "context")
type Op[T any] func(context.Context) (T, error)
func Retry[T any, O ~func(context.Context) (T, error)](ctx context.Context, op O) (T, error) {
	for {
		v, err := op(ctx)
		if err == nil { return v, nil }
		time.Sleep(time.Second)
	}
}
func g(ctx context.Context) {
	var op Op[int] = func(context.Context) (int, error) { return 1, nil }
	_, _ = Retry[int](ctx, op)
	_, _ = Retry(ctx, func(context.Context) (string, error) { return "", nil })
	f := Retry[int, Op[int]]
	_, _ = f(ctx, op)
}
`,
	"struct literal funcs and method exprs": `package p
import ("time"; "net/http")
type client struct{ c *http.Client }
func (c client) send(r *http.Request) error { _, err := c.c.Do(r); return err }
func f(r *http.Request) {
	s := struct{ do func(*http.Request) error }{do: client{}.send}
	for {
		if s.do(r) == nil { return }
		time.Sleep(time.Second)
	}
}
func g(r *http.Request) {
	fs := []func(client, *http.Request) error{client.send}
	for {
		if fs[0](client{}, r) == nil { return }
		time.Sleep(time.Second)
	}
}
func h(r *http.Request) {
	m := map[string]func(*http.Request) error{"a": client{}.send}
	for i := 0; i < 3; i++ { if m["a"](r) == nil { return }; time.Sleep(time.Second) }
}
`,
	"generic alias of library": `package p
import ("time"; backoff "github.com/cenkalti/backoff/v4")
type BO = backoff.BackOff
type Fn[T any] = func() (T, error)
type M[T any] = map[string]Fn[T]
func f(b BO) error {
	return backoff.Retry(func() error { return nil }, b)
}
func g[T any](m M[T]) { for _, f := range m { for { if _, err := f(); err == nil { break }; time.Sleep(time.Second) } } }
func h() { _ = f(backoff.NewExponentialBackOff()); g(M[int]{}) }
`,
	"recursion via method value": `package p
import ("time"; "net/http")
type R struct{ c *http.Client; n int }
func (r *R) try(req *http.Request) error {
	if _, err := r.c.Do(req); err != nil {
		time.Sleep(time.Second)
		f := r.try
		return f(req)
	}
	return nil
}
func (r R) val(req *http.Request) error {
	if _, err := r.c.Do(req); err != nil { time.Sleep(time.Second); return R.val(r, req) }
	return nil
}
`,
	"iterators with library": `package p
import ("iter"; "time"; retry "github.com/avast/retry-go/v4")
func seq() iter.Seq2[int, error] { return func(yield func(int, error) bool) {} }
func f() error {
	return retry.Do(func() error {
		for i, err := range seq() {
			if err != nil { return err }
			_ = i
		}
		return nil
	}, retry.Attempts(0), retry.Delay(time.Second))
}
func g() {
	for _, err := range seq() {
		if err != nil { _ = retry.Do(func() error { return err }); time.Sleep(time.Second) }
	}
}
`,
}

// TestShapes fails on a panic or an error of any analyzer of the suite
// over any of shapes (run fails the test on the error that Guard makes of
// a panic), and when a shape does not type-check.
func TestShapes(t *testing.T) {
	as, _ := suite()
	for name, src := range shapes {
		t.Run(name, func(t *testing.T) {
			c, err := typeCheck(src)
			if err != nil {
				t.Fatalf("does not type-check: %v", err)
			}
			run(t, c, as)
		})
	}
}
