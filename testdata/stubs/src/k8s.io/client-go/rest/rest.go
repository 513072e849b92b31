// Package rest is a test stub of k8s.io/client-go@v0.37.2: signatures only.
// Only the request-building surface used by retry code is declared: Config,
// RESTClient, Request and Result. Omitted: Interface, NewRESTClient,
// GetRateLimiter and every field or method that needs flowcontrol, transport,
// clientcmd or metav1 types.
//
// The real Request retries by itself: maxRetries 10 by default, on 429/5xx only
// when the server sends an integer Retry-After (any verb), and on
// connection-reset/EOF errors only for GET.
package rest

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
)

// Config holds the common attributes that can be passed to a Kubernetes client on initialization.
type Config struct {
	Host               string
	APIPath            string
	Username           string
	Password           string
	BearerToken        string
	BearerTokenFile    string
	UserAgent          string
	DisableCompression bool
	Transport          http.RoundTripper
	QPS                float32       // 0 means DefaultQPS (5)
	Burst              int           // 0 means DefaultBurst (10)
	Timeout            time.Duration // 0 means no timeout
	Dial               func(ctx context.Context, network, address string) (net.Conn, error)
	Proxy              func(*http.Request) (*url.URL, error)
	ContentConfig
}

// ContentConfig controls how RESTClient communicates with the server.
type ContentConfig struct {
	AcceptContentTypes string
	ContentType        string
	GroupVersion       *schema.GroupVersion
}

const (
	DefaultQPS   float32 = 5.0
	DefaultBurst int     = 10
)

// InClusterConfig returns a config object which uses the service account kubernetes gives to pods.
func InClusterConfig() (*Config, error) { panic("stub") }

// RESTClientFor returns a RESTClient that satisfies the requested attributes on a client Config object.
func RESTClientFor(config *Config) (*RESTClient, error) { panic("stub") }

// RESTClientForConfigAndClient returns a RESTClient that satisfies the requested attributes on a client Config object.
func RESTClientForConfigAndClient(config *Config, httpClient *http.Client) (*RESTClient, error) {
	panic("stub")
}

// HTTPClientFor returns an http.Client that will provide the authentication or transport level security defined by the provided Config.
func HTTPClientFor(config *Config) (*http.Client, error) { panic("stub") }

// RESTClient imposes common Kubernetes API conventions on a set of resource paths.
type RESTClient struct {
	// Set specific behavior of the client. If not set http.DefaultClient will be used.
	Client *http.Client
}

// Verb begins a request with a verb (GET, POST, PUT, DELETE).
func (c *RESTClient) Verb(verb string) *Request { panic("stub") }

// Post begins a POST request. Short for c.Verb("POST").
func (c *RESTClient) Post() *Request { panic("stub") }

// Put begins a PUT request. Short for c.Verb("PUT").
func (c *RESTClient) Put() *Request { panic("stub") }

// Patch begins a PATCH request. Short for c.Verb("Patch").
func (c *RESTClient) Patch(pt types.PatchType) *Request { panic("stub") }

// Get begins a GET request. Short for c.Verb("GET").
func (c *RESTClient) Get() *Request { panic("stub") }

// Delete begins a DELETE request. Short for c.Verb("DELETE").
func (c *RESTClient) Delete() *Request { panic("stub") }

// APIVersion returns the APIVersion this RESTClient is expected to use.
func (c *RESTClient) APIVersion() schema.GroupVersion { panic("stub") }

// Request allows for building up a request to a server in a chained fashion.
type Request struct{}

// NewRequest creates a new request helper object for accessing runtime.Objects on a server.
// Real default: maxRetries 10.
func NewRequest(c *RESTClient) *Request { panic("stub") }

// Verb sets the verb this request will use.
func (r *Request) Verb(verb string) *Request { panic("stub") }

// Resource sets the resource to access (<resource>/[ns/<namespace>/]<name>)
func (r *Request) Resource(resource string) *Request { panic("stub") }

// SubResource sets a sub-resource path which can be multiple segments after the resource name but before the suffix.
func (r *Request) SubResource(subresources ...string) *Request { panic("stub") }

// Name sets the name of a resource to access (<resource>/[ns/<namespace>/]<name>)
func (r *Request) Name(resourceName string) *Request { panic("stub") }

// Namespace applies the namespace scope to a request (<resource>/[ns/<namespace>/]<name>)
func (r *Request) Namespace(namespace string) *Request { panic("stub") }

// AbsPath overwrites an existing path with the segments provided.
func (r *Request) AbsPath(segments ...string) *Request { panic("stub") }

// Param creates a query parameter with the given string value.
func (r *Request) Param(paramName, s string) *Request { panic("stub") }

// VersionedParams will take the provided object, serialize it to a map[string][]string using the implicit RESTClient API version and the default parameter codec, and then add those as parameters to the request.
func (r *Request) VersionedParams(obj runtime.Object, codec runtime.ParameterCodec) *Request {
	panic("stub")
}

// SetHeader sets a header on the request.
func (r *Request) SetHeader(key string, values ...string) *Request { panic("stub") }

// Timeout makes the request use the given duration as an overall timeout for the request.
func (r *Request) Timeout(d time.Duration) *Request { panic("stub") }

// MaxRetries makes the request use the given integer as a ceiling of retrying upon receiving
// "Retry-After" headers and 429 status-code in the response. Default 10; 0 disables.
func (r *Request) MaxRetries(maxRetries int) *Request { panic("stub") }

// Body makes the request use obj as the body.
func (r *Request) Body(obj interface{}) *Request { panic("stub") }

// Watch attempts to begin watching the requested location.
func (r *Request) Watch(ctx context.Context) (watch.Interface, error) { panic("stub") }

// Stream formats and executes the request, and offers streaming of the response.
func (r *Request) Stream(ctx context.Context) (io.ReadCloser, error) { panic("stub") }

// Do formats and executes the request. Returns a Result object for easy response processing.
func (r *Request) Do(ctx context.Context) Result { panic("stub") }

// DoRaw executes the request but does not process the response body.
func (r *Request) DoRaw(ctx context.Context) ([]byte, error) { panic("stub") }

// Result contains the result of calling Request.Do().
type Result struct{}

// Raw returns the raw result.
func (r Result) Raw() ([]byte, error) { panic("stub") }

// Get returns the result as an object, which means it passes through the decoder.
func (r Result) Get() (runtime.Object, error) { panic("stub") }

// StatusCode returns the HTTP status code of the request.
func (r Result) StatusCode(statusCode *int) Result { panic("stub") }

// ContentType returns the "Content-Type" response header into the passed string, returning the Result for possible chaining.
func (r Result) ContentType(contentType *string) Result { panic("stub") }

// Into stores the result into obj, if possible.
func (r Result) Into(obj runtime.Object) error { panic("stub") }

// WasCreated updates the provided bool pointer to whether the server returned 201 created or a different response.
func (r Result) WasCreated(wasCreated *bool) Result { panic("stub") }

// Error returns the error executing the request, nil if no error occurred.
func (r Result) Error() error { panic("stub") }
