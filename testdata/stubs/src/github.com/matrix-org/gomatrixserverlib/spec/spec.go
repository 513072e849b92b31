// Package spec is a stub of github.com/matrix-org/gomatrixserverlib/spec:
// the EDU types, with the real values.
package spec

const (
	MTyping           = "m.typing"
	MDirectToDevice   = "m.direct_to_device"
	MDeviceListUpdate = "m.device_list_update"
	MReceipt          = "m.receipt"
	MPresence         = "m.presence"
	MSigningKeyUpdate = "m.signing_key_update"
)
