package retryscope

// For the prefilter's tests: the text test of a delay function's file,
// and the syntax test it must not contradict.
var (
	MayReturnDuration = mayReturnDuration
	ReturnsDuration   = returnsDuration
)
