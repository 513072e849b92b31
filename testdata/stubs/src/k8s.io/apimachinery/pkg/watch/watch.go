// Package watch is a test stub of k8s.io/apimachinery@v0.37.2: signatures only
// (Interface, Event and EventType only).
package watch

import "k8s.io/apimachinery/pkg/runtime"

// Interface can be implemented by anything that knows how to watch and report changes.
type Interface interface {
	Stop()
	ResultChan() <-chan Event
}

// EventType defines the possible types of events (its constants are left
// out: no test uses them).
type EventType string

// Event represents a single event to a watched resource.
type Event struct {
	Type   EventType
	Object runtime.Object
}
