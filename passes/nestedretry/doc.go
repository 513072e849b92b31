// Package nestedretry defines an Analyzer that reports retries nested in
// other retries.
//
// # Analyzer nestedretry
//
// nestedretry: report retry layers nested in other retries, directly or through calls
//
// The reference rule: retry at one layer of the stack. Retries at three
// layers of three attempts each make 27 calls to a struggling dependency.
//
// The check reads idemlint's retry model. Inside the repeated code of a
// retry (a hand-written retry loop, the operation passed to a retry
// library, or a job handler its framework retries), it reports:
//
//   - another retry loop or retry library call (at its for keyword or call);
//   - a call to a client that retries by itself: go-retryablehttp Client
//     methods and the *net/http.Client values its StandardClient() and
//     RoundTripper build; stripe-go API calls (3 attempts unless the
//     backend's MaxNetworkRetries is 0); aws-sdk-go-v2 service operations
//     (3 attempts unless the retryer is aws.NopRetryer or the max attempts
//     1); k8s client-go REST requests (10 retries unless MaxRetries(0));
//     gax.Invoke with retry options (Google Cloud clients);
//   - a call of a function that does any of this, through any number of
//     calls: functions, methods on concrete types and closures of the
//     package, and functions of other packages through facts.
//
// The message names the inner layer and, when both attempt caps are known,
// the worst case ("up to 3×5 = 15 calls"). Two retries one after the
// other, loops over items, and loops that do not retry are not reported;
// nor is code inside the inner layer's own repeated code, which belongs to
// that layer. RetryOnConflict around a REST request is not reported: the
// REST client does not retry conflicts.
//
// The fix is to keep one layer: turn the client's own retries off, drop one
// of the loops, or use runtime/retry.Do for every layer (a Do inside
// another Do makes a single attempt).
package nestedretry
