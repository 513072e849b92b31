package fieldclients

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// go-sdk-events' shape: a configuration field the package never sets
// ("nil to use http.DefaultClient"), copied to a local that falls back to
// http.DefaultClient.
type Lazy struct {
	Client *http.Client
}

func (l *Lazy) Get(ctx context.Context, url string) (*http.Response, error) {
	hc := l.Client
	if hc == nil {
		hc = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	for i := 0; i < 3; i++ {
		resp, err := hc.Do(req) // want `\(\*http.Client\).Do in a retry can hang: field Client has no Timeout by default; set one`
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("failed")
}
