// Package oauth2 is a test stub of golang.org/x/oauth2@v0.27.0: signatures only.
package oauth2

import (
	"context"
	"net/http"
	"time"

	"golang.org/x/oauth2/internal"
)

// Token represents the credentials used to authorize the requests to access protected resources on the OAuth 2.0 provider's backend.
type Token struct {
	AccessToken  string    `json:"access_token"`
	TokenType    string    `json:"token_type,omitempty"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	Expiry       time.Time `json:"expiry,omitempty"`
	ExpiresIn    int64     `json:"expires_in,omitempty"`
}

// A TokenSource is anything that can return a token.
type TokenSource interface {
	Token() (*Token, error)
}

// HTTPClient is the context key to use with context.WithValue to associate a *http.Client value with a context.
var HTTPClient internal.ContextKey

// NewClient creates an *http.Client from a context.Context and TokenSource: its Transport is a
// *Transport over the Transport of the context's HTTPClient (http.DefaultClient when there is
// none); it sets no Timeout.
func NewClient(ctx context.Context, src TokenSource) *http.Client { panic("stub") }

// StaticTokenSource returns a TokenSource that always returns the same token.
func StaticTokenSource(t *Token) TokenSource { panic("stub") }

// ReuseTokenSource returns a TokenSource which repeatedly returns the same token as long as it's valid, starting with t.
func ReuseTokenSource(t *Token, src TokenSource) TokenSource { panic("stub") }

// Transport is an http.RoundTripper that makes OAuth 2.0 HTTP requests.
type Transport struct {
	// Source supplies the token to add to outgoing requests' Authorization headers.
	Source TokenSource

	// Base is the base RoundTripper used to make HTTP requests. If nil, http.DefaultTransport is used.
	Base http.RoundTripper
}

// RoundTrip authorizes and authenticates the request with an access token from Transport's Source.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) { panic("stub") }
