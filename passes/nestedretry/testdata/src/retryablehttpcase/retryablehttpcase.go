package retryablehttpcase

import (
	"net/http"
	"os"
	"strconv"
	"time"

	retry "github.com/avast/retry-go/v4"
	"github.com/hashicorp/go-retryablehttp"
)

func clientDo(req *retryablehttp.Request) error {
	c := retryablehttp.NewClient()
	var err error
	for i := 0; i < 3; i++ {
		_, err = c.Do(req) // want `\(\*retryablehttp\.Client\)\.Do retries by itself \(5 attempts\) inside a retry, up to 3×5 = 15 calls; set RetryMax to 0`
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func clientRetryMax(url string) error {
	c := retryablehttp.NewClient()
	c.RetryMax = 2
	return retry.Do(func() error {
		_, err := c.Post(url, "application/json", nil) // want `\(\*retryablehttp\.Client\)\.Post retries by itself \(3 attempts\) inside a retry, up to 10×3 = 30 calls`
		return err
	})
}

func packageGet(url string) error {
	return retry.Do(func() error {
		_, err := retryablehttp.Get(url) // want `retryablehttp\.Get retries by itself \(5 attempts\) inside retry\.Do \(10 attempts\), up to 10×5 = 50 calls`
		return err
	})
}

func standardClient(req *http.Request) error {
	hc := retryablehttp.NewClient().StandardClient()
	return retry.Do(func() error {
		_, err := hc.Do(req) // want `\(\*http\.Client\)\.Do retries by itself \(5 attempts\) inside retry\.Do \(10 attempts\), up to 10×5 = 50 calls`
		return err
	})
}

type api struct {
	http *http.Client
}

func newAPI() *api {
	rc := retryablehttp.NewClient()
	rc.RetryMax = 1
	return &api{http: &http.Client{Transport: &retryablehttp.RoundTripper{Client: rc}}}
}

// The client is stored in a field; every value assigned to it sends
// through a RoundTripper.
func (a *api) fetch(url string) error {
	return retry.Do(func() error {
		_, err := a.http.Get(url) // want `\(\*http\.Client\)\.Get retries by itself \(2 attempts\) inside a retry \(10 attempts\), up to 10×2 = 20 calls`
		return err
	})
}

func roundTrip(req *http.Request) error {
	rt := &retryablehttp.RoundTripper{}
	return retry.Do(func() error {
		_, err := rt.RoundTrip(req) // want `\(\*retryablehttp\.RoundTripper\)\.RoundTrip \(5 attempts\) inside a retry, up to 10×5 = 50 calls`
		return err
	})
}

// ---- negatives

func noRetries(req *retryablehttp.Request) error {
	c := retryablehttp.NewClient()
	c.RetryMax = 0
	return retry.Do(func() error {
		_, err := c.Do(req)
		return err
	})
}

func literalWithoutRetryMax(req *retryablehttp.Request) error {
	c := &retryablehttp.Client{HTTPClient: http.DefaultClient}
	return retry.Do(func() error {
		_, err := c.Do(req)
		return err
	})
}

func plainHTTP(req *http.Request) error {
	hc := &http.Client{Timeout: time.Second}
	return retry.Do(func() error {
		_, err := hc.Do(req)
		return err
	})
}

func defaultHTTP(url string) error {
	return retry.Do(func() error {
		_, err := http.Get(url)
		return err
	})
}

// getter is the package's view of a client; the function fills it with a
// retrying one.
type getter interface {
	Get(url string) (*http.Response, error)
}

func ifaceHeld(url string) error {
	var g getter = retryablehttp.NewClient()
	var err error
	for i := 0; i < 3; i++ {
		if _, err = g.Get(url); err == nil { // want `\(retryablehttpcase\.getter\)\.Get retries by itself \(5 attempts\) inside a retry, up to 3×5 = 15 calls`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// ifaceParam's getter comes from the caller: its type is not known here.
func ifaceParam(g getter, url string) (err error) {
	for range 3 {
		if _, err = g.Get(url); err == nil {
			break
		}
		time.Sleep(time.Second)
	}
	return err
}

// ifacePlain holds a net/http client, which does not retry.
func ifacePlain(url string) error {
	var g getter = &http.Client{Timeout: time.Second}
	attempts := 3
	for {
		_, err := g.Get(url)
		if err == nil || attempts == 1 {
			return err
		}
		attempts--
		time.Sleep(time.Second)
	}
}

// Config's MaxRetries defaults to 2 in the package: a RetryMax read from
// it is 3 attempts, wherever the client is configured (issue 47).
type Config struct {
	MaxRetries int
}

func DefaultConfig() *Config { return &Config{MaxRetries: 2} }

type API struct {
	cfg *Config
}

func (a *API) client() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.RetryMax = a.cfg.MaxRetries
	return c
}

func (a *API) sync(url string) error {
	rc := a.client()
	return retry.Do(func() error {
		_, err := rc.Post(url, "application/json", nil) // want `\(\*retryablehttp\.Client\)\.Post retries by itself \(3 attempts\) inside a retry, up to 10×3 = 30 calls; set RetryMax to 0`
		return err
	})
}

// VaultConfig is vault's shape: MaxRetries defaults to 2 in
// DefaultVaultConfig's literal, and is overwritten by a value parsed from
// the environment and by a setter's parameter. The default is the layer's
// documented setting: a RetryMax read from it is 3 attempts.
type VaultConfig struct {
	MaxRetries int
}

func DefaultVaultConfig() *VaultConfig {
	config := &VaultConfig{MaxRetries: 2}
	if err := config.ReadEnvironment(); err != nil {
		return nil
	}
	return config
}

func (c *VaultConfig) ReadEnvironment() error {
	if v := os.Getenv("VAULT_MAX_RETRIES"); v != "" {
		n, err := strconv.ParseUint(v, 10, 32)
		if err != nil {
			return err
		}
		c.MaxRetries = int(n)
	}
	return nil
}

type Vault struct {
	config *VaultConfig
}

func (v *Vault) SetMaxRetries(retries int) {
	v.config.MaxRetries = retries
}

func (v *Vault) rawRequest(req *retryablehttp.Request) (*http.Response, error) {
	maxRetries := v.config.MaxRetries
	client := &retryablehttp.Client{
		HTTPClient: http.DefaultClient,
		RetryMax:   maxRetries,
		CheckRetry: retryablehttp.DefaultRetryPolicy,
		Backoff:    retryablehttp.LinearJitterBackoff,
	}
	return client.Do(req)
}

func (v *Vault) renew(req *retryablehttp.Request) error {
	return retry.Do(func() error {
		_, err := v.rawRequest(req) // want `\(\*retryablehttpcase\.Vault\)\.rawRequest reaches a retry \(3 attempts\) inside a retry \(10 attempts\); set RetryMax to 0`
		return err
	})
}
