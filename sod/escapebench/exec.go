package escapebench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"

	"sodworkbench.org/workbench/sod"
)

// ExecProtocol is the version of the protocol between the benchmark and
// an external method (PROTOCOL.md): JSON lines over the program's stdin
// and stdout, the benchmark serving every oracle call so that the costs
// are counted by the benchmark, not reported by the program.
const ExecProtocol = 1

// execProtocolParam is the key of an external method's Params that
// gives its protocol version (and marks it external: RoundStats.External).
const execProtocolParam = "protocol"

// ExecPrefix begins a method given as an external program on reproduce
// bench's command line: "exec:PROGRAM [ARG…]" (ParseExecCommand).
const ExecPrefix = "exec:"

// ErrExternalMethod is wrapped by the error that ends a run of an
// external method whose program crashed, hung, flooded its output or
// broke the protocol (ExecCommand); the run ends at its stalled point
// with Outcome EscapeError and the reason in TrialResult.Err, and the
// suite goes on.
var ErrExternalMethod = errors.New("escapebench: external method failed")

// ExecCommand is an external method: a program that speaks the protocol
// of PROTOCOL.md (version ExecProtocol) on its stdin and stdout, started
// once per run, in a fresh empty working directory, with an environment
// of PATH alone (and one BLAS thread), in its own process group that is
// killed when the run ends.
type ExecCommand struct {
	// Name is the method's name in every table (sod.CheckIdentifier).
	Name string `json:"name"`
	// Argv is the program and its arguments (no shell): Argv[0] is
	// looked up in PATH if it has no '/'.
	Argv []string `json:"argv"`
	// Limits bound the program (zero fields: DefaultExecLimits').
	Limits ExecLimits `json:"limits,omitzero"`
}

// ExecLimits bound an external method's program in one run. A program
// that exceeds one is stopped and its run ends with the limit named.
type ExecLimits struct {
	// Reply is the longest wait for each of the program's messages,
	// counted from the benchmark's last message (default 60 s).
	Reply time.Duration `json:"reply,omitzero"`
	// Round is the longest wall time of one escape round (default 10 min).
	Round time.Duration `json:"round,omitzero"`
	// Calls is the most oracle calls in one round (default 100000).
	Calls int `json:"calls,omitzero"`
	// Candidates is the most candidates of one proposal (default 64).
	Candidates int `json:"candidates,omitzero"`
	// Bytes is the longest message, newline excluded (default: 64 KiB
	// plus 32 bytes for each number of Candidates n×r matrices, the
	// largest proposal that keeps the other limits).
	Bytes int `json:"bytes,omitzero"`
	// Stderr is how much of the program's stderr the reason of a failure
	// quotes, half from its start and half from its end (default 2000
	// bytes; the rest is discarded).
	Stderr int `json:"stderr,omitzero"`
	// Memory caps the program's address space in bytes (Linux's
	// RLIMIT_AS, set just after the start; default 4 GiB; elsewhere no
	// cap).
	Memory int64 `json:"memory,omitzero"`
}

// DefaultExecLimits returns the defaults above (Bytes 0: per instance).
func DefaultExecLimits() ExecLimits {
	return ExecLimits{Reply: time.Minute, Round: 10 * time.Minute, Calls: 100_000, Candidates: 64, Stderr: 2000, Memory: 4 << 30}
}

// withDefaults fills the zero fields and checks the others.
func (l ExecLimits) withDefaults() (ExecLimits, error) {
	d := DefaultExecLimits()
	if l.Reply < 0 || l.Round < 0 || l.Calls < 0 || l.Candidates < 0 || l.Bytes < 0 || l.Stderr < 0 || l.Memory < 0 || l.Candidates > 100_000 {
		return l, fmt.Errorf("%w: ExecLimits %+v, want every limit ≥ 0 (0: default) and Candidates ≤ 100000", ErrBadBench, l)
	}
	if l.Reply == 0 {
		l.Reply = d.Reply
	}
	if l.Round == 0 {
		l.Round = d.Round
	}
	if l.Calls == 0 {
		l.Calls = d.Calls
	}
	if l.Candidates == 0 {
		l.Candidates = d.Candidates
	}
	if l.Stderr == 0 {
		l.Stderr = d.Stderr
	}
	if l.Memory == 0 {
		l.Memory = d.Memory
	}
	return l, nil
}

// ParseExecCommand parses "exec:PROGRAM [ARG…]" (arguments split at
// spaces, no quoting): the method is named "exec-" and the base name of
// its last argument without extension ("exec:python3 negcurv.py" is
// exec-negcurv), or NAME if the text is "exec:NAME=PROGRAM [ARG…]".
func ParseExecCommand(s string) (ExecCommand, error) {
	rest, ok := strings.CutPrefix(s, ExecPrefix)
	bad := func(why string) (ExecCommand, error) {
		return ExecCommand{}, fmt.Errorf("%w: external method %q: %s; want %s[NAME=]PROGRAM [ARG…], e.g. %spython3 negcurv.py", ErrBadBench, s, why, ExecPrefix, ExecPrefix)
	}
	if !ok {
		return bad("no " + ExecPrefix + " prefix")
	}
	name := ""
	if i := strings.IndexByte(rest, '='); i > 0 && !strings.ContainsAny(rest[:i], " /") {
		name, rest = rest[:i], rest[i+1:]
	}
	argv := strings.Fields(rest)
	if len(argv) == 0 {
		return bad("no program")
	}
	if name == "" {
		base := filepath.Base(argv[len(argv)-1])
		base = strings.TrimSuffix(base, filepath.Ext(base))
		var b strings.Builder
		for _, c := range base {
			if c < 128 && (c == '-' || c == '_' || c == '.' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
				b.WriteRune(c)
			} else {
				b.WriteByte('_')
			}
		}
		name = "exec-" + b.String()
	}
	c := ExecCommand{Name: name, Argv: argv}
	if err := c.Validate(); err != nil {
		return ExecCommand{}, err
	}
	return c, nil
}

// Validate checks c before any run: a valid name, a program that exists
// and is executable, valid limits.
func (c ExecCommand) Validate() error {
	if err := sod.CheckIdentifier("external method name", c.Name); err != nil {
		return err
	}
	if len(c.Argv) == 0 || c.Argv[0] == "" {
		return fmt.Errorf("%w: external method %q has no program (ExecCommand.Argv)", ErrBadBench, c.Name)
	}
	if _, err := exec.LookPath(c.Argv[0]); err != nil {
		return fmt.Errorf("%w: external method %q: program %q: %v", ErrBadBench, c.Name, c.Argv[0], err)
	}
	_, err := c.Limits.withDefaults()
	return err
}

// Method returns the external method: seeded (the trial seed is in the
// hello message), its Params the command line and the protocol version.
// The program is started at the run's first escape round, not before.
func (c ExecCommand) Method() (Method, error) {
	if err := c.Validate(); err != nil {
		return Method{}, err
	}
	prog, err := exec.LookPath(c.Argv[0])
	if err != nil {
		return Method{}, err
	}
	if prog, err = filepath.Abs(prog); err != nil {
		return Method{}, err
	}
	argv := append([]string{prog}, c.Argv[1:]...)
	// Arguments that name files are made absolute: the program runs in a
	// fresh working directory.
	for i := 1; i < len(argv); i++ {
		if _, err := os.Stat(argv[i]); err == nil && !filepath.IsAbs(argv[i]) {
			if a, err := filepath.Abs(argv[i]); err == nil {
				argv[i] = a
			}
		}
	}
	lim, _ := c.Limits.withDefaults()
	name := c.Name
	return Method{Name: name, Seeded: true,
		Params: map[string]string{"command": strings.Join(c.Argv, " "), execProtocolParam: strconv.Itoa(ExecProtocol)},
		New: func(in CertifiedInstance, seed uint64) (sod.Escaper, error) {
			return &execEscaper{name: name, argv: argv, lim: lim, in: in, seed: seed}, nil
		}}, nil
}

// execEscaper is one run of an external method.
type execEscaper struct {
	name string
	argv []string
	lim  ExecLimits
	in   CertifiedInstance
	seed uint64
	proc *execProc
	cpu  time.Duration
}

var _ sod.Escaper = (*execEscaper)(nil)

func (e *execEscaper) Name() string { return e.name }

// execProc is a started program.
type execProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan execLine
	stderr *tailBuffer
	dir    string
	done   chan struct{} // closed when the program has exited (Wait returned)
	quit   chan struct{} // closed by stop: the reader goroutine returns
	out    *os.File      // the read end of the program's stdout
	werr   error
}

type execLine struct {
	b   []byte
	err error
}

// fail ends the program and returns the reason of the run's end.
func (e *execEscaper) fail(round int, format string, args ...any) error {
	why := fmt.Sprintf(format, args...)
	var exit, tail string
	if e.proc != nil {
		e.stop(0)
		if e.proc.werr != nil {
			exit = "; the program's exit: " + e.proc.werr.Error()
		} else if st := e.proc.cmd.ProcessState; st != nil {
			exit = "; the program's exit: " + st.String()
		}
		if t := strings.TrimSpace(e.proc.stderr.String()); t != "" {
			tail = "; its stderr: " + strconv.Quote(t)
		}
	}
	return fmt.Errorf("%w: %s, round %d: %s%s%s", ErrExternalMethod, e.name, round, why, exit, tail)
}

// start starts the program and exchanges the hello messages.
func (e *execEscaper) start(ctx context.Context, st *sod.EscapeState) error {
	dir, err := os.MkdirTemp("", "sod-exec-*")
	if err != nil {
		return fmt.Errorf("%w: %s: working directory: %v", ErrExternalMethod, e.name, err)
	}
	cmd := exec.Command(e.argv[0], e.argv[1:]...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "OMP_NUM_THREADS=1", "OPENBLAS_NUM_THREADS=1", "MKL_NUM_THREADS=1", "SOD_ESCAPE_PROTOCOL=" + strconv.Itoa(ExecProtocol)}
	setProcessGroup(cmd)
	// A process that escaped the group and holds stderr open must not
	// keep Wait (and the run) waiting.
	cmd.WaitDelay = 2 * time.Second
	p := &execProc{cmd: cmd, dir: dir, lines: make(chan execLine, 1), stderr: &tailBuffer{max: e.lim.Stderr}, done: make(chan struct{}), quit: make(chan struct{})}
	cmd.Stderr = p.stderr
	// Our own pipe, not StdoutPipe: Wait must not close the read end
	// before the last message is read.
	out, w, err := os.Pipe()
	if err == nil {
		cmd.Stdout = w
		p.stdin, err = cmd.StdinPipe()
		if err == nil {
			err = cmd.Start()
		}
		w.Close()
		if err != nil {
			out.Close()
		}
	}
	if err != nil {
		os.RemoveAll(dir)
		return fmt.Errorf("%w: %s: cannot start %q: %v", ErrExternalMethod, e.name, e.argv[0], err)
	}
	p.out = out
	e.proc = p
	if err := limitMemory(cmd, e.lim.Memory); err != nil {
		killGroup(cmd)
	}
	n, r := st.X.Dims()
	maxBytes := e.lim.Bytes
	if maxBytes == 0 {
		maxBytes = 64<<10 + 32*n*r*e.lim.Candidates
	}
	go func() {
		br := bufio.NewReaderSize(out, 64<<10)
		for {
			b, err := readLine(br, maxBytes)
			select {
			case p.lines <- execLine{b, err}:
			case <-p.quit:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	go func() { p.werr = cmd.Wait(); close(p.done) }()
	hello := map[string]any{"type": "hello", "sod_escape": ExecProtocol, "method": e.name, "family": e.in.Family, "instance": e.in.Name,
		"n": n, "r": r, "seed": e.seed, "step": e.in.Step, "limits": map[string]any{"reply_s": e.lim.Reply.Seconds(), "round_s": e.lim.Round.Seconds(), "calls": e.lim.Calls, "candidates": e.lim.Candidates, "bytes": maxBytes}}
	deadline := time.Now().Add(e.lim.Round)
	m, err := e.exchange(ctx, st.Round, deadline, hello)
	if err != nil {
		return err
	}
	if m.Type != "hello" || m.Protocol != ExecProtocol {
		return e.fail(st.Round, "the program answered hello with type %q, sod_escape %d; want type \"hello\", sod_escape %d (the protocol version the benchmark speaks)", m.Type, m.Protocol, ExecProtocol)
	}
	return nil
}

// readLine reads one line of at most max bytes (without the newline).
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var b []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(b)+len(chunk) > max+1 {
			return nil, fmt.Errorf("a message longer than the limit of %d bytes", max)
		}
		b = append(b, chunk...)
		switch {
		case err == nil:
			return bytes.TrimSuffix(b[:len(b)-1], []byte("\r")), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case len(b) > 0:
			return nil, fmt.Errorf("output ended inside a message (%d bytes without a newline)", len(b))
		default:
			return nil, fmt.Errorf("the program closed its output (%v)", err)
		}
	}
}

// execMsg is a message of the program (PROTOCOL.md).
type execMsg struct {
	Type       string          `json:"type"`
	Protocol   int             `json:"sod_escape"`
	X          []float64       `json:"x"`
	D          []float64       `json:"d"`
	Candidates []execCandidate `json:"candidates"`
	Reason     string          `json:"reason"`
}

type execCandidate struct {
	X     []float64 `json:"x"`
	Label string    `json:"label"`
	Probe int       `json:"probe"`
}

// exchange sends msg (if not nil) and reads the program's next message
// within the reply limit and deadline.
func (e *execEscaper) exchange(ctx context.Context, round int, deadline time.Time, msg any) (*execMsg, error) {
	wait := min(e.lim.Reply, time.Until(deadline))
	timer := time.NewTimer(max(wait, 0))
	defer timer.Stop()
	if msg != nil {
		b, err := json.Marshal(msg)
		if err != nil {
			return nil, e.fail(round, "cannot encode a message: %v", err)
		}
		b = append(b, '\n')
		wrote := make(chan error, 1)
		go func() { _, err := e.proc.stdin.Write(b); wrote <- err }()
		select {
		case err := <-wrote:
			if err != nil {
				return nil, e.fail(round, "the program does not read its input (%v)", err)
			}
		case <-timer.C:
			return nil, e.fail(round, "the program did not read a message within %v", wait)
		case <-ctx.Done():
			return nil, e.fail(round, "stopped: %v", ctx.Err())
		}
	}
	select {
	case ln := <-e.proc.lines:
		if ln.err != nil {
			if strings.HasPrefix(ln.err.Error(), "a message longer") {
				return nil, e.fail(round, "flood: %v", ln.err)
			}
			return nil, e.fail(round, "%v", ln.err)
		}
		var m execMsg
		if err := json.Unmarshal(ln.b, &m); err != nil {
			return nil, e.fail(round, "not a protocol message (%v): %s", err, quoteStart(ln.b))
		}
		return &m, nil
	case <-timer.C:
		if wait < e.lim.Reply {
			return nil, e.fail(round, "hang: the round took longer than its limit of %v", e.lim.Round)
		}
		return nil, e.fail(round, "hang: no message within the reply limit of %v", e.lim.Reply)
	case <-ctx.Done():
		return nil, e.fail(round, "stopped: %v", ctx.Err())
	}
}

// quoteStart quotes the first 200 bytes of b.
func quoteStart(b []byte) string {
	if len(b) > 200 {
		return strconv.Quote(string(b[:200])) + "…"
	}
	return strconv.Quote(string(b))
}

// Propose runs one round of the protocol: the round message, the oracle
// calls served on st.P (counted), the proposal.
func (e *execEscaper) Propose(ctx context.Context, st *sod.EscapeState) ([]sod.Candidate, error) {
	if e.proc == nil {
		if err := e.start(ctx, st); err != nil {
			return nil, err
		}
	}
	n, r := st.X.Dims()
	deadline := time.Now().Add(e.lim.Round)
	var reply any = map[string]any{"type": "round", "round": st.Round, "iter": st.Iter, "h": OptFloat(st.H), "x": flat(st.X)}
	toMat := func(what string, v []float64) (*mat.Dense, error) {
		if len(v) != n*r {
			return nil, e.fail(st.Round, "%s has %d numbers, want n·r = %d", what, len(v), n*r)
		}
		return mat.NewDense(n, r, append([]float64(nil), v...)), nil
	}
	for calls := 0; ; calls++ {
		m, err := e.exchange(ctx, st.Round, deadline, reply)
		if err != nil {
			return nil, err
		}
		if calls >= e.lim.Calls && m.Type != "propose" && m.Type != "fail" {
			return nil, e.fail(st.Round, "flood: more than the limit of %d oracle calls in a round", e.lim.Calls)
		}
		switch m.Type {
		case "h":
			x, err := toMat(`"h"'s x`, m.X)
			if err != nil {
				return nil, err
			}
			reply = map[string]any{"type": "h", "h": OptFloat(st.P.H(x))}
		case "grad":
			x, err := toMat(`"grad"'s x`, m.X)
			if err != nil {
				return nil, err
			}
			g := mat.NewDense(n, r, nil)
			st.P.Grad(g, x) // counted: one ∇h evaluation, h with it
			reply = map[string]any{"type": "grad", "h": OptFloat(e.in.P.H(x)), "grad": flat(g)}
		case "hessvec":
			x, err := toMat(`"hessvec"'s x`, m.X)
			if err != nil {
				return nil, err
			}
			d, err := toMat(`"hessvec"'s d`, m.D)
			if err != nil {
				return nil, err
			}
			hv := mat.NewDense(n, r, nil)
			st.P.HessVec(hv, x, d)
			reply = map[string]any{"type": "hessvec", "hv": flat(hv)}
		case "critical":
			cp, err := st.Critical()
			if err != nil {
				return nil, e.fail(st.Round, "the critical-point analysis failed: %v", err)
			}
			reply = criticalReply(cp)
		case "propose":
			if len(m.Candidates) > e.lim.Candidates {
				return nil, e.fail(st.Round, "flood: %d candidates, more than the limit of %d", len(m.Candidates), e.lim.Candidates)
			}
			cands := make([]sod.Candidate, len(m.Candidates))
			for i, c := range m.Candidates {
				x, err := toMat(fmt.Sprintf("candidate %d's x", i), c.X)
				if err != nil {
					return nil, err
				}
				if c.Probe < 0 || c.Probe > 10_000_000 {
					return nil, e.fail(st.Round, "candidate %d's probe = %d, want 0…10⁷ GD steps", i, c.Probe)
				}
				if len(c.Label) > 200 {
					c.Label = c.Label[:200]
				}
				cands[i] = sod.Candidate{X: x, Label: strings.ToValidUTF8(c.Label, "?"), Probe: c.Probe}
			}
			return cands, nil
		case "fail":
			return nil, e.fail(st.Round, "the program gave up: %s", quoteStart([]byte(m.Reason)))
		default:
			return nil, e.fail(st.Round, "message type %q, want h, grad, hessvec, critical, propose or fail", m.Type)
		}
	}
}

// flat returns x's entries row-major.
func flat(x mat.Matrix) []OptFloat {
	n, r := x.Dims()
	out := make([]OptFloat, 0, n*r)
	for i := range n {
		for k := range r {
			out = append(out, OptFloat(x.At(i, k)))
		}
	}
	return out
}

// vec returns v's entries, nil for a nil vector.
func vec(v *mat.VecDense) []OptFloat {
	if v == nil {
		return nil
	}
	return flat(v)
}

// criticalReply is the answer to "critical": sod.AnalyzeCritical at X̂
// without the ground truth.
func criticalReply(cp *sod.CriticalPoint) map[string]any {
	return map[string]any{"type": "critical", "h": OptFloat(cp.H), "grad_norm": OptFloat(cp.GradNorm), "lambda_n": OptFloat(cp.LambdaN),
		"u_n": vec(cp.Un), "sigma_r": OptFloat(cp.SigmaR), "v_r": vec(cp.Vr), "q_r": vec(cp.Qr), "rank": cp.Rank,
		"ex_norm": OptFloat(cp.EXNorm), "euu": OptFloat(cp.Euu), "m": cp.M}
}

// stop ends the program: "end", stdin closed, grace to exit, then the
// process group killed; the working directory is removed.
func (e *execEscaper) stop(grace time.Duration) {
	p := e.proc
	select {
	case <-p.done:
	default:
		if grace > 0 {
			go func() {
				p.stdin.Write([]byte(`{"type":"end"}` + "\n"))
				p.stdin.Close()
			}()
			select {
			case <-p.done:
			case <-time.After(grace):
			}
		}
		killGroup(p.cmd)
		<-p.done
	}
	// Whatever the program left in its group (a child that outlived it)
	// goes too.
	killGroup(p.cmd)
	if p.out != nil {
		close(p.quit)
		p.out.Close()
		p.out = nil
	}
	if p.dir != "" {
		os.RemoveAll(p.dir)
		p.dir = ""
	}
	if st := p.cmd.ProcessState; st != nil {
		e.cpu = st.UserTime() + st.SystemTime()
	}
}

// Close ends the program, if started, and returns its CPU time.
func (e *execEscaper) close() time.Duration {
	if e.proc == nil {
		return 0
	}
	e.stop(time.Second)
	return e.cpu
}

// closeEscaper ends an external method's program at the end of a run
// (RunTrial) and returns its CPU time (0 for other escapers).
func closeEscaper(esc sod.Escaper) time.Duration {
	if pb, ok := esc.(*probeBest); ok {
		esc = pb.inner
	}
	if e, ok := esc.(*execEscaper); ok {
		return e.close()
	}
	return 0
}

// tailBuffer keeps the first and the last max/2 bytes written to it (a
// Go panic names its cause first, a Python traceback last).
type tailBuffer struct {
	mu         sync.Mutex
	max        int
	head, tail []byte
	cut        bool // bytes between head and tail were dropped
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if room := t.max/2 - len(t.head); room > 0 {
		k := min(room, len(p))
		t.head, p = append(t.head, p[:k]...), p[k:]
	}
	t.tail = append(t.tail, p...)
	if keep := t.max - t.max/2; len(t.tail) > keep {
		t.tail, t.cut = append(t.tail[:0], t.tail[len(t.tail)-keep:]...), true
	}
	return n, nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	mid := ""
	if t.cut {
		mid = " … "
	}
	return strings.ToValidUTF8(string(t.head)+mid+string(t.tail), "?")
}
