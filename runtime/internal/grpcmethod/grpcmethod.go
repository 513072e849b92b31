// Package grpcmethod is what runtime/grpcretry and runtime/grpcidem both know about a gRPC method: the
// metadata key of idempotency keys, whether a method is declared idempotent, and its response type, read
// from the protobuf registry that generated code fills.
package grpcmethod

import (
	"fmt"
	"strings"
	"sync"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// KeyMetadata is the metadata key that carries a call's idempotency key: the lowercase form of the HTTP
// Idempotency-Key header (gRPC metadata keys are lowercase).
const KeyMetadata = "idempotency-key"

// PushbackTrailer is the trailer in which a server tells the client when to retry, in milliseconds (gRPC A6).
const PushbackTrailer = "grpc-retry-pushback-ms"

// Descriptor returns the descriptor of fullMethod ("/pkg.Service/Method"), as registered by the generated
// code linked into the program.
func Descriptor(fullMethod string) (protoreflect.MethodDescriptor, error) {
	svc, method, ok := strings.Cut(strings.TrimPrefix(fullMethod, "/"), "/")
	if !ok || svc == "" || method == "" {
		return nil, fmt.Errorf("grpc method %q is not of the form /package.Service/Method", fullMethod)
	}
	d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(svc + "." + method))
	if err != nil {
		return nil, fmt.Errorf("grpc method %q: %w", fullMethod, err)
	}
	md, ok := d.(protoreflect.MethodDescriptor)
	if !ok {
		return nil, fmt.Errorf("grpc method %q: %s is not a method", fullMethod, d.FullName())
	}
	return md, nil
}

var levels sync.Map // full method name → bool (declared idempotent)

// Declared reports whether fullMethod's proto declares it idempotent: option idempotency_level =
// NO_SIDE_EFFECTS or IDEMPOTENT. grpc-go ignores that option; it is read here from the registered
// descriptor, once per method. A method whose descriptor is not registered is not declared idempotent.
func Declared(fullMethod string) bool {
	if v, ok := levels.Load(fullMethod); ok {
		return v.(bool)
	}
	idem := false
	if md, err := Descriptor(fullMethod); err == nil {
		if o, ok := md.Options().(*descriptorpb.MethodOptions); ok {
			idem = o.GetIdempotencyLevel() != descriptorpb.MethodOptions_IDEMPOTENCY_UNKNOWN
		}
	}
	levels.Store(fullMethod, idem)
	return idem
}

// Output returns the registered type of fullMethod's response message.
func Output(fullMethod string) (protoreflect.MessageType, error) {
	md, err := Descriptor(fullMethod)
	if err != nil {
		return nil, err
	}
	mt, err := protoregistry.GlobalTypes.FindMessageByName(md.Output().FullName())
	if err != nil {
		return nil, fmt.Errorf("grpc method %q: response type: %w", fullMethod, err)
	}
	return mt, nil
}
