package delays

import (
	"net/http"
	"time"

	"pausekit"
)

// A wait helper of another package of the module, known by its fact: the
// constant second it holds has no jitter.
func sendHold(s Sender, r *http.Request) (resp *http.Response, err error) {
	for attempt := 0; attempt < 3; attempt++ {
		if resp, err = s.Do(r); err == nil {
			return resp, nil
		}
		pausekit.Hold(time.Second) // want `constant wait between retry attempts has no jitter`
	}
	return resp, err
}

// ---- look-alikes

// The helper of the other package spreads its wait at random.
func sendSpread(s Sender, r *http.Request) (resp *http.Response, err error) {
	for attempt := 0; attempt < 3; attempt++ {
		if resp, err = s.Do(r); err == nil {
			return resp, nil
		}
		pausekit.Spread(time.Second)
	}
	return resp, err
}
