package copied

import (
	"net/http"
	"time"

	"github.com/hashicorp/go-cleanhttp"
	"github.com/hashicorp/go-retryablehttp"
)

// A client passed down a chain of the package's helpers, each copying it
// into a local, before its Timeout is copied: as far as the chain goes
// (the value flow has one budget, no depth per hop).
func deepRetrying(hc *http.Client) *http.Client {
	rc := retryablehttp.NewClient()
	rc.HTTPClient.Timeout = hc.Timeout // want `copied hc\.Timeout is 0 \(cleanhttp\.DefaultClient\(\) of DeepRetrying\): no attempt times out; default it when 0`
	return rc.StandardClient()
}

func deep4(hc *http.Client) *http.Client { c := hc; return deepRetrying(c) }
func deep3(hc *http.Client) *http.Client { c := hc; return deep4(c) }
func deep2(hc *http.Client) *http.Client { c := hc; return deep3(c) }
func deep1(hc *http.Client) *http.Client { c := hc; return deep2(c) }

func DeepRetrying() *http.Client { return deep1(cleanhttp.DefaultClient()) }

// Look-alike: the same chain, the client at its top with a Timeout.
func deepTimedRetrying(hc *http.Client) *http.Client {
	rc := retryablehttp.NewClient()
	rc.HTTPClient.Timeout = hc.Timeout
	return rc.StandardClient()
}

func deepTimed4(hc *http.Client) *http.Client { c := hc; return deepTimedRetrying(c) }
func deepTimed3(hc *http.Client) *http.Client { c := hc; return deepTimed4(c) }
func deepTimed2(hc *http.Client) *http.Client { c := hc; return deepTimed3(c) }
func deepTimed1(hc *http.Client) *http.Client { c := hc; return deepTimed2(c) }

func DeepTimedRetrying() *http.Client {
	return deepTimed1(&http.Client{Timeout: 10 * time.Second})
}

// One call of the package passes a client without a Timeout, another one
// with: the first's retrying client has none.
func mixedRetrying(hc *http.Client) *http.Client {
	rc := retryablehttp.NewClient()
	rc.HTTPClient.Timeout = hc.Timeout // want `copied hc\.Timeout is 0 \(http\.DefaultClient of MixedDefault\): no attempt times out; default it when 0`
	return rc.StandardClient()
}

func MixedDefault() *http.Client { return mixedRetrying(http.DefaultClient) }

func MixedTimed() *http.Client { return mixedRetrying(&http.Client{Timeout: 10 * time.Second}) }
