// Package ifacecase: inner layers reached through an interface of the
// package that one type of it implements (sarama's Client, *client).
package ifacecase

import (
	"errors"
	"net/http"
	"time"
)

// Client is what the package's other types hold.
type Client interface {
	RefreshCoordinator(group string) error
}

type client struct{}

func (c *client) lookup(group string) error { return errors.New(group) }

// RefreshCoordinator retries the lookup itself.
func (c *client) RefreshCoordinator(group string) error { // want RefreshCoordinator:`retries\(retry loop, 4 attempts, in \(\*ifacecase.client\).RefreshCoordinator\)`
	var err error
	for i := 0; i < 4; i++ {
		if err = c.lookup(group); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

type offsetManager struct{ client Client }

func (om *offsetManager) fetch() error { return nil }

func (om *offsetManager) fetchWithRetry() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = om.client.RefreshCoordinator("g"); err != nil { // want `\(\*ifacecase.client\).RefreshCoordinator reaches a retry \(4 attempts\) inside a retry \(3 attempts\); retry in one layer only`
			time.Sleep(time.Second)
			continue
		}
		if err = om.fetch(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Look-alike: an interface two types of the package implement; the call
// may run either, so no layer is assumed.
type Store interface{ Save() error }

type memStore struct{}

func (memStore) Save() error { return nil }

type retryingStore struct{}

func (retryingStore) Save() error { // want Save:`retries\(retry loop, 4 attempts, in \(ifacecase.retryingStore\).Save\)`
	var err error
	for i := 0; i < 4; i++ {
		if err = save(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func save() error { return nil }

func persist(s Store) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = s.Save(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Look-alike: slack's retryClient, the package's only implementation of
// the interface it wraps; the wrapped value is an *http.Client, which
// implements the interface too, so the call is not a call of retryClient.
type doer interface {
	Do(req *http.Request) (*http.Response, error)
}

type retryClient struct{ client doer }

func (c *retryClient) Do(req *http.Request) (*http.Response, error) { // want Do:`retries\(retry loop, 3 attempts`
	var resp *http.Response
	var err error
	for i := 0; i < 3; i++ {
		if resp, err = c.client.Do(req); err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return resp, err
}

// nopCloser wraps a Client and embeds the interface: its
// RefreshCoordinator is the wrapped value's, so *client stays the one
// implementation (sarama's nopCloserClient).
type nopCloser struct{ Client }

func (nopCloser) Close() error { return nil }

// fetchOffset retries by recursion: its call to itself is its next
// attempt, not an inner layer; the coordinator refresh inside is one.
func (om *offsetManager) fetchOffset(retries int) error {
	if err := om.client.RefreshCoordinator("g"); err != nil { // want `\(\*ifacecase.client\).RefreshCoordinator reaches retry loop \(4 attempts\) inside a retry loop; retry in one layer only`
		if retries <= 0 {
			return err
		}
		time.Sleep(time.Second)
		return om.fetchOffset(retries - 1)
	}
	return om.fetch()
}
