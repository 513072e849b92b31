// Package paymentintent is a test stub of github.com/stripe/stripe-go/v85@v85.0.0
// (legacy resource-package API): signatures only.
//
// A typed-nil params (paymentintent.New(nil)) sends no Idempotency-Key at all.
package paymentintent

import stripe "github.com/stripe/stripe-go/v85"

// Client is used to invoke /v1/payment_intents APIs.
type Client struct {
	B   stripe.Backend
	Key string
}

// New creates a new PaymentIntent (uses stripe.Key and the global backend).
func New(params *stripe.PaymentIntentParams) (*stripe.PaymentIntent, error) { panic("stub") }

// New creates a new PaymentIntent.
func (c Client) New(params *stripe.PaymentIntentParams) (*stripe.PaymentIntent, error) {
	panic("stub")
}

// Get retrieves a PaymentIntent.
func Get(id string, params *stripe.PaymentIntentParams) (*stripe.PaymentIntent, error) {
	panic("stub")
}

// Get retrieves a PaymentIntent.
func (c Client) Get(id string, params *stripe.PaymentIntentParams) (*stripe.PaymentIntent, error) {
	panic("stub")
}

// Update updates a PaymentIntent.
func Update(id string, params *stripe.PaymentIntentParams) (*stripe.PaymentIntent, error) {
	panic("stub")
}

// Cancel cancels a PaymentIntent.
func Cancel(id string, params *stripe.PaymentIntentCancelParams) (*stripe.PaymentIntent, error) {
	panic("stub")
}

// Capture captures a PaymentIntent.
func Capture(id string, params *stripe.PaymentIntentCaptureParams) (*stripe.PaymentIntent, error) {
	panic("stub")
}

// Confirm confirms a PaymentIntent.
func Confirm(id string, params *stripe.PaymentIntentConfirmParams) (*stripe.PaymentIntent, error) {
	panic("stub")
}
