// Package value is the suite's one value flow (issue 46, item 4), over the
// SSA form the flow engine builds: where a value comes from (Origins,
// walking back through phis, conversions, extracts, loads of local cells,
// captured variables, fields and elements, to constants, calls,
// parameters, globals, allocations and fields), and where it goes (Uses,
// forward through def-use, stores into cells and fields, and into the
// package's own callees and back to their callers). Two indexes are built
// once per package and shared (flow.Package.Memo): every store of a field
// (by *types.Var) and of a cell (an Alloc, a captured variable's cell
// through the closures' free variables, a global), and the package's
// static call sites of each function, a closure called directly among
// them. One Query has one budget: a visited set and one step limit for the
// whole query, no per-hop depth.
package value

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/passes/internal/flow"
)

// Flow is the value flow of one package.
type Flow struct {
	P *flow.Package

	fieldStores map[*types.Var][]*ssa.Store   // every store of a field, by field
	fieldLoads  map[*types.Var][]ssa.Value    // every load of a field (UnOp of a FieldAddr, Field)
	localField  map[fieldKey][]*ssa.Store     // stores of a field of a local cell, by cell
	cellStores  map[ssa.Value][]*ssa.Store    // stores into a cell (Alloc, Global) or its elements
	cellLoads   map[ssa.Value][]ssa.Value     // loads of a cell, through any free variable bound to it
	freeRoot    map[*ssa.FreeVar]ssa.Value    // a free variable's binding, to its outermost value
	sites       map[*ssa.Function][]*ssa.Call // static call sites (closures called directly among them)
	byPos       map[token.Pos][]ssa.Instruction
}

type fieldKey struct {
	cell  ssa.Value
	field *types.Var
}

type memoKey struct{}

// Of returns the value flow of p, building its indexes on the first call.
func Of(p *flow.Package) *Flow {
	return p.Memo(memoKey{}, func() any { return build(p) }).(*Flow)
}

func build(p *flow.Package) *Flow {
	f := &Flow{
		P:           p,
		fieldStores: make(map[*types.Var][]*ssa.Store),
		fieldLoads:  make(map[*types.Var][]ssa.Value),
		localField:  make(map[fieldKey][]*ssa.Store),
		cellStores:  make(map[ssa.Value][]*ssa.Store),
		cellLoads:   make(map[ssa.Value][]ssa.Value),
		freeRoot:    make(map[*ssa.FreeVar]ssa.Value),
		sites:       make(map[*ssa.Function][]*ssa.Call),
		byPos:       make(map[token.Pos][]ssa.Instruction),
	}
	// free variables first: a cell's root is found through them
	for _, fn := range p.Funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if mc, ok := instr.(*ssa.MakeClosure); ok {
					if cl, ok := mc.Fn.(*ssa.Function); ok {
						for i, fv := range cl.FreeVars {
							if i < len(mc.Bindings) {
								f.freeRoot[fv] = mc.Bindings[i]
							}
						}
					}
				}
			}
		}
	}
	for _, fn := range p.Funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if pos := instr.Pos(); pos.IsValid() {
					f.byPos[pos] = append(f.byPos[pos], instr)
				}
				switch in := instr.(type) {
				case *ssa.Store:
					f.indexStore(in)
				case *ssa.UnOp:
					if in.Op == token.MUL {
						f.indexLoad(in)
					}
				case *ssa.Field:
					if v := FieldVar(in.X.Type(), in.Field); v != nil {
						f.fieldLoads[v] = append(f.fieldLoads[v], in)
					}
				case *ssa.Call:
					if callee := in.Call.StaticCallee(); callee != nil {
						f.sites[callee] = append(f.sites[callee], in)
					}
				}
			}
		}
	}
	return f
}

func (f *Flow) indexStore(st *ssa.Store) {
	switch a := st.Addr.(type) {
	case *ssa.FieldAddr:
		if v := FieldVar(a.X.Type(), a.Field); v != nil {
			f.fieldStores[v] = append(f.fieldStores[v], st)
			if cell := f.Cell(a.X); cell != nil {
				k := fieldKey{cell, v}
				f.localField[k] = append(f.localField[k], st)
			}
		}
	case *ssa.IndexAddr:
		if cell := f.Cell(a.X); cell != nil {
			f.cellStores[cell] = append(f.cellStores[cell], st)
		}
	default:
		if cell := f.Cell(a); cell != nil {
			f.cellStores[cell] = append(f.cellStores[cell], st)
		}
	}
}

func (f *Flow) indexLoad(ld *ssa.UnOp) {
	switch a := ld.X.(type) {
	case *ssa.FieldAddr:
		if v := FieldVar(a.X.Type(), a.Field); v != nil {
			f.fieldLoads[v] = append(f.fieldLoads[v], ld)
		}
	default:
		if cell := f.Cell(a); cell != nil {
			f.cellLoads[cell] = append(f.cellLoads[cell], ld)
		}
	}
}

// Cell returns the cell an address names: an Alloc, a Global, or the
// outer Alloc a captured variable's free variable is bound to; nil for any
// other address (a parameter's pointer, a field's address).
func (f *Flow) Cell(addr ssa.Value) ssa.Value {
	for range 64 {
		switch a := addr.(type) {
		case *ssa.Alloc, *ssa.Global:
			return a
		case *ssa.FreeVar:
			root, ok := f.freeRoot[a]
			if !ok {
				return nil
			}
			addr = root
		default:
			return nil
		}
	}
	return nil
}

// FieldVar returns field i of the struct t (or *t) points to or is.
func FieldVar(t types.Type, i int) *types.Var {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
		t = tp.Constraint()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return nil
	}
	return st.Field(i)
}

// Sites returns the package's static call sites of fn.
func (f *Flow) Sites(fn *ssa.Function) []*ssa.Call { return f.sites[fn] }

// FieldStores returns every store of field v in the package.
func (f *Flow) FieldStores(v *types.Var) []*ssa.Store { return f.fieldStores[v] }

// CellStores returns every store into the cell (an Alloc or a Global),
// through the free variables of the closures bound to it too, and into its
// elements (an IndexAddr's).
func (f *Flow) CellStores(cell ssa.Value) []*ssa.Store { return f.cellStores[cell] }

// FieldLoads returns every read of field v in the package (a load through
// the field's address, or a Field of a struct value): where its value
// starts when it is walked forward (Uses).
func (f *Flow) FieldLoads(v *types.Var) []ssa.Value { return f.fieldLoads[v] }

// DefaultLimit is a query's step limit when Query.Limit is 0.
const DefaultLimit = 4096

// A Query is one question's walk: its budget (a visited set and one step
// limit) and how far it may go. The zero Query stays in the function of
// the value asked about, apart from captured variables' cells and fields.
type Query struct {
	Limit int // steps for the whole query; 0 means DefaultLimit
	// Interproc lets the walk go from a parameter to the arguments of the
	// package's static call sites of its function, and from a call of a
	// package function to the values it returns (and, forward, the
	// reverse).
	Interproc bool
	// Through, when not nil, returns the values a call's result derives
	// from (fmt.Sprint's arguments, a method's receiver): the walk goes on
	// to them as well as stopping at the call. It is the check's
	// knowledge of libraries.
	Through func(call *ssa.Call) []ssa.Value
	// Stop, when not nil, ends the walk at a value (kept as an origin).
	Stop func(v ssa.Value) bool

	steps     int
	seen      map[ssa.Value]bool
	fields    map[fieldKey]bool
	Exhausted bool // the step limit ended the walk: the answer is partial
}

func (q *Query) visit(v ssa.Value) bool {
	if v == nil {
		return false
	}
	if q.seen == nil {
		q.seen = make(map[ssa.Value]bool)
	}
	if q.seen[v] {
		return false
	}
	limit := q.Limit
	if limit == 0 {
		limit = DefaultLimit
	}
	if q.steps >= limit {
		q.Exhausted = true
		return false
	}
	q.steps++
	q.seen[v] = true
	return true
}

// Origins returns where v comes from, each once: constants, calls (an
// origin even when Through goes on through it), parameters, globals and
// allocations (a cell is an origin as well as what is stored into it or
// its elements: a call may fill it through its address), field addresses
// and field values read, received values, function values and closures.
// A phi, a conversion, an extract, an operator, a slice of a local array
// and a load are walked through.
func (f *Flow) Origins(v ssa.Value, q *Query) []ssa.Value {
	if q == nil {
		q = &Query{}
	}
	var out []ssa.Value
	add := func(o ssa.Value) { out = append(out, o) }
	var walk func(v ssa.Value)
	walk = func(v ssa.Value) {
		if !q.visit(v) {
			return
		}
		if q.Stop != nil && q.Stop(v) {
			add(v)
			return
		}
		switch v := v.(type) {
		case *ssa.Phi:
			for _, e := range v.Edges {
				walk(e)
			}
		case *ssa.ChangeType:
			walk(v.X)
		case *ssa.Convert:
			walk(v.X)
		case *ssa.MultiConvert:
			walk(v.X)
		case *ssa.MakeInterface:
			walk(v.X)
		case *ssa.ChangeInterface:
			walk(v.X)
		case *ssa.SliceToArrayPointer:
			walk(v.X)
		case *ssa.TypeAssert:
			walk(v.X)
		case *ssa.Slice:
			if cell := f.Cell(v.X); cell != nil {
				walk(cell) // a slice of a local array: its elements
			} else {
				walk(v.X)
			}
		case *ssa.Index:
			walk(v.X)
		case *ssa.Lookup:
			walk(v.X)
		case *ssa.Extract:
			if call, ok := v.Tuple.(*ssa.Call); ok {
				f.call(call, v.Index, q, add, walk)
			} else {
				walk(v.Tuple)
			}
		case *ssa.Call:
			f.call(v, 0, q, add, walk)
		case *ssa.UnOp:
			switch v.Op {
			case token.MUL:
				f.load(v.X, q, add, walk)
			case token.ARROW:
				add(v)
			default:
				walk(v.X)
			}
		case *ssa.BinOp:
			switch v.Op {
			case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
				add(v)
			default:
				walk(v.X)
				walk(v.Y)
			}
		case *ssa.Field:
			add(v)
			fv := FieldVar(v.X.Type(), v.Field)
			if fv == nil {
				return
			}
			if ld, ok := v.X.(*ssa.UnOp); ok && ld.Op == token.MUL {
				if cell := f.Cell(ld.X); cell != nil {
					f.localFieldOf(cell, fv, q, walk)
					return
				}
			}
			for _, st := range f.fieldStores[fv] {
				walk(st.Val)
			}
		case *ssa.Parameter:
			add(v)
			if q.Interproc {
				f.args(v, walk)
			}
		case *ssa.FreeVar:
			if root, ok := f.freeRoot[v]; ok {
				walk(root)
			} else {
				add(v)
			}
		case *ssa.Alloc, *ssa.Global:
			// a cell, and what is stored into it or its elements
			add(v)
			for _, st := range f.cellStores[v] {
				walk(st.Val)
			}
		default:
			add(v)
		}
	}
	walk(v)
	return out
}

// call handles result i of call: an origin; Through's values; with
// Interproc, the package callee's returns.
func (f *Flow) call(call *ssa.Call, i int, q *Query, add func(ssa.Value), walk func(ssa.Value)) {
	add(call)
	if q.Through != nil {
		for _, d := range q.Through(call) {
			walk(d)
		}
	}
	if !q.Interproc {
		return
	}
	if callee := call.Call.StaticCallee(); callee != nil && callee.Pkg == f.P.SSA {
		for _, r := range Returns(callee) {
			if i < len(r.Results) {
				walk(r.Results[i])
			}
		}
	}
}

// load handles a load of addr: the cell's or field's stores, and the cell
// or field itself as an origin.
func (f *Flow) load(addr ssa.Value, q *Query, add func(ssa.Value), walk func(ssa.Value)) {
	switch a := addr.(type) {
	case *ssa.FieldAddr:
		add(a)
		fv := FieldVar(a.X.Type(), a.Field)
		if fv == nil {
			return
		}
		if cell := f.Cell(a.X); cell != nil {
			f.localFieldOf(cell, fv, q, walk)
			return
		}
		for _, st := range f.fieldStores[fv] {
			walk(st.Val)
		}
	case *ssa.IndexAddr:
		if cell := f.Cell(a.X); cell != nil {
			walk(cell)
			return
		}
		walk(a.X)
	default:
		if cell := f.Cell(addr); cell != nil {
			walk(cell)
		} else {
			add(addr)
		}
	}
}

// localFieldOf walks to the values stored into field fv of a local cell:
// stores of the field, and stores of the whole struct (o := T{...} copies
// a literal's cell into o's), whose field is followed in the cell the
// struct was loaded from, or else the struct's own origins.
func (f *Flow) localFieldOf(cell ssa.Value, fv *types.Var, q *Query, walk func(ssa.Value)) {
	if q.fields == nil {
		q.fields = make(map[fieldKey]bool)
	}
	k := fieldKey{cell, fv}
	if q.fields[k] {
		return
	}
	q.fields[k] = true
	for _, st := range f.localField[k] {
		walk(st.Val)
	}
	for _, st := range f.cellStores[cell] {
		if _, elem := st.Addr.(*ssa.IndexAddr); elem {
			continue
		}
		if ld, ok := st.Val.(*ssa.UnOp); ok && ld.Op == token.MUL {
			if from := f.Cell(ld.X); from != nil {
				f.localFieldOf(from, fv, q, walk)
				continue
			}
		}
		walk(st.Val)
	}
}

// args walks to the arguments the package's static call sites give p.
func (f *Flow) args(p *ssa.Parameter, walk func(ssa.Value)) {
	fn := p.Parent()
	i := -1
	for j, q := range fn.Params {
		if q == p {
			i = j
		}
	}
	if i < 0 {
		return
	}
	for _, site := range f.sites[fn] {
		if args := site.Call.Args; i < len(args) {
			walk(args[i])
		}
	}
}

// Returns returns fn's return instructions.
func Returns(fn *ssa.Function) []*ssa.Return {
	var out []*ssa.Return
	for _, b := range fn.Blocks {
		if r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			out = append(out, r)
		}
	}
	return out
}

// A Use is where a value walked forward ends up: an instruction that
// consumes it other than by passing it on (a call's argument, a store, a
// map update, a comparison, a return, a send).
type Use struct {
	Instr ssa.Instruction
	Value ssa.Value // the operand of Instr the value reached as
}

// Uses returns where v goes: forward through conversions, phis, operators,
// extracts, the cells and fields it is stored into (to their loads), the
// closures it is bound in, and, with Interproc, the parameters of the
// package's callees it is passed to and the results of the package's
// functions it is returned from. Stores, calls and returns are uses even
// when the walk goes on past them.
func (f *Flow) Uses(v ssa.Value, q *Query) []Use {
	if q == nil {
		q = &Query{}
	}
	var out []Use
	var walk func(v ssa.Value)
	walk = func(v ssa.Value) {
		if !q.visit(v) {
			return
		}
		if q.Stop != nil && q.Stop(v) {
			return
		}
		refs := v.Referrers()
		if refs == nil {
			return
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.Phi, *ssa.ChangeType, *ssa.Convert, *ssa.MultiConvert, *ssa.MakeInterface, *ssa.ChangeInterface,
				*ssa.SliceToArrayPointer, *ssa.TypeAssert, *ssa.Slice, *ssa.Extract, *ssa.Index, *ssa.Field:
				walk(r.(ssa.Value))
			case *ssa.UnOp:
				if r.Op == token.MUL {
					walk(r) // a load of the cell v is
				} else if r.Op != token.ARROW {
					walk(r)
				} else {
					out = append(out, Use{r, v})
				}
			case *ssa.BinOp:
				switch r.Op {
				case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
					out = append(out, Use{r, v})
				default:
					walk(r)
				}
			case *ssa.Store:
				out = append(out, Use{r, v})
				if r.Val == v {
					f.stored(r, walk)
				}
			case *ssa.MakeClosure:
				if cl, ok := r.Fn.(*ssa.Function); ok {
					for i, b := range r.Bindings {
						if b == v && i < len(cl.FreeVars) {
							walk(cl.FreeVars[i])
						}
					}
				}
			case *ssa.Call:
				out = append(out, Use{r, v})
				if !q.Interproc {
					break
				}
				if callee := r.Call.StaticCallee(); callee != nil && callee.Pkg == f.P.SSA {
					for i, a := range r.Call.Args {
						if a == v && i < len(callee.Params) {
							walk(callee.Params[i])
						}
					}
				}
			case *ssa.Return:
				out = append(out, Use{r, v})
				if !q.Interproc {
					break
				}
				for i, res := range r.Results {
					if res != v {
						continue
					}
					for _, site := range f.sites[r.Parent()] {
						if len(r.Results) == 1 {
							walk(site)
							continue
						}
						if refs := site.Referrers(); refs != nil {
							for _, x := range *refs {
								if e, ok := x.(*ssa.Extract); ok && e.Index == i {
									walk(e)
								}
							}
						}
					}
				}
			case *ssa.FieldAddr, *ssa.IndexAddr:
				walk(r.(ssa.Value)) // an address into v: its loads and stores are v's
			default:
				out = append(out, Use{r, v})
			}
		}
	}
	walk(v)
	return out
}

// stored walks from a store to the loads of what it stored into.
func (f *Flow) stored(st *ssa.Store, walk func(ssa.Value)) {
	switch a := st.Addr.(type) {
	case *ssa.FieldAddr:
		fv := FieldVar(a.X.Type(), a.Field)
		if fv == nil {
			return
		}
		for _, ld := range f.fieldLoads[fv] {
			walk(ld)
		}
	case *ssa.IndexAddr:
		if cell := f.Cell(a.X); cell != nil {
			for _, ld := range f.cellLoads[cell] {
				walk(ld)
			}
		}
	default:
		if cell := f.Cell(a); cell != nil {
			for _, ld := range f.cellLoads[cell] {
				walk(ld)
			}
		}
	}
}

// Arg returns the value call passes as its syntactic argument i (the
// receiver of a method call not counted), the element of a variadic
// call's implicit slice included; nil when call has no call instruction.
func (f *Flow) Arg(call *ast.CallExpr, i int) ssa.Value {
	ci := f.P.CallOf(call)
	if ci == nil {
		return nil
	}
	c := ci.Common()
	args := c.Args
	sig := c.Signature()
	if !c.IsInvoke() && sig.Recv() != nil && len(args) > 0 {
		args = args[1:] // a static method call: the receiver is Args[0]
	}
	n := sig.Params().Len()
	if sig.Variadic() && !call.Ellipsis.IsValid() && i >= n-1 && n > 0 && n-1 < len(args) {
		return variadicElem(args[n-1], i-(n-1))
	}
	if i < len(args) {
		return args[i]
	}
	return nil
}

// Recv returns the receiver value of a method call; nil for a function.
func (f *Flow) Recv(call *ast.CallExpr) ssa.Value {
	ci := f.P.CallOf(call)
	if ci == nil {
		return nil
	}
	c := ci.Common()
	if c.IsInvoke() {
		return c.Value
	}
	if fn, ok := c.Value.(*ssa.Function); ok && fn.Signature.Recv() != nil && len(c.Args) > 0 {
		return c.Args[0]
	}
	return nil
}

// variadicElem returns element k of the slice a variadic call builds:
// the value stored at index k of its array.
func variadicElem(slice ssa.Value, k int) ssa.Value {
	s, ok := slice.(*ssa.Slice)
	if !ok {
		return nil
	}
	refs := s.X.Referrers()
	if refs == nil {
		return nil
	}
	for _, r := range *refs {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		c, ok := ia.Index.(*ssa.Const)
		if !ok || c.Int64() != int64(k) {
			continue
		}
		if irefs := ia.Referrers(); irefs != nil {
			for _, ir := range *irefs {
				if st, ok := ir.(*ssa.Store); ok && st.Addr == ia {
					return st.Val
				}
			}
		}
	}
	return nil
}

// StoredAt returns the value stored by the store or map update whose
// syntax is at pos: the Sel of an assignment to a field (x.f = v), the
// colon of a composite literal's key (T{F: v}, map literals), the Lbrack
// of a map assignment (m[k] = v); nil when there is none.
func (f *Flow) StoredAt(pos token.Pos) ssa.Value {
	for _, instr := range f.byPos[pos] {
		switch in := instr.(type) {
		case *ssa.MapUpdate:
			return in.Value
		case *ssa.Store:
			return in.Val
		case *ssa.FieldAddr, *ssa.IndexAddr:
			if refs := in.(ssa.Value).Referrers(); refs != nil {
				for _, r := range *refs {
					if st, ok := r.(*ssa.Store); ok && st.Addr == in.(ssa.Value) {
						return st.Val
					}
				}
			}
		}
	}
	return nil
}

// At returns the instructions whose position is pos.
func (f *Flow) At(pos token.Pos) []ssa.Instruction { return f.byPos[pos] }

// ValueOf returns the SSA value of e, when the builder gave it an
// instruction of its own: a call, an operator, a field or element read, a
// slice literal; a constant; for a conversion, its operand's value. A variable's name has none without the
// builder's debug mode (which doubles the instructions): ask for the
// operand of what consumes it (Arg, StoredAt).
func (f *Flow) ValueOf(info *types.Info, e ast.Expr) ssa.Value {
	e = ast.Unparen(e)
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		return ssa.NewConst(tv.Value, tv.Type)
	}
	var pos token.Pos
	switch e := e.(type) {
	case *ast.CallExpr:
		if ci := f.P.CallOf(e); ci != nil {
			if c, ok := ci.(*ssa.Call); ok {
				return c
			}
			return nil
		}
		if tv, ok := info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			// a conversion has no position of its own: its operand's
			// value stands for it (the same origins, another type)
			return f.ValueOf(info, e.Args[0])
		}
		return nil
	case *ast.BinaryExpr:
		pos = e.OpPos
	case *ast.UnaryExpr:
		pos = e.OpPos
	case *ast.StarExpr:
		pos = e.Star
	case *ast.SelectorExpr:
		pos = e.Sel.Pos()
	case *ast.IndexExpr:
		pos = e.Lbrack
	case *ast.SliceExpr:
		pos = e.Lbrack
	case *ast.CompositeLit:
		pos = e.Lbrace
	case *ast.TypeAssertExpr:
		pos = e.Lparen
	default:
		return nil
	}
	t := info.TypeOf(e)
	var best ssa.Value
	for _, instr := range f.byPos[pos] {
		v, ok := instr.(ssa.Value)
		if !ok {
			continue
		}
		if t != nil && types.Identical(v.Type(), t) {
			best = v // the last at pos: a load after its address
		}
	}
	return best
}

// Expr returns the SSA value of e, whose parent node is parent: the value
// of its own instruction (ValueOf), or else the operand its parent takes
// it as: a call's argument (Arg), the value a composite literal's entry
// stores (StoredAt its colon), the value an assignment stores into a field
// or a map (StoredAt the selector or the bracket). nil when neither has
// one (a variable assigned to a variable).
func (f *Flow) Expr(info *types.Info, parent ast.Node, e ast.Expr) ssa.Value {
	if v := f.ValueOf(info, e); v != nil {
		return v
	}
	switch p := parent.(type) {
	case *ast.ParenExpr:
		return nil
	case *ast.CallExpr:
		for i, a := range p.Args {
			if a == e {
				return f.Arg(p, i)
			}
		}
	case *ast.KeyValueExpr:
		if p.Value == e {
			return f.StoredAt(p.Colon)
		}
	case *ast.AssignStmt:
		if len(p.Lhs) != len(p.Rhs) {
			return nil
		}
		for i, r := range p.Rhs {
			if r != e {
				continue
			}
			switch l := ast.Unparen(p.Lhs[i]).(type) {
			case *ast.SelectorExpr:
				return f.StoredAt(l.Sel.Pos())
			case *ast.IndexExpr:
				return f.StoredAt(l.Lbrack)
			}
		}
	}
	return nil
}

// Const reports whether every origin of v is a constant.
func (f *Flow) Const(v ssa.Value, q *Query) bool {
	origins := f.Origins(v, q)
	for _, o := range origins {
		if _, ok := o.(*ssa.Const); !ok {
			return false
		}
	}
	return len(origins) > 0 && !q.exhausted()
}

func (q *Query) exhausted() bool { return q != nil && q.Exhausted }

// FromCall returns the calls of fn (by *types.Func, generic instances by
// their origin) among v's origins.
func (f *Flow) FromCall(v ssa.Value, fn *types.Func, q *Query) []*ssa.Call {
	var out []*ssa.Call
	for _, o := range f.Origins(v, q) {
		if c, ok := o.(*ssa.Call); ok && Callee(c) == fn.Origin() {
			out = append(out, c)
		}
	}
	return out
}

// Callee returns the function a call statically calls, by *types.Func
// (generic instances by their origin); nil for a dynamic call or a
// closure.
func Callee(c ssa.CallInstruction) *types.Func {
	com := c.Common()
	if com.IsInvoke() {
		return com.Method.Origin()
	}
	if fn, ok := com.Value.(*ssa.Function); ok {
		if obj, ok := fn.Object().(*types.Func); ok {
			return obj.Origin()
		}
	}
	return nil
}

// In returns the origins whose instruction lies in loop l: values made on
// each pass of it (a parameter, a constant or a global is made in none).
func In(origins []ssa.Value, l *flow.Loop) []ssa.Value {
	var out []ssa.Value
	for _, o := range origins {
		if instr, ok := o.(ssa.Instruction); ok && instr.Block() != nil && instr.Parent() == l.Fn && l.Contains(instr.Block()) {
			out = append(out, o)
		}
	}
	return out
}

// Reach is what a value reaches walked forward: the fields it is stored
// into and the constant keys of the maps it is put in.
type Reach struct {
	Fields []*types.Var
	Keys   []*ssa.Const
}

// Reaches returns the fields and constant map keys v reaches.
func (f *Flow) Reaches(v ssa.Value, q *Query) Reach {
	var r Reach
	for _, u := range f.Uses(v, q) {
		switch in := u.Instr.(type) {
		case *ssa.Store:
			if fa, ok := in.Addr.(*ssa.FieldAddr); ok && in.Val == u.Value {
				if fv := FieldVar(fa.X.Type(), fa.Field); fv != nil {
					r.Fields = append(r.Fields, fv)
				}
			}
		case *ssa.MapUpdate:
			if c, ok := in.Key.(*ssa.Const); ok && in.Value == u.Value {
				r.Keys = append(r.Keys, c)
			}
		}
	}
	return r
}

// Ranged returns the range over a map (or a string) that v is one element
// of on each pass: v's origins are the key (key true) or the value of the
// same `for k, v := range x` (the cell of a loop variable a closure
// captures aside); nil otherwise. The Range's X is the ranged value and
// its Pos the range statement's For.
func (f *Flow) Ranged(v ssa.Value, q *Query) (rng *ssa.Range, key bool) {
	if v == nil {
		return nil, false
	}
	if q == nil {
		q = &Query{}
	}
	stop := q.Stop
	q.Stop = func(v ssa.Value) bool {
		if e, ok := v.(*ssa.Extract); ok {
			if _, ok := e.Tuple.(*ssa.Next); ok {
				return true
			}
		}
		return stop != nil && stop(v)
	}
	defer func() { q.Stop = stop }()
	index := 0
	for _, o := range f.Origins(v, q) {
		if _, cell := o.(*ssa.Alloc); cell {
			continue // a captured loop variable's cell: its stores are walked
		}
		e, ok := o.(*ssa.Extract)
		if !ok {
			return nil, false
		}
		next, ok := e.Tuple.(*ssa.Next)
		if !ok {
			return nil, false
		}
		r, ok := next.Iter.(*ssa.Range)
		if !ok || rng != nil && (r != rng || e.Index != index) || e.Index == 0 {
			return nil, false
		}
		rng, index = r, e.Index
	}
	if rng == nil || q.Exhausted {
		return nil, false
	}
	return rng, index == 1
}
