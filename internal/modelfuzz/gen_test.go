package modelfuzz

import (
	"strings"
)

// The generator turns fuzz input into a Go file of retry shapes: each byte
// picks one production of a nonterminal (%NAME%) of the grammar below,
// until the input runs out (then the first production, which never
// recurses). Every production type-checks against the shared stubs, so the
// fuzzer spends its time on the model, not on the type checker.

// prelude is the file around the generated body: the imports every
// production may use, and the helpers they call (func values, method
// values, generic functions, a wait helper, options made by func values).
const prelude = `package p

import (
	"context"
	"errors"
	"math/rand"
	"net/http"
	"time"

	retry "github.com/avast/retry-go/v4"
	backoff "github.com/cenkalti/backoff/v4"
	backoff5 "github.com/cenkalti/backoff/v5"
	"github.com/google/uuid"
	goretry "github.com/sethvargo/go-retry"
	"k8s.io/apimachinery/pkg/util/wait"
)

var (
	_ = rand.Int63n
	_ = http.MethodPost
	_ = uuid.NewString
	_ = errors.New
	_ = wait.Backoff{}
	_ = goretry.NewConstant
	_ = backoff5.Permanent
	_ = retry.Attempts
	_ = backoff.Permanent
)

type T struct {
	op      func() error
	d       time.Duration
	max     int
	c       *http.Client
	delayfn func(int) time.Duration
}

func (t *T) Do() error                    { return nil }
func (t *T) delay(n int) time.Duration    { return time.Duration(n) * t.d }
func attempt(ctx context.Context) error   { return ctx.Err() }
func delay(n int) time.Duration           { return time.Duration(n) * time.Millisecond }
func value[V any](v V) (V, error)         { return v, nil }
func second[V any](_ V, err error) error  { return err }
func sleep(d time.Duration)               { time.Sleep(d) }
func pause(d time.Duration)               { sleep(d) }

var (
	key     = uuid.NewString()
	retryop = attempt
	opfn    = func() error { return nil }
	dfn     = delay
	sleepfn = time.Sleep
	opt     = func(x float64) backoff.ExponentialBackOffOpts { return backoff.WithRandomizationFactor(x) }
	aopt    = func(n uint) retry.Option { return retry.Attempts(n) }
	dt      = retry.BackOffDelay
	aopts   = []retry.Option{retry.Attempts(0), retry.Delay(time.Second)}
	eopts   = []backoff.ExponentialBackOffOpts{backoff.WithRandomizationFactor(0)}
	mkb     = func() backoff.BackOff { return backoff.NewExponentialBackOff() }
	b4      backoff.BackOff = &backoff.ZeroBackOff{}
	b5opt   = func(n uint) backoff5.RetryOption { return backoff5.WithMaxTries(n) }
	gbfn    = func() goretry.Backoff { return goretry.NewFibonacci(time.Second) }
)

func Retry[V any](f func() (V, error)) (V, error) {
	var zero V
	for k := 0; k < 3; k++ {
		v, err := f()
		if err == nil {
			return v, nil
		}
		time.Sleep(time.Second)
	}
	return zero, errors.New("gave up")
}

func F(ctx context.Context, t *T, n int) error {
	var i int
	_ = i
	%BODY%
}
`

// grammar: the first production of each nonterminal must not recurse.
var grammar = map[string][]string{
	"BODY": {
		"for i = 0; i < %N%; i++ {\n\t\tif err := %OP%; err == nil {\n\t\t\treturn nil\n\t\t}\n\t\t%WAIT%\n\t}\n\treturn errors.New(\"x\")",
		"for {\n\t\terr := %OP%\n\t\tif err == nil {\n\t\t\tbreak\n\t\t}\n\t\ti++\n\t\t%WAIT%\n\t}\n\treturn nil",
		"again:\n\tif err := %OP%; err != nil {\n\t\ti++\n\t\tif i > %N% {\n\t\t\treturn err\n\t\t}\n\t\t%WAIT%\n\t\tgoto again\n\t}\n\treturn nil",
		"if err := %OP%; err != nil {\n\t\t%WAIT%\n\t\treturn F(ctx, t, n+1)\n\t}\n\treturn nil",
		"for i := range %N% {\n\t\tif err := %OP%; err == nil {\n\t\t\treturn nil\n\t\t}\n\t\t%WAIT%\n\t\t_ = i\n\t}\n\treturn nil",
		"return retry.Do(%OPF%%AOPTS%)",
		"return backoff.Retry(%OPF%, %B4%)",
		"_, err := backoff5.Retry(ctx, func() (int, error) { return 0, %OP% }%B5OPTS%)\n\treturn err",
		"return goretry.Do(ctx, %GB%, func(ctx context.Context) error { return goretry.RetryableError(%OP%) })",
		"return wait.ExponentialBackoff(wait.Backoff{Steps: %N%, Duration: %D%, Factor: 2}, func() (bool, error) { return %OP% == nil, nil })",
		"outer:\n\tfor i = 0; i < %N%; i++ {\n\t\tfor j := 0; j < 2; j++ {\n\t\t\tif err := %OP%; err != nil {\n\t\t\t\t%WAIT%\n\t\t\t\tcontinue outer\n\t\t\t}\n\t\t}\n\t\treturn nil\n\t}\n\treturn nil",
		"var run func()\n\trun = func() {\n\t\tif err := %OP%; err != nil {\n\t\t\ttime.AfterFunc(%D%, run)\n\t\t}\n\t}\n\trun()\n\treturn nil",
		"_, err := Retry(func() (int, error) { return value(%N%) })\n\treturn err",
		"for {\n\t\tif err := %OP%; err == nil {\n\t\t\treturn nil\n\t\t}\n\t\tselect {\n\t\tcase <-%CTX%.Done():\n\t\t\treturn %CTX%.Err()\n\t\tcase <-time.After(%D%):\n\t\t}\n\t}",
		"tm := time.NewTimer(0)\n\tdefer tm.Stop()\n\tfor i = 0; i < %N%; i++ {\n\t\t<-tm.C\n\t\tif err := %OP%; err == nil {\n\t\t\treturn nil\n\t\t}\n\t\ttm.Reset(%D%)\n\t}\n\treturn nil",
		"for i = 0; ; i++ {\n\t\treq, _ := http.NewRequestWithContext(ctx, http.MethodPost, \"http://x\", nil)\n\t\treq.Header.Set(\"Idempotency-Key\", %KEY%)\n\t\tres, err := t.c.Do(req)\n\t\tif err == nil && res.StatusCode < 500 || i >= %N% {\n\t\t\treturn err\n\t\t}\n\t\t%WAIT%\n\t}",
		"return retry.Do(%OPF%, aopts...)",
		"return backoff.Retry(%OPF%, backoff.NewExponentialBackOff(eopts...))",
		"again:\n\tif err := %OP%; err != nil {\n\t\tif i < %N% {\n\t\t\t%WAIT%\n\t\t\tif n > 0 {\n\t\t\t\ti++\n\t\t\t\tgoto again\n\t\t\t}\n\t\t}\n\t\treturn err\n\t}\n\treturn nil",
	},
	"OP": {
		"attempt(ctx)", "t.Do()", "t.op()", "(t.Do)()", "func() error { return attempt(ctx) }()",
		"retryop(ctx)", "second(value(%N%))", "error(attempt(ctx))", "opfn()",
	},
	"OPF": {"t.Do", "t.op", "func() error { return %OP% }", "opfn", "func() error { return t.op() }"},
	"WAIT": {
		"time.Sleep(%D%)", "<-time.After(%D%)",
		"select {\n\t\tcase <-ctx.Done():\n\t\t\treturn ctx.Err()\n\t\tcase <-time.After(%D%):\n\t\t}",
		"_ = 0", "sleep(%D%)", "sleepfn(%D%)", "time.Sleep(%D%); time.Sleep(%D%)", "pause(%D%)",
	},
	"D": {
		"time.Second", "delay(i)", "dfn(i)", "time.Duration(i) * time.Second", "time.Duration(rand.Int63n(1000))",
		"t.d", "min(time.Second, %D%)", "time.Duration(1<<i) * time.Millisecond",
		"time.Duration(float64(%D%) * (0.5 + rand.Float64()))", "max(t.d, 0)", "(*T).delay(t, i)", "t.delayfn(i)",
		"t.delay(i)", "%D% + %D%", "time.Duration(n)",
	},
	"N":   {"3", "n", "t.max", "0", "len(\"abc\")", "int(uint8(5))", "-1", "cap(make([]int, 2))", "%N% + 1"},
	"U":   {"3", "0", "uint(n)", "uint(t.max)", "uint(%N%)"},
	"U64": {"3", "0", "uint64(n)", "uint64(%U%)"},
	"CTX": {"ctx", "context.Background()", "context.TODO()", "context.WithoutCancel(ctx)"},
	"KEY": {"\"k\"", "uuid.NewString()", "key", "uuid.New().String()"},
	"AOPTS": {
		"", ", %AOPT%", ", %AOPT%, %AOPT%", ", %AOPT%, %AOPT%, %AOPT%",
	},
	"AOPT": {
		"retry.Attempts(%U%)", "aopt(3)", "retry.Delay(%D%)", "retry.DelayType(retry.FixedDelay)", "retry.DelayType(dt)",
		"retry.Context(ctx)", "retry.UntilSucceeded()", "retry.DelayType(retry.CombineDelay(retry.BackOffDelay, dt))",
		"retry.MaxJitter(%D%)", "aopts[0]", "retry.Context(%CTX%)",
	},
	"B4": {
		"backoff.NewExponentialBackOff(%EOPTS%)", "&backoff.ExponentialBackOff{}", "backoff.WithMaxRetries(%B4%, %U64%)",
		"backoff.WithContext(%B4%, ctx)", "mkb()", "backoff.NewConstantBackOff(%D%)", "&backoff.ZeroBackOff{}", "b4",
		"&backoff.ExponentialBackOff{RandomizationFactor: 0.5, MaxElapsedTime: %D%}", "backoff.BackOff(%B4%)",
	},
	"EOPTS": {
		"", "%EOPT%", "%EOPT%, %EOPT%",
	},
	"EOPT": {
		"opt(0.5)", "backoff.WithRandomizationFactor(0)", "backoff.WithMaxElapsedTime(%D%)", "backoff.WithMaxElapsedTime(0)",
		"backoff.WithInitialInterval(%D%)", "eopts[0]", "backoff.ExponentialBackOffOpts(opt(0))",
	},
	"B5OPTS": {"", ", %B5OPT%", ", %B5OPT%, %B5OPT%"},
	"B5OPT": {
		"backoff5.WithMaxTries(%U%)", "backoff5.WithBackOff(backoff5.NewExponentialBackOff())",
		"backoff5.WithBackOff(&backoff5.ConstantBackOff{Interval: %D%})", "backoff5.WithMaxElapsedTime(%D%)", "b5opt(2)",
	},
	"GB": {
		"goretry.NewConstant(%D%)", "goretry.WithMaxRetries(%U64%, %GB%)", "goretry.NewExponential(%D%)",
		"goretry.WithJitter(%D%, %GB%)", "gbfn()", "goretry.WithMaxDuration(%D%, %GB%)",
	},
}

// maxDepth bounds recursion: past it every nonterminal takes its first
// production.
const maxDepth = 4

type reader struct {
	b []byte
	i int
}

func (r *reader) pick(n int) int {
	if r.i >= len(r.b) || n <= 1 {
		return 0
	}
	v := int(r.b[r.i]) % n
	r.i++
	return v
}

// Generate returns the Go file that data describes.
func Generate(data []byte) string {
	r := &reader{b: data}
	body := expand(r, "%BODY%", 0)
	return strings.Replace(prelude, "%BODY%", body, 1)
}

func expand(r *reader, s string, depth int) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "%")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.Index(s[i+1:], "%")
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		name := s[i+1 : i+1+j]
		prods, ok := grammar[name]
		if !ok {
			panic("modelfuzz: no nonterminal " + name)
		}
		k := 0
		if depth < maxDepth {
			k = r.pick(len(prods))
		}
		b.WriteString(expand(r, prods[k], depth+1))
		s = s[i+2+j:]
	}
}
