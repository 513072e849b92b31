package libraries

import retrygo3 "github.com/avast/retry-go"

func avastV3() {
	retrygo3.Do(op, retrygo3.DelayType(retrygo3.BackOffDelay)) // want `deterministic backoff without jitter \(retry\.BackOffDelay\); use the default DelayType \(BackOffDelay plus RandomDelay\)`
	retrygo3.Do(op)
}
