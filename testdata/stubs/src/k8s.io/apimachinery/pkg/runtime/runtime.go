// Package runtime is a test stub of k8s.io/apimachinery@v0.37.2: signatures only
// (Object and ParameterCodec only).
package runtime

import (
	"net/url"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Object interface must be supported by all API types registered with Scheme.
type Object interface {
	GetObjectKind() schema.ObjectKind
	DeepCopyObject() Object
}

// ParameterCodec defines methods for serializing and deserializing API objects to url.Values and performing any necessary conversion.
type ParameterCodec interface {
	DecodeParameters(parameters url.Values, from schema.GroupVersion, into Object) error
	EncodeParameters(obj Object, to schema.GroupVersion) (url.Values, error)
}
