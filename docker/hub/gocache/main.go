// Command gocache is a Go build cache in two layers for a class on one server, used by the go
// command as GOCACHEPROG (Go ≥ 1.24): a shared read-only layer, the build cache that the hub
// image compiled once (the workbench, gonum, plot, go-echarts, GoNB's own packages), and a
// writable layer of the student's own. Lookups try the student's layer, then the shared one;
// new results go to the student's layer only, so no student can change what another one
// builds with, and 100 students do not compile the library 100 times.
//
// Usage (the hub sets it for every student's server):
//
//	GOCACHEPROG="gocache -ro /opt/sod-gocache -rw $HOME/.cache/sod-go-build" GOFLAGS=-trimpath
//
// Both layers use the go command's own cache layout (GOCACHE): the shared one is a GOCACHE
// filled by ordinary builds. Builds must use -trimpath (here and when the shared layer was
// filled), or the action keys include the source folder, which differs for every student.
package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// request and response are the GOCACHEPROG protocol's messages (cmd/go/internal/cacheprog).
type request struct {
	ID       int64
	Command  string
	ActionID []byte `json:",omitempty"`
	OutputID []byte `json:",omitempty"`
	BodySize int64  `json:",omitempty"`
}

type response struct {
	ID            int64
	Err           string     `json:",omitempty"`
	KnownCommands []string   `json:",omitempty"`
	Miss          bool       `json:",omitempty"`
	OutputID      []byte     `json:",omitempty"`
	Size          int64      `json:",omitempty"`
	Time          *time.Time `json:",omitempty"`
	DiskPath      string     `json:",omitempty"`
}

const hashSize = 32 // SHA-256, as the go command's cache keys

// layer is a folder in the go command's cache layout: the entry of action A is
// <dir>/<A[0]>/<A>-a ("v1 <A> <output id> <size> <unix nanos>\n", fixed width), and the output
// O is the file <dir>/<O[0]>/<O>-d.
type layer string

func (l layer) file(id []byte, kind string) string {
	return filepath.Join(string(l), fmt.Sprintf("%02x", id[0]), hex.EncodeToString(id)+"-"+kind)
}

const entrySize = 2 + 1 + 2*hashSize + 1 + 2*hashSize + 1 + 20 + 1 + 20 + 1

// get returns the output of action id in the layer, or ok=false.
func (l layer) get(id []byte) (out []byte, size int64, t time.Time, path string, ok bool) {
	b, err := os.ReadFile(l.file(id, "a"))
	if err != nil || len(b) != entrySize || string(b[:3]) != "v1 " || b[entrySize-1] != '\n' {
		return nil, 0, t, "", false
	}
	f := strings.Fields(string(b))
	if len(f) != 5 || f[1] != hex.EncodeToString(id) {
		return nil, 0, t, "", false
	}
	out, err = hex.DecodeString(f[2])
	if err != nil || len(out) != hashSize {
		return nil, 0, t, "", false
	}
	size, err1 := strconv.ParseInt(f[3], 10, 64)
	nanos, err2 := strconv.ParseInt(f[4], 10, 64)
	if err1 != nil || err2 != nil {
		return nil, 0, t, "", false
	}
	path = l.file(out, "d")
	if st, err := os.Stat(path); err != nil || st.Size() != size {
		return nil, 0, t, "", false
	}
	return out, size, time.Unix(0, nanos), path, true
}

// put stores body as the output of action id and returns the output's path.
func (l layer) put(id, out []byte, body io.Reader, size int64) (string, error) {
	if len(id) != hashSize || len(out) != hashSize {
		return "", fmt.Errorf("put: action and output ids must be %d bytes", hashSize)
	}
	path := l.file(out, "d")
	if err := writeAtomic(path, func(w io.Writer) error {
		n, err := io.Copy(w, body)
		if err == nil && n != size {
			err = fmt.Errorf("put: body has %d bytes, the request said %d", n, size)
		}
		return err
	}); err != nil {
		return "", err
	}
	entry := fmt.Sprintf("v1 %x %x %20d %20d\n", id, out, size, time.Now().UnixNano())
	err := writeAtomic(l.file(id, "a"), func(w io.Writer) error {
		_, err := io.WriteString(w, entry)
		return err
	})
	return path, err
}

func writeAtomic(path string, write func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), path)
}

// serve answers the go command's requests on r with responses on w until "close" or EOF.
func serve(r io.Reader, w io.Writer, ro []layer, rw layer) error {
	in := bufio.NewReaderSize(r, 1<<20)
	dec := json.NewDecoder(in)
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	send := func(resp response) error {
		if err := enc.Encode(resp); err != nil {
			return err
		}
		return bw.Flush()
	}
	if err := send(response{KnownCommands: []string{"get", "put", "close"}}); err != nil {
		return err
	}
	for {
		var req request
		if err := dec.Decode(&req); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("reading a request: %v", err)
		}
		resp := response{ID: req.ID}
		switch req.Command {
		case "get":
			resp.Miss = true
			if len(req.ActionID) == hashSize {
				for _, l := range append([]layer{rw}, ro...) {
					if out, size, t, path, ok := l.get(req.ActionID); ok {
						resp = response{ID: req.ID, OutputID: out, Size: size, Time: &t, DiskPath: path}
						break
					}
				}
			}
		case "put":
			var body []byte
			if req.BodySize > 0 {
				// The body follows as a JSON string of base64 (decoded into a []byte).
				if err := dec.Decode(&body); err != nil {
					return fmt.Errorf("reading the body of put %d: %v", req.ID, err)
				}
			}
			path, err := rw.put(req.ActionID, req.OutputID, strings.NewReader(string(body)), req.BodySize)
			if err != nil {
				resp.Err = err.Error()
			}
			resp.DiskPath = path
		case "close":
			return send(resp)
		default:
			resp.Err = fmt.Sprintf("unknown command %q", req.Command)
		}
		if err := send(resp); err != nil {
			return err
		}
	}
}

func main() {
	var ro stringList
	flag.Var(&ro, "ro", "a shared read-only cache folder (go command's GOCACHE layout); repeatable")
	rw := flag.String("rw", "", "the writable cache folder of this user (created if missing)")
	flag.Parse()
	if *rw == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: gocache -rw DIR [-ro DIR]...  (run by the go command as GOCACHEPROG)")
		os.Exit(2)
	}
	var layers []layer
	for _, d := range ro {
		layers = append(layers, layer(d))
	}
	if err := os.MkdirAll(*rw, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "gocache:", err)
		os.Exit(1)
	}
	if err := serve(os.Stdin, os.Stdout, layers, layer(*rw)); err != nil {
		fmt.Fprintln(os.Stderr, "gocache:", err)
		os.Exit(1)
	}
}

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }
