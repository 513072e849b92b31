package flow

// Memo returns the index stored under key, building it with build the
// first time: the value flow (package flow/value) keeps its store and call
// site indexes on the package this way, so that every check that asks
// shares one build. Two first calls at once may both build; one result is
// kept.
func (p *Package) Memo(key any, build func() any) any {
	if v, ok := p.memo.Load(key); ok {
		return v
	}
	v, _ := p.memo.LoadOrStore(key, build())
	return v
}
