// Package lib is the fixture of shape's test.
package lib

// Two exported constants and one unexported: 2 top-level names.
const (
	A, B = 1, 2
	c    = 3
)

// One exported variable of two: 1.
var x, Y int

// Client counts as a type (1); New, its constructor, as a func (1).
type Client struct {
	Exported int
	a, b     string
}

func New() *Client { return &Client{} }

// Get is exported (a method), get is not (listed among Client's methods only).
func (c *Client) Get() {}

func (c *Client) get() {}

type hidden struct{}

// Shown is exported but on an unexported type: not counted.
func (hidden) Shown() {}

// Iface's methods are not methods of a type in go/doc's sense.
type Iface interface{ M() }
