// Package types is a test stub of github.com/aws/aws-sdk-go-v2/service/ec2@v1.347.0 (types): signatures only (subset).
package types

import "time"

// InstanceType is an EC2 instance type.
type InstanceType string

// Enum values for InstanceType (subset).
const (
	InstanceTypeT2Micro InstanceType = "t2.micro"
	InstanceTypeT3Micro InstanceType = "t3.micro"
)

// Instance describes an instance (field subset).
type Instance struct {
	ClientToken  *string
	ImageId      *string
	InstanceId   *string
	InstanceType InstanceType
	LaunchTime   *time.Time
}

// InstanceStateChange describes an instance state change (field subset).
type InstanceStateChange struct {
	InstanceId *string
}
