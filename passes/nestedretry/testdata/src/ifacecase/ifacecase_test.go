package ifacecase

// fakeClient is a test double of Client: not what the package's code is
// built to call, so *client stays the one implementation in the test
// variant of the package too.
type fakeClient struct{}

func (fakeClient) RefreshCoordinator(group string) error { return nil }
