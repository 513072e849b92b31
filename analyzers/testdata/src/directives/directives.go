package directives

import "time"

func op() error { return nil }

// A directive that silences a finding is used: not reported.
func used() {
	for attempt := 0; op() != nil && attempt < 5; attempt++ {
		time.Sleep(time.Second) //idemlint:ignore nojitter one client, behind a queue
	}
}

func malformed() {
	//idemlint:ignore nojitter // want `//idemlint:ignore has no reason, so it silences nothing`
	//idemlint:ignore // want `//idemlint:ignore names no check`
	//idemlint:ignore nojiter typo in the name // want `//idemlint:ignore names unknown check nojiter`
	//idemlint:ignore nojitter nothing here to silence // want `//idemlint:ignore nojitter silences nothing; remove it`
	_ = op()
}
