package idempotency

// Other is a look-alike package with the same name.
const Other = 1
