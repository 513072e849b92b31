// Package loops mints idempotency keys inside hand-written retry loops:
// one function for each generator keyinloop knows (google/uuid, gofrs,
// ulid, xid, ksuid, crypto/rand and math/rand encodings, the clock) and
// for each way the key reaches the request (header, struct, helper,
// parameter). The requests go through sender.Send. TestRelated reads
// googleUUID's finding at line 33 and its header write at line 34: keep
// them there.
package loops

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	mrand "math/rand"
	randv2 "math/rand/v2"
	"net/http"
	"sender"
	"strconv"
	"time"

	gofrs "github.com/gofrs/uuid"
	"github.com/google/uuid"
	"github.com/oklog/ulid/v2"
	"github.com/rs/xid"
	"github.com/segmentio/ksuid"
)

func googleUUID(req *http.Request) error {
	for attempt := 0; attempt < 3; attempt++ {
		key := uuid.NewString() // want `uuid\.NewString mints a new key for the Idempotency-Key header on every attempt; mint it once above the retry`
		req.Header.Set("Idempotency-Key", key)
		if err := sender.Send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return fmt.Errorf("gave up")
}

func googleUUIDNew(req *http.Request) error {
	for attempt := 0; attempt < 3; attempt++ {
		req.Header.Add("X-Idempotency-Key", uuid.New().String()) // want `uuid\.New mints a new key for the X-Idempotency-Key header on every attempt`
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

func googleMust(req *http.Request) error {
	for attempt := 0; attempt < 3; attempt++ {
		id := uuid.Must(uuid.NewRandom()) // want `uuid\.NewRandom mints a new key for the idempotency-key header on every attempt`
		req.Header.Set("idempotency-key", id.String())
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

func googleV7Tuple(req *http.Request) error {
	for attempt := 0; attempt < 3; attempt++ {
		id, err := uuid.NewV7() // want `uuid\.NewV7 mints a new key for the Idempotency-Key header on every attempt`
		if err != nil {
			return err
		}
		req.Header["Idempotency-Key"] = []string{id.String()}
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

func gofrsUUID(req *http.Request) error {
	for {
		u, _ := gofrs.NewV4() // want `uuid\.NewV4 mints a new key for the Idempotency-Key header on every attempt`
		req.Header.Set("Idempotency-Key", u.String())
		err := sender.Send(req)
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
}

func otherIDs(req *http.Request) error {
	for i := 0; i < 3; i++ {
		req.Header.Set("Idempotency-Key", ksuid.New().String()) // want `ksuid\.New mints a new key for the Idempotency-Key header on every attempt`
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	for i := 0; i < 3; i++ {
		req.Header.Set("Idempotency-Key", xid.New().String()) // want `xid\.New mints a new key for the Idempotency-Key header on every attempt`
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	for i := 0; i < 3; i++ {
		req.Header.Set("Idempotency-Key", ulid.Make().String()) // want `ulid\.Make mints a new key for the Idempotency-Key header on every attempt`
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

func cryptoRand(req *http.Request) error {
	var b [16]byte
	for i := 0; i < 3; i++ {
		rand.Read(b[:]) // want `rand\.Read mints a new key for the Idempotency-Key header on every attempt`
		req.Header.Set("Idempotency-Key", hex.EncodeToString(b[:]))
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	for i := 0; i < 3; i++ {
		buf := make([]byte, 16)
		if _, err := io.ReadFull(rand.Reader, buf); err != nil { // want `io\.ReadFull mints a new key for the Idempotency-Key header on every attempt`
			return err
		}
		req.Header.Set("Idempotency-Key", base64.RawURLEncoding.EncodeToString(buf))
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	for i := 0; i < 3; i++ {
		req.Header.Set("Idempotency-Key", rand.Text()) // want `rand\.Text mints a new key for the Idempotency-Key header on every attempt`
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

func mathRandAndTime(req *http.Request) error {
	for i := 0; i < 3; i++ {
		n := mrand.Int63() // want `rand\.Int63 mints a new key for the Idempotency-Key header on every attempt`
		req.Header.Set("Idempotency-Key", strconv.FormatInt(n, 36))
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	for i := 0; i < 3; i++ {
		req.Header.Set("Idempotency-Key", fmt.Sprintf("order-%d", time.Now().UnixNano())) // want `time\.Now mints a new key for the Idempotency-Key header on every attempt`
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	for i := 0; i < 3; i++ {
		stamp := time.Now() // want `time\.Now mints a new key for the Idempotency-Key header on every attempt`
		req.Header.Set("Idempotency-Key", "k-"+stamp.Format(time.RFC3339Nano))
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// A header literal, a header map built in the loop.
func headerLiteral(url string) error {
	for i := 0; i < 3; i++ {
		req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(nil))
		if err != nil {
			return err
		}
		req.Header = http.Header{"Idempotency-Key": {uuid.NewString()}} // want `uuid\.NewString mints a new key for the Idempotency-Key header on every attempt`
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// The value goes through a struct and a helper.
type opts struct {
	Key  string
	Body []byte
}

func newKey() string { return "key-" + uuid.NewString() }

func setKey(req *http.Request, k string) { req.Header.Set("Idempotency-Key", k) }

func throughStructAndHelpers(req *http.Request) error {
	for i := 0; i < 3; i++ {
		o := opts{Key: uuid.NewString()} // want `uuid\.NewString mints a new key for the Idempotency-Key header on every attempt`
		req.Header.Set("Idempotency-Key", o.Key)
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	for i := 0; i < 3; i++ {
		k := newKey() // want `newKey mints a new key for the Idempotency-Key header on every attempt`
		req.Header.Set("Idempotency-Key", k)
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	for i := 0; i < 3; i++ {
		setKey(req, uuid.NewString()) // want `uuid\.NewString mints a new key for parameter k of setKey on every attempt`
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// A parameter named like a key.
func charge(amount int, idempotencyKey string) error { return nil }

func paramSink() error {
	for i := 0; i < 3; i++ {
		if err := charge(100, uuid.NewString()); err == nil { // want `uuid\.NewString mints a new key for parameter idempotencyKey of charge on every attempt`
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// A labelled loop, a key converted to a named type.
type Key string

func labelled(req *http.Request) error {
outer:
	for i := 0; i < 3; i++ {
		k := Key(uuid.NewString()) // want `uuid\.NewString mints a new key for the Idempotency-Key header on every attempt`
		req.Header.Set("Idempotency-Key", string(k))
		if err := sender.Send(req); err != nil {
			continue outer
		}
		return nil
	}
	return fmt.Errorf("gave up")
}

// Parameters named like keys, math/rand/v2, a silenced finding.
func create(idemKey string) error                  { return nil }
func launch(name string, clientToken string) error { return nil }

func moreParams() error {
	for i := 0; i < 3; i++ {
		if err := create(fmt.Sprint(randv2.Uint64())); err == nil { // want `rand\.Uint64 mints a new key for parameter idemKey of create on every attempt`
			return nil
		}
	}
	for i := 0; i < 3; i++ {
		if err := launch("vm", uuid.NewString()); err == nil { // want `uuid\.NewString mints a new key for parameter clientToken of launch on every attempt`
			return nil
		}
	}
	for i := 0; i < 3; i++ {
		//idemlint:ignore keyinloop the server keys on the body hash, this header is informational
		if err := launch("vm", uuid.NewString()); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// A generator helper that can fail.
func randomKey() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

func helperWithError(req *http.Request) error {
	for i := 0; i < 3; i++ {
		k, err := randomKey() // want `randomKey mints a new key for the Idempotency-Key header on every attempt`
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", k)
		if err := sender.Send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}
