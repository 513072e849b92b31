package extra

import "time"

func Retry(op func() error) error { return op() }

type Client struct{}

func (*Client) Retry(op func() error) error { return op() }

func Other(op func() error) error { return op() }

func use(c *Client) {
	Retry(func() error { return nil })   // want `library-call cap=unknown deadline=unknown waits=unknown body`
	c.Retry(func() error { return nil }) // want `library-call cap=unknown deadline=unknown waits=unknown body`
	Other(func() error { time.Sleep(time.Second); return nil })
}
