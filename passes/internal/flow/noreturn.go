package flow

import (
	"go/types"

	"github.com/idemlint/idemlint/passes/internal/names"
)

// neverReturn lists, by full name (types.Func.FullName), the functions and
// methods whose call never returns to its caller: it exits the process,
// ends the goroutine, or panics on every path. The builder cuts the
// control-flow graph after a call of one (ssa.Program.SetNoReturn), so a
// failure branch that ends in one leaves the loop. Keep it in sync with
// what a driver cannot learn from a dependency's code: ctrlflow's facts are
// not computed here (see ../shared/reference/ssa-core.md, §5).
var neverReturn = []string{
	"os.Exit",
	"runtime.Goexit",
	"syscall.Exit",

	"log.Fatal", "log.Fatalf", "log.Fatalln",
	"log.Panic", "log.Panicf", "log.Panicln",
	"(*log.Logger).Fatal", "(*log.Logger).Fatalf", "(*log.Logger).Fatalln",
	"(*log.Logger).Panic", "(*log.Logger).Panicf", "(*log.Logger).Panicln",

	// t.Fatal and the like are promoted from the embedded testing.common
	"(*testing.common).FailNow",
	"(*testing.common).Fatal", "(*testing.common).Fatalf",
	"(*testing.common).SkipNow",
	"(*testing.common).Skip", "(*testing.common).Skipf",

	"k8s.io/klog.Fatal", "k8s.io/klog.Fatalf", "k8s.io/klog.Fatalln", "k8s.io/klog.FatalDepth",
	"k8s.io/klog.Exit", "k8s.io/klog.Exitf", "k8s.io/klog.Exitln", "k8s.io/klog.ExitDepth",
	"k8s.io/klog/v2.Fatal", "k8s.io/klog/v2.Fatalf", "k8s.io/klog/v2.Fatalln", "k8s.io/klog/v2.FatalDepth",
	"k8s.io/klog/v2.Exit", "k8s.io/klog/v2.Exitf", "k8s.io/klog/v2.Exitln", "k8s.io/klog/v2.ExitDepth",

	"(*go.uber.org/zap.Logger).Fatal", "(*go.uber.org/zap.Logger).Panic",
	"(*go.uber.org/zap.SugaredLogger).Fatal", "(*go.uber.org/zap.SugaredLogger).Fatalf",
	"(*go.uber.org/zap.SugaredLogger).Fatalw", "(*go.uber.org/zap.SugaredLogger).Fatalln",
	"(*go.uber.org/zap.SugaredLogger).Panic", "(*go.uber.org/zap.SugaredLogger).Panicf",
	"(*go.uber.org/zap.SugaredLogger).Panicw", "(*go.uber.org/zap.SugaredLogger).Panicln",

	"github.com/sirupsen/logrus.Fatal", "github.com/sirupsen/logrus.Fatalf", "github.com/sirupsen/logrus.Fatalln",
	"github.com/sirupsen/logrus.Panic", "github.com/sirupsen/logrus.Panicf", "github.com/sirupsen/logrus.Panicln",
	"(*github.com/sirupsen/logrus.Logger).Fatal", "(*github.com/sirupsen/logrus.Logger).Fatalf",
	"(*github.com/sirupsen/logrus.Logger).Fatalln", "(*github.com/sirupsen/logrus.Logger).Exit",
	"(*github.com/sirupsen/logrus.Logger).Panic", "(*github.com/sirupsen/logrus.Logger).Panicf",
	"(*github.com/sirupsen/logrus.Logger).Panicln",
	"(*github.com/sirupsen/logrus.Entry).Fatal", "(*github.com/sirupsen/logrus.Entry).Fatalf",
	"(*github.com/sirupsen/logrus.Entry).Fatalln",
	"(*github.com/sirupsen/logrus.Entry).Panic", "(*github.com/sirupsen/logrus.Entry).Panicf",
	"(*github.com/sirupsen/logrus.Entry).Panicln",
}

// NeverReturns reports whether a call of fn never returns to its caller:
// fn is one of the functions the engine knows exit the process, end the
// goroutine or always panic. It is the predicate the engine gives
// ssa.Program.SetNoReturn.
func NeverReturns(fn *types.Func) bool {
	return fn != nil && names.IsFull(fn.Origin(), neverReturn...)
}
