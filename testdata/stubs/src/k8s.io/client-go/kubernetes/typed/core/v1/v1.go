// Package v1 is a test stub of k8s.io/client-go/kubernetes/typed/core/v1@v0.37.2:
// a subset of PodInterface, signatures only. Every method with a context
// sends a REST request, which retries by itself (maxRetries 10).
package v1

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
)

// Pod stands in for k8s.io/api/core/v1.Pod.
type Pod struct{ runtime.Object }

// CreateOptions stands in for metav1.CreateOptions.
type CreateOptions struct{}

// GetOptions stands in for metav1.GetOptions.
type GetOptions struct{}

// PodInterface has methods to work with Pod resources.
type PodInterface interface {
	Create(ctx context.Context, pod *Pod, opts CreateOptions) (*Pod, error)
	Get(ctx context.Context, name string, opts GetOptions) (*Pod, error)
	Update(ctx context.Context, pod *Pod, opts CreateOptions) (*Pod, error)
}

// CoreV1Interface has methods to work with core resources.
type CoreV1Interface interface {
	Pods(namespace string) PodInterface
}
