//go:build !unix

package strictio

const openNonBlock = 0
