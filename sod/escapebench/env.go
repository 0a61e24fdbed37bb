package escapebench

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strconv"
	"time"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/internal/host"
)

// Env is the environment of the program that wrote a result file (for
// merged shards, the merge's; the shards' own, from their journals'
// headers, are kept beside it: ShardPairs): every output of reproduce bench carries it
// (the JSON files under "env", the CSV files as "# key: value" comment
// lines before the header, the markdown page and the HTML report in a
// table). Date is the day (UTC), so that files written on one day by one
// build are byte-identical.
type Env struct {
	Version    string `json:"version"`            // sod.Version
	Revision   string `json:"revision,omitempty"` // VCS revision of the build, if stamped
	Go         string `json:"go"`                 // runtime.Version()
	OS         string `json:"os"`
	Arch       string `json:"arch"`
	CPU        string `json:"cpu"` // model name, "unknown" where not readable
	NumCPU     int    `json:"num_cpu"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	Date       string `json:"date"` // YYYY-MM-DD, UTC
}

// CurrentEnv returns the running program's Env.
func CurrentEnv() Env {
	e := Env{Version: sod.Version, Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH, CPU: host.CPUModel(),
		NumCPU: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0), Date: time.Now().UTC().Format(time.DateOnly)}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				e.Revision = s.Value
			}
		}
	}
	return e
}

// Pairs lists e as (key, value) pairs in a fixed order, as the CSV
// comments and the tables show it.
func (e Env) Pairs() [][2]string {
	ps := [][2]string{{"version", e.Version}}
	if e.Revision != "" {
		ps = append(ps, [2]string{"revision", e.Revision})
	}
	return append(ps, [2]string{"go", e.Go}, [2]string{"os/arch", e.OS + "/" + e.Arch}, [2]string{"cpu", e.CPU},
		[2]string{"num_cpu", strconv.Itoa(e.NumCPU)}, [2]string{"gomaxprocs", strconv.Itoa(e.GOMAXPROCS)}, [2]string{"date", e.Date})
}

// ShardPairs lists the environments of the shards of a merged run
// (shards[k] ran shard k/len(shards); a zero Env, from a journal of format
// 1, is left out) as (key, value) pairs whose keys are prefixed by
// "shard k/N ", after the merge's own pairs in the tables and CSV
// comments that show them.
func ShardPairs(shards []Env) [][2]string {
	var ps [][2]string
	for k, e := range shards {
		if e == (Env{}) {
			continue
		}
		for _, kv := range e.Pairs() {
			ps = append(ps, [2]string{fmt.Sprintf("shard %d/%d %s", k, len(shards), kv[0]), kv[1]})
		}
	}
	return ps
}
