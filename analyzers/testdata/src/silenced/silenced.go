package silenced

import "time"

func op() error { return nil }

func sameLine() {
	for i := 0; i < 5; i++ {
		if op() == nil {
			return
		}
		time.Sleep(time.Second) //idemlint:ignore nojitter one client, behind a queue
	}
}

func lineAbove() {
	for i := 0; i < 5; i++ {
		if op() == nil {
			return
		}
		//idemlint:ignore unboundedretry,nojitter the queue spreads these
		time.Sleep(time.Second)
	}
}

func otherCheck() {
	for i := 0; i < 5; i++ {
		if op() == nil {
			return
		}
		//idemlint:ignore unboundedretry names another check
		time.Sleep(time.Second) // want `constant wait between retry attempts has no jitter`
	}
}

func noReason() {
	for i := 0; i < 5; i++ {
		if op() == nil {
			return
		}
		//idemlint:ignore nojitter
		time.Sleep(time.Second) // want `constant wait between retry attempts has no jitter`
	}
}

func twoLinesAbove() {
	for i := 0; i < 5; i++ {
		if op() == nil {
			return
		}
		//idemlint:ignore nojitter too far away to count

		time.Sleep(time.Second) // want `constant wait between retry attempts has no jitter`
	}
}
