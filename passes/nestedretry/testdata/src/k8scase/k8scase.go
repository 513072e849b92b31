package k8scase

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	corev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/retry"
)

func transient(error) bool { return true }

func create(ctx context.Context, rc *rest.RESTClient, obj runtime.Object) error {
	return retry.OnError(retry.DefaultBackoff, transient, func() error {
		return rc.Post().Resource("widgets").Body(obj).Do(ctx).Error() // want `\(\*rest\.Request\)\.Do \(11 attempts\) inside a retry, up to 4×11 = 44 calls; call MaxRetries\(0\) on the request`
	})
}

func fewRetries(ctx context.Context, rc *rest.RESTClient) error {
	return retry.OnError(retry.DefaultRetry, transient, func() error {
		req := rc.Get().Resource("widgets").MaxRetries(2)
		_, err := req.DoRaw(ctx) // want `\(\*rest\.Request\)\.DoRaw \(3 attempts\) inside a retry, up to 5×3 = 15 calls`
		return err
	})
}

func typed(ctx context.Context, core corev1.CoreV1Interface, pod *corev1.Pod) error {
	return retry.OnError(retry.DefaultBackoff, transient, func() error {
		_, err := core.Pods("default").Create(ctx, pod, corev1.CreateOptions{}) // want `\(v1\.PodInterface\)\.Create \(11 attempts\) inside a retry, up to 4×11 = 44 calls`
		return err
	})
}

// ---- negatives

func typedConflict(ctx context.Context, core corev1.CoreV1Interface, pod *corev1.Pod) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		_, err := core.Pods("default").Update(ctx, pod, corev1.CreateOptions{})
		return err
	})
}

// The REST client does not retry conflicts: one layer for 409s.
func update(ctx context.Context, rc *rest.RESTClient, obj runtime.Object) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		return rc.Put().Resource("widgets").Body(obj).Do(ctx).Error()
	})
}

func noRESTRetries(ctx context.Context, rc *rest.RESTClient, obj runtime.Object) error {
	return retry.OnError(retry.DefaultBackoff, transient, func() error {
		return rc.Post().Resource("widgets").MaxRetries(0).Body(obj).Do(ctx).Error()
	})
}
