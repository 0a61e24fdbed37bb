//go:build !unix

package sod

import "testing"

// cpuMetric reports nothing where getrusage is not available.
func cpuMetric(b *testing.B) func() { return func() {} }
