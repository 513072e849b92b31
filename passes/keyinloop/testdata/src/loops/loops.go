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
	"strconv"
	"time"

	gofrs "github.com/gofrs/uuid"
	"github.com/google/uuid"
	"github.com/oklog/ulid/v2"
	"github.com/rs/xid"
	"github.com/segmentio/ksuid"
)

func send(req *http.Request) error {
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func googleUUID(req *http.Request) error {
	for attempt := 0; attempt < 3; attempt++ {
		key := uuid.NewString() // want `github.com/google/uuid.NewString mints the key for the Idempotency-Key header inside the retry loop, so every attempt sends a new key and the server cannot recognise a retry; mint the key once above the retry and reuse it \(github.com/idemlint/idemlint/runtime/idempotency.NewKey\(\)\)`
		req.Header.Set("Idempotency-Key", key)
		if err := send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return fmt.Errorf("gave up")
}

func googleUUIDNew(req *http.Request) error {
	for attempt := 0; attempt < 3; attempt++ {
		req.Header.Add("X-Idempotency-Key", uuid.New().String()) // want `github.com/google/uuid.New mints the key for the X-Idempotency-Key header inside the retry loop`
		if err := send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

func googleMust(req *http.Request) error {
	for attempt := 0; attempt < 3; attempt++ {
		id := uuid.Must(uuid.NewRandom()) // want `github.com/google/uuid.NewRandom mints the key`
		req.Header.Set("idempotency-key", id.String())
		if err := send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

func googleV7Tuple(req *http.Request) error {
	for attempt := 0; attempt < 3; attempt++ {
		id, err := uuid.NewV7() // want `github.com/google/uuid.NewV7 mints the key`
		if err != nil {
			return err
		}
		req.Header["Idempotency-Key"] = []string{id.String()}
		if err := send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

func gofrsUUID(req *http.Request) error {
	for {
		u, _ := gofrs.NewV4() // want `github.com/gofrs/uuid.NewV4 mints the key`
		req.Header.Set("Idempotency-Key", u.String())
		err := send(req)
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
}

func otherIDs(req *http.Request) error {
	for i := 0; i < 3; i++ {
		req.Header.Set("Idempotency-Key", ksuid.New().String()) // want `github.com/segmentio/ksuid.New mints the key`
		if err := send(req); err == nil {
			return nil
		}
	}
	for i := 0; i < 3; i++ {
		req.Header.Set("Idempotency-Key", xid.New().String()) // want `github.com/rs/xid.New mints the key`
		if err := send(req); err == nil {
			return nil
		}
	}
	for i := 0; i < 3; i++ {
		req.Header.Set("Idempotency-Key", ulid.Make().String()) // want `github.com/oklog/ulid/v2.Make mints the key`
		if err := send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

func cryptoRand(req *http.Request) error {
	var b [16]byte
	for i := 0; i < 3; i++ {
		rand.Read(b[:]) // want `crypto/rand.Read mints the key`
		req.Header.Set("Idempotency-Key", hex.EncodeToString(b[:]))
		if err := send(req); err == nil {
			return nil
		}
	}
	for i := 0; i < 3; i++ {
		buf := make([]byte, 16)
		if _, err := io.ReadFull(rand.Reader, buf); err != nil { // want `io.ReadFull mints the key`
			return err
		}
		req.Header.Set("Idempotency-Key", base64.RawURLEncoding.EncodeToString(buf))
		if err := send(req); err == nil {
			return nil
		}
	}
	for i := 0; i < 3; i++ {
		req.Header.Set("Idempotency-Key", rand.Text()) // want `crypto/rand.Text mints the key`
		if err := send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

func mathRandAndTime(req *http.Request) error {
	for i := 0; i < 3; i++ {
		n := mrand.Int63() // want `math/rand.Int63 mints the key`
		req.Header.Set("Idempotency-Key", strconv.FormatInt(n, 36))
		if err := send(req); err == nil {
			return nil
		}
	}
	for i := 0; i < 3; i++ {
		req.Header.Set("Idempotency-Key", fmt.Sprintf("order-%d", time.Now().UnixNano())) // want `time.Now mints the key`
		if err := send(req); err == nil {
			return nil
		}
	}
	for i := 0; i < 3; i++ {
		stamp := time.Now() // want `time.Now mints the key`
		req.Header.Set("Idempotency-Key", "k-"+stamp.Format(time.RFC3339Nano))
		if err := send(req); err == nil {
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
		req.Header = http.Header{"Idempotency-Key": {uuid.NewString()}} // want `github.com/google/uuid.NewString mints the key for the Idempotency-Key header`
		if err := send(req); err == nil {
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
		o := opts{Key: uuid.NewString()} // want `github.com/google/uuid.NewString mints the key for the Idempotency-Key header`
		req.Header.Set("Idempotency-Key", o.Key)
		if err := send(req); err == nil {
			return nil
		}
	}
	for i := 0; i < 3; i++ {
		k := newKey() // want `loops.newKey mints the key for the Idempotency-Key header`
		req.Header.Set("Idempotency-Key", k)
		if err := send(req); err == nil {
			return nil
		}
	}
	for i := 0; i < 3; i++ {
		setKey(req, uuid.NewString()) // want `github.com/google/uuid.NewString mints the key for parameter k of loops.setKey`
		if err := send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}

// A parameter named like a key.
func charge(amount int, idempotencyKey string) error { return nil }

func paramSink() error {
	for i := 0; i < 3; i++ {
		if err := charge(100, uuid.NewString()); err == nil { // want `github.com/google/uuid.NewString mints the key for parameter idempotencyKey of loops.charge`
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
		k := Key(uuid.NewString()) // want `github.com/google/uuid.NewString mints the key`
		req.Header.Set("Idempotency-Key", string(k))
		if err := send(req); err != nil {
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
		if err := create(fmt.Sprint(randv2.Uint64())); err == nil { // want `math/rand/v2.Uint64 mints the key for parameter idemKey of loops.create`
			return nil
		}
	}
	for i := 0; i < 3; i++ {
		if err := launch("vm", uuid.NewString()); err == nil { // want `github.com/google/uuid.NewString mints the key for parameter clientToken of loops.launch`
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
		k, err := randomKey() // want `loops.randomKey mints the key for the Idempotency-Key header`
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", k)
		if err := send(req); err == nil {
			return nil
		}
	}
	return fmt.Errorf("gave up")
}
