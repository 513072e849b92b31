package astq_test

import (
	"go/token"
	"testing"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

func TestCompare(t *testing.T) {
	for _, c := range []struct {
		a    int64
		op   token.Token
		b    int64
		want bool
	}{
		{1, token.EQL, 1, true}, {1, token.EQL, 2, false},
		{1, token.NEQ, 2, true}, {2, token.NEQ, 2, false},
		{1, token.LSS, 2, true}, {2, token.LSS, 2, false},
		{2, token.LEQ, 2, true}, {3, token.LEQ, 2, false},
		{3, token.GTR, 2, true}, {2, token.GTR, 2, false},
		{2, token.GEQ, 2, true}, {1, token.GEQ, 2, false},
		{1, token.ADD, 1, false}, // not a comparison
	} {
		if got := astq.Compare(c.a, c.op, c.b); got != c.want {
			t.Errorf("Compare(%d, %s, %d) = %t, want %t", c.a, c.op, c.b, got, c.want)
		}
	}
}
