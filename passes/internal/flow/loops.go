package flow

import (
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// LoopKind says what makes a cycle of the control-flow graph.
type LoopKind int

const (
	// Natural is a loop whose header dominates its back edges: a for or
	// range statement, a backward goto, a labelled continue (one more back
	// edge to the outer loop's header).
	Natural LoopKind = iota
	// Irreducible is a strongly connected component with no dominating
	// header: a goto into the middle of a cycle.
	Irreducible
	// Yield is the body of a range-over-func loop: the builder makes it a
	// closure the iterator calls once a pass; returning true asks for the
	// next pass.
	Yield
	// Recursion is a call graph cycle: a function that calls itself,
	// directly or through one of its own function literals (Cycles).
	Recursion
	// Reschedule is a function that schedules itself with time.AfterFunc
	// (Cycles).
	Reschedule
)

func (k LoopKind) String() string {
	switch k {
	case Natural:
		return "natural"
	case Irreducible:
		return "irreducible"
	case Yield:
		return "yield"
	case Recursion:
		return "recursion"
	case Reschedule:
		return "reschedule"
	}
	return "?"
}

// An Edge is a control-flow edge. To is nil for the back edge of a Yield
// loop (From returns true, and the iterator calls the closure again) and
// of a Recursion or Reschedule (From holds the call that starts the next
// pass).
type Edge struct {
	From, To *ssa.BasicBlock
}

// A Loop is a cycle of one function's control-flow graph.
type Loop struct {
	Kind LoopKind
	Fn   *ssa.Function
	// Header is the block every pass starts in: the dominating header of a
	// Natural loop, the closure's entry for Yield; nil for Irreducible.
	Header *ssa.BasicBlock
	// Entries are the blocks entered from outside the loop: the header, or
	// an Irreducible loop's several entries.
	Entries []*ssa.BasicBlock
	// Blocks are the loop's blocks, by index: the blocks from which a back
	// edge is reached without leaving the loop.
	Blocks []*ssa.BasicBlock
	// Back are the edges that start the next pass: to the header of a
	// Natural loop, to an entry of an Irreducible one, a return of true in
	// a Yield closure (To nil).
	Back []Edge
	// Exits are the edges from the loop to a block outside it: a break, a
	// return, a panic, a call that never returns, a failed loop condition.
	// The builder's own panics (a blocking select that matched no case, a
	// yield closure called after its loop ended) are left out.
	Exits []Edge
	// Syntax is the innermost for or range statement that holds the loop,
	// or the labelled statement a backward goto targets; for Yield the
	// range-over-func statement; nil when no statement is found.
	Syntax ast.Node
	// Inductions are the loop's induction variables; Bounds the exits that
	// compare one with a bound.
	Inductions []*Induction
	Bounds     []*Bound
	// Items is true for the loop of a range over a slice, an array, a map,
	// a string or a channel: each pass takes the next element, so a call
	// failing in it moves on to the next item; it is no retry of that
	// call (an enclosing loop may retry the whole round: innerAttempt).
	Items bool

	Parent   *Loop
	Children []*Loop

	in []bool // by block index

	forest *Forest   // the loops of Fn, for a Natural, Irreducible or Yield loop
	site   *ssa.Call // the call that starts a Recursion or Reschedule's next pass
	// blocked are the back edges of the loops of Fn that do not hold a
	// Recursion or Reschedule's call: a pass that takes one goes on with
	// another attempt of that loop, not this one's
	blocked []Edge
}

// Site returns the call that starts the next pass of a Recursion or
// Reschedule; nil for the other kinds.
func (l *Loop) Site() *ssa.Call { return l.site }

// Contains reports whether b is one of the loop's blocks.
func (l *Loop) Contains(b *ssa.BasicBlock) bool {
	return b != nil && b.Parent() == l.Fn && b.Index < len(l.in) && l.in[b.Index]
}

// IsBack reports whether e is one of the loop's back edges.
func (l *Loop) IsBack(e Edge) bool { return slices.Contains(l.Back, e) }

// IsExit reports whether e is one of the loop's exits.
func (l *Loop) IsExit(e Edge) bool { return slices.Contains(l.Exits, e) }

// A Forest is the loops of one function.
type Forest struct {
	Fn    *ssa.Function
	Loops []*Loop // outer loops before the loops they hold

	innermost []*Loop // by block index
}

// Of returns the innermost loop that holds b; nil when none does.
func (f *Forest) Of(b *ssa.BasicBlock) *Loop {
	if f == nil || b == nil || b.Parent() != f.Fn || b.Index >= len(f.innermost) {
		return nil
	}
	return f.innermost[b.Index]
}

// Stmt returns the loop whose Syntax is n; nil when none is.
func (f *Forest) Stmt(n ast.Node) *Loop {
	if f == nil || n == nil {
		return nil
	}
	for _, l := range f.Loops {
		if l.Syntax == n {
			return l
		}
	}
	return nil
}

// Loops returns the loops of fn, a function of the package, computing them
// on the first call.
func (p *Package) Loops(fn *ssa.Function) *Forest {
	p.mu.Lock()
	defer p.mu.Unlock()
	if f, ok := p.forest[fn]; ok {
		return f
	}
	f := p.loops(fn)
	p.forest[fn] = f
	return f
}

// LoopOf returns the innermost loop that holds instr; nil when none does.
func (p *Package) LoopOf(instr ssa.Instruction) *Loop {
	if instr == nil || instr.Block() == nil {
		return nil
	}
	return p.Loops(instr.Parent()).Of(instr.Block())
}

// Outer returns the loop around l: its parent, or, for the loop of a yield
// closure, the innermost loop of the enclosing function that holds the
// range statement; nil when there is none. The loops of other function
// literals have no outer loop: a literal runs where it is called.
func (p *Package) Outer(l *Loop) *Loop {
	if l.Parent != nil {
		return l.Parent
	}
	if l.Kind != Yield || l.Fn.Parent() == nil {
		return nil
	}
	for _, b := range l.Fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == ssa.Value(l.Fn) {
				return p.LoopOf(mc)
			}
		}
	}
	return nil
}

func (p *Package) loops(fn *ssa.Function) *Forest {
	f := &Forest{Fn: fn, innermost: make([]*Loop, len(fn.Blocks))}
	if len(fn.Blocks) == 0 {
		return f
	}
	var all []*Loop
	if _, ok := fn.Syntax().(*ast.RangeStmt); ok {
		all = append(all, yieldLoop(fn))
	}
	ix := p.stmtsOf(fn)
	natural, back := naturalLoops(fn, ix)
	all = append(all, natural...)
	all = append(all, irreducibleLoops(fn, back)...)

	// nest: the larger loops first, each one's parent the innermost loop
	// already placed that holds its first entry
	slices.SortStableFunc(all, func(a, b *Loop) int { return len(b.Blocks) - len(a.Blocks) })
	for _, l := range all {
		if parent := f.innermost[l.Entries[0].Index]; parent != nil {
			l.Parent = parent
			parent.Children = append(parent.Children, l)
		}
		for _, b := range l.Blocks {
			f.innermost[b.Index] = l
		}
		l.exits()
		l.inductions()
		l.forest = f
		f.Loops = append(f.Loops, l)
	}
	if ix != nil {
		ix.mapSyntax(p, f.Loops)
	}
	for _, l := range f.Loops {
		l.Items = l.Kind == Natural && p.itemRange(l.Syntax)
	}
	return f
}

// itemRange reports whether n is a range statement over a slice, an
// array (or a pointer to one), a map, a string or a channel.
func (p *Package) itemRange(n ast.Node) bool {
	rs, ok := n.(*ast.RangeStmt)
	if !ok || p.info == nil {
		return false
	}
	t := p.info.TypeOf(rs.X)
	if t == nil {
		return false
	}
	if ptr, ok := t.Underlying().(*types.Pointer); ok {
		t = ptr.Elem()
	}
	switch u := t.Underlying().(type) {
	case *types.Slice, *types.Array, *types.Map, *types.Chan:
		return true
	case *types.Basic:
		return u.Info()&types.IsString != 0
	}
	return false
}

// newLoop returns a loop of fn over blocks (a set by index).
func newLoop(kind LoopKind, fn *ssa.Function, in []bool) *Loop {
	l := &Loop{Kind: kind, Fn: fn, in: in}
	for _, b := range fn.Blocks {
		if in[b.Index] {
			l.Blocks = append(l.Blocks, b)
		}
	}
	return l
}

// naturalLoops returns fn's natural loops, one for each header with all
// its back edges, and the set of back edges. When the back edges of one
// header come from two nested for or range statements (the outer body
// starts with the inner loop, and the builder threaded the empty block
// between away), the header has a loop for each (splitLatches).
func naturalLoops(fn *ssa.Function, ix *stmts) ([]*Loop, map[Edge]bool) {
	back := make(map[Edge]bool)
	latches := make(map[*ssa.BasicBlock][]*ssa.BasicBlock)
	var headers []*ssa.BasicBlock
	for _, b := range fn.Blocks {
		for _, h := range b.Succs {
			if h.Dominates(b) {
				back[Edge{b, h}] = true
				if latches[h] == nil {
					headers = append(headers, h)
				}
				latches[h] = append(latches[h], b)
			}
		}
	}
	var loops []*Loop
	for _, h := range headers {
		groups := [][]*ssa.BasicBlock{latches[h]}
		if len(latches[h]) > 1 && ix != nil {
			groups = ix.splitLatches(fn, h, latches[h])
		}
		// each group's loop holds the groups inside it: groups go from
		// the innermost statement out
		in := make([]bool, len(fn.Blocks))
		for _, g := range groups {
			in = slices.Clone(in)
			for i, b := range bodyOf(fn, h, g) {
				in[i] = in[i] || b
			}
			l := newLoop(Natural, fn, in)
			l.Header = h
			l.Entries = []*ssa.BasicBlock{h}
			for _, b := range g {
				l.Back = append(l.Back, Edge{b, h})
			}
			loops = append(loops, l)
		}
	}
	return loops, back
}

// bodyOf returns the blocks (a set by index) from which one of latches is
// reached without passing header, and header.
func bodyOf(fn *ssa.Function, header *ssa.BasicBlock, latches []*ssa.BasicBlock) []bool {
	in := make([]bool, len(fn.Blocks))
	in[header.Index] = true
	reachers(in, latches...)
	return in
}

// reachers adds to in (a set by block index) the blocks from which one of
// to is reached, without passing a block in already holds.
func reachers(in []bool, to ...*ssa.BasicBlock) {
	stack := slices.Clone(to)
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if in[b.Index] {
			continue
		}
		in[b.Index] = true
		stack = append(stack, b.Preds...)
	}
}

// splitLatches groups the latches of header by the innermost for or range
// statement that holds the code of their pass (the blocks from the header
// to the latch), innermost statement first, when these statements nest;
// otherwise, or when a latch's pass is in no statement, it returns them as
// one group. A continue and the end of one loop's body fall in one group.
func (ix *stmts) splitLatches(fn *ssa.Function, header *ssa.BasicBlock, latches []*ssa.BasicBlock) [][]*ssa.BasicBlock {
	one := [][]*ssa.BasicBlock{latches}
	var keys []ast.Stmt
	groups := make(map[ast.Stmt][]*ssa.BasicBlock)
	for _, b := range latches {
		lo, hi := span(fn, bodyOf(fn, header, []*ssa.BasicBlock{b}))
		s := ix.loopStmt(lo, hi, nil)
		if !lo.IsValid() || s == nil {
			return one
		}
		if groups[s] == nil {
			keys = append(keys, s)
		}
		groups[s] = append(groups[s], b)
	}
	if len(keys) == 1 {
		return one
	}
	slices.SortFunc(keys, func(a, b ast.Stmt) int { return int(a.Pos()) - int(b.Pos()) })
	slices.Reverse(keys) // inner statements start later
	var out [][]*ssa.BasicBlock
	for i, s := range keys {
		if i > 0 && !(s.Pos() <= keys[i-1].Pos() && keys[i-1].End() <= s.End()) {
			return one // not nested
		}
		out = append(out, groups[s])
	}
	return out
}

// irreducibleLoops returns the cycles left once the back edges are taken
// out: strongly connected components (Tarjan) that no header dominates.
func irreducibleLoops(fn *ssa.Function, back map[Edge]bool) []*Loop {
	n := len(fn.Blocks)
	index := make([]int, n) // 0: not visited; else visit order + 1
	low := make([]int, n)
	onStack := make([]bool, n)
	var stack []*ssa.BasicBlock
	next := 1
	var loops []*Loop
	var visit func(b *ssa.BasicBlock)
	visit = func(b *ssa.BasicBlock) {
		index[b.Index], low[b.Index] = next, next
		next++
		stack = append(stack, b)
		onStack[b.Index] = true
		for _, s := range b.Succs {
			if back[Edge{b, s}] {
				continue
			}
			if index[s.Index] == 0 {
				visit(s)
				low[b.Index] = min(low[b.Index], low[s.Index])
			} else if onStack[s.Index] {
				low[b.Index] = min(low[b.Index], index[s.Index])
			}
		}
		if low[b.Index] != index[b.Index] {
			return
		}
		in := make([]bool, n)
		size := 0
		for {
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[top.Index] = false
			in[top.Index] = true
			size++
			if top == b {
				break
			}
		}
		if size < 2 { // a self edge is always a back edge
			return
		}
		l := newLoop(Irreducible, fn, in)
		for _, blk := range l.Blocks {
			entered := blk == fn.Blocks[0]
			for _, pred := range blk.Preds {
				entered = entered || !in[pred.Index]
			}
			if entered {
				l.Entries = append(l.Entries, blk)
			}
		}
		for _, blk := range l.Blocks {
			for _, s := range blk.Succs {
				if in[s.Index] && slices.Contains(l.Entries, s) {
					l.Back = append(l.Back, Edge{blk, s})
				}
			}
		}
		loops = append(loops, l)
	}
	for _, b := range fn.Blocks {
		if index[b.Index] == 0 {
			visit(b)
		}
	}
	return loops
}

// yieldLoop returns the loop of a range-over-func yield closure: the blocks
// from which a return of true (the next pass) is reached.
func yieldLoop(fn *ssa.Function) *Loop {
	var latches []*ssa.BasicBlock
	for _, b := range fn.Blocks {
		if ret, ok := last(b).(*ssa.Return); ok && len(ret.Results) == 1 && isTrue(ret.Results[0]) {
			latches = append(latches, b)
		}
	}
	in := make([]bool, len(fn.Blocks))
	reachers(in, latches...)
	in[0] = true // a body that never continues is still one pass
	l := newLoop(Yield, fn, in)
	l.Header = fn.Blocks[0]
	l.Entries = []*ssa.BasicBlock{l.Header}
	l.Syntax = fn.Syntax()
	for _, b := range latches {
		l.Back = append(l.Back, Edge{From: b})
	}
	return l
}

// exits fills l.Exits.
func (l *Loop) exits() {
	for _, b := range l.Blocks {
		for _, s := range b.Succs {
			if !l.in[s.Index] && !builderPanic(s) {
				l.Exits = append(l.Exits, Edge{b, s})
			}
		}
	}
}

// builderPanic reports whether b is a panic the builder adds with no
// source behind it: a blocking select that matched no case, a yield
// closure called after its loop ended.
func builderPanic(b *ssa.BasicBlock) bool {
	p, ok := last(b).(*ssa.Panic)
	if !ok || p.Pos().IsValid() {
		return false
	}
	for _, instr := range b.Instrs {
		if instr.Pos().IsValid() {
			return false
		}
	}
	return true
}

func last(b *ssa.BasicBlock) ssa.Instruction {
	if len(b.Instrs) == 0 {
		return nil
	}
	return b.Instrs[len(b.Instrs)-1]
}
