package fieldclients

import "time"

// A test's configuration of the field's client is not the package's: the
// package and its test variant get the same findings.
func configureForTest(api *API) { api.httpClient.Timeout = time.Second }
