// Package lookalikes holds loops that look like retries and are not: the
// model must find no scope here.
package lookalikes

import (
	"context"
	"errors"
	"log"
	"net"
	"syscall"
	"time"
)

type item struct{}

func send(item) error                 { return nil }
func fetch() ([]item, error)          { return nil, nil }
func process([]item)                  {}
func status() (string, error)         { return "", nil }
func processBatch() (int, error)      { return 0, nil }
func receive() (item, error)          { return item{}, nil }
func handle(item)                     {}
func opCtx(ctx context.Context) error { return nil }

// A batch over items that stops on the first error.
func batch(items []item) error {
	for _, it := range items {
		if err := send(it); err != nil {
			return err
		}
	}
	return nil
}

// A counted batch, also stopping on the first error.
func countedBatch(items []item) error {
	for i := 0; i < len(items); i++ {
		if err := send(items[i]); err != nil {
			return err
		}
	}
	return nil
}

// A batch that logs failures and goes on to the next item.
func bestEffort(items []item) {
	for _, it := range items {
		if err := send(it); err != nil {
			log.Print(err)
			continue
		}
	}
}

// A poller that processes a result every round and never leaves on success.
func poller(ctx context.Context) {
	for {
		items, err := fetch()
		if err != nil {
			log.Print(err)
			time.Sleep(time.Second)
			continue
		}
		process(items)
		time.Sleep(10 * time.Second)
	}
}

// A ticker loop.
func ticker(ctx context.Context) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			items, err := fetch()
			if err != nil {
				continue
			}
			process(items)
		}
	}
}

// Ranging over a ticker channel.
func tickerRange(t *time.Ticker) {
	for range t.C {
		if err := opCtx(context.Background()); err != nil {
			log.Print(err)
		}
	}
}

// An accept loop.
func accept(l net.Listener) error {
	for {
		c, err := l.Accept()
		if err != nil {
			return err
		}
		go c.Close()
	}
}

// An accept loop that survives temporary errors.
func acceptTemp(l net.Listener) {
	for {
		c, err := l.Accept()
		if err != nil {
			time.Sleep(5 * time.Millisecond)
			continue
		}
		go c.Close()
	}
}

// A consumer loop.
func consume() {
	for {
		msg, err := receive()
		if err != nil {
			continue
		}
		handle(msg)
	}
}

// A paced batch: stops on error, stops when done.
func paced() error {
	for {
		n, err := processBatch()
		if err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Polling a status until it is ready, failing on the first error.
func pollReady() error {
	for {
		st, err := status()
		if err != nil {
			return err
		}
		if st == "ready" {
			return nil
		}
		time.Sleep(time.Second)
	}
}

// A loop whose body always leaves on its first pass.
func once() error {
	for {
		err := opCtx(context.Background())
		if err == nil {
			return nil
		}
		return err
	}
}

// Work on channel messages.
func worker(ch <-chan item) {
	for it := range ch {
		if err := send(it); err == nil {
			continue
		}
	}
}

// Stops on the first error, compared in place.
func batchInPlace(items []item) error {
	for i := 0; i < len(items); i++ {
		if send(items[i]) != nil {
			return nil
		}
	}
	return nil
}

func stat(string) error      { return nil }
func parentOf(string) string { return "" }

// Walking up directories: each pass works on the parent of the last.
func walkUp(dir string) (string, error) {
	for {
		if err := stat(dir); err == nil {
			return dir, nil
		}
		parent := parentOf(dir)
		if parent == dir {
			return "", errNotFound
		}
		dir = parent
	}
}

// Trying each item until one works.
func firstThatWorks(items []item) error {
	for i := 0; i < len(items); i++ {
		if err := send(items[i]); err == nil {
			return nil
		}
	}
	return errNotFound
}

var errNotFound = net.ErrClosed

// A read loop that stops on any error after checking the count it read.
func readSome(r reader, buf []byte) error {
	for empties := 0; ; {
		n, err := r.Read(buf)
		if n < 0 || len(buf) < n {
			return errShort
		}
		if err != nil {
			return err
		}
		if n > 0 {
			return nil
		}
		empties++
		if empties > 100 {
			return errShort
		}
	}
}

type reader interface{ Read([]byte) (int, error) }
type writer interface{ Write([]byte) (int, error) }

// A copy loop: reads until EOF, stops on the first write error.
func copyLoop(dst writer, src reader, buf []byte) (err error) {
	for {
		nr, er := src.Read(buf)
		if nr > 0 {
			nw, ew := dst.Write(buf[:nr])
			if ew != nil {
				err = ew
				break
			}
			if nr != nw {
				err = errShort
				break
			}
		}
		if er != nil {
			if er != errEOF {
				err = er
			}
			break
		}
	}
	return err
}

var errShort, errEOF = net.ErrClosed, net.ErrClosed

type fragReader interface{ ReadSlice(byte) ([]byte, error) }

// Reading fragments until the delimiter: no wait, no counter.
func fragments(b fragReader) (frags [][]byte, err error) {
	for {
		frag, e := b.ReadSlice('\n')
		if e == nil {
			break
		}
		if e != errShort {
			err = e
			break
		}
		frags = append(frags, frag)
	}
	return frags, err
}

type pool struct{ idle *time.Timer }

// A method that resets a timer among other work is not a wait helper.
func (p *pool) put() bool {
	if p.idle != nil {
		p.idle.Reset(time.Minute)
	}
	return true
}

func serve(p *pool) error {
	for {
		if err := opCtx(context.Background()); err == nil {
			return nil
		}
		p.put()
	}
}

// A backpressure wait (go-redis's full-duplex window): waits for room, and
// checks the context only to choose how to wait. ctx.Err() is a cancellation
// query, not an attempt.
func windowWait(ctx context.Context, room, done <-chan struct{}, full func() bool) error {
	stuck := false
	for !stuck && full() {
		if ctx.Err() == nil {
			select {
			case <-room:
			case <-done:
				return context.Canceled
			case <-ctx.Done():
			}
			continue
		}
		timer := time.NewTimer(time.Second)
		select {
		case <-room:
		case <-done:
			timer.Stop()
			return context.Canceled
		case <-timer.C:
			stuck = true
		}
		timer.Stop()
	}
	return nil
}

type resolver struct{}

func (resolver) parseHosts(string) ([]string, error) { return nil, nil }
func processHosts([]string) bool                     { return true }
func known() bool                                    { return false }

// An SRV poller (mongo-driver's pollSRVRecords): polls on a ticker, switches
// to a faster ticker after a DNS error, and leaves only when processing the
// result says so: a successful poll does not end the loop.
func pollSRV(r resolver, done <-chan struct{}) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	fast := false
	for {
		select {
		case <-t.C:
		case <-done:
			return
		}
		if known() {
			break
		}
		hosts, err := r.parseHosts("srv")
		if err != nil || len(hosts) == 0 {
			if !fast {
				t.Stop()
				t = time.NewTicker(10 * time.Second)
				fast = true
			}
			continue
		}
		if fast {
			t.Stop()
			t = time.NewTicker(time.Minute)
			fast = false
		}
		if !processHosts(hosts) {
			break
		}
	}
}

type event struct{ obj any }

func accessor(any) (string, error) { return "", nil }
func record(string)                {}

// A watch consumer (client-go's handleAnyWatch): each pass handles the
// next event received from a channel; it leaves when a marker arrives.
func watchEvents(ctx context.Context, events <-chan event, exitOnMarker bool) (bool, error) {
	marker := false
	for {
		select {
		case <-ctx.Done():
			return marker, ctx.Err()
		case ev, ok := <-events:
			if !ok {
				return marker, nil
			}
			name, err := accessor(ev.obj)
			if err != nil {
				log.Print(err)
				continue
			}
			if name == "marker" {
				marker = true
			}
			record(name)
			if exitOnMarker && marker {
				return marker, nil
			}
		}
	}
}

func write(fd int, p []byte) (int, error) { return 0, nil }
func waitWritable(fd int) error           { return nil }

// A system call restarted on EINTR and after EAGAIN once the descriptor is
// writable (internal/poll): not a retry of an operation.
func writeAll(fd int, p []byte) (int, error) {
	for {
		n, err := write(fd, p)
		if err == syscall.EINTR {
			continue
		}
		if err == syscall.EAGAIN {
			if err = waitWritable(fd); err == nil {
				continue
			}
		}
		if err != nil {
			return 0, err
		}
		return n, nil
	}
}

// Retrier decides whether to retry, by the attempt number.
type Retrier interface {
	Retry(ctx context.Context, retry int, err error) (time.Duration, bool, error)
}

func connect() error { return nil }

// performRequest is olivere/elastic's PerformRequest: a retry policy told
// the attempt number decides when to stop (a StopRetrier by default). The
// bound is the policy's: unknown, not none.
func performRequest(ctx context.Context, retrier Retrier) error {
	n := 0
	for { // want `loop cap=unknown deadline=unknown waits=unknown body`
		err := connect()
		if err == nil {
			return nil
		}
		n++
		wait, ok, rerr := retrier.Retry(ctx, n, err)
		if rerr != nil {
			return rerr
		}
		if !ok {
			return err
		}
		time.Sleep(wait)
	}
}

func listen(addr string) (net.Listener, error) { return net.Listen("tcp", addr) }

// A local bind retried while the address is still in use, tested through
// errors.Is on the errno: not a retry of a remote operation.
func listenRetry(addr string) (net.Listener, error) {
	var l net.Listener
	var err error
	for range 20 {
		l, err = listen(addr)
		if err != nil {
			if errors.Is(err, syscall.EADDRINUSE) {
				time.Sleep(100 * time.Millisecond)
				continue
			}
			return nil, err
		}
		break
	}
	return l, err
}
