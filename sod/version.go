package sod

import (
	"fmt"
	"runtime/debug"
)

// Version is the release of the SOD Workbench module (sodworkbench.org/workbench).
const Version = "v0.1.0-dev"

// ModulePath is the import path of the workbench module.
const ModulePath = "sodworkbench.org/workbench"

// BuildInfo describes the workbench module as the running program was built with it: its
// version, and the local directory it was taken from when a notebook uses it through a
// go.mod replace directive (as every workbench notebook does). It never fails: fields it
// cannot determine read "unknown".
func BuildInfo() string {
	version, dir := "unknown", "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		mods := append([]*debug.Module{&bi.Main}, bi.Deps...)
		for _, m := range mods {
			if m == nil || m.Path != ModulePath {
				continue
			}
			version = m.Version
			if m.Replace != nil {
				dir = m.Replace.Path
			}
		}
	}
	return fmt.Sprintf("%s %s (build: %s, source: %s)", ModulePath, Version, version, dir)
}
