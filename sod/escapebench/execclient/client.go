// Package execclient is the Go reference client of the escape
// benchmark's protocol for external methods, version 1 (PROTOCOL.md in
// sod/escapebench): a program calls Serve with its escape, and the
// benchmark serves every oracle call (and counts it). It imports nothing
// of the benchmark, so a method in its own module can copy it.
package execclient

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
)

// Protocol is the version this client speaks.
const Protocol = 1

// Hello is the hello message: the instance of the run.
type Hello struct {
	Method, Family, Instance string
	N, R                     int
	Seed                     uint64
	Step                     float64
}

// Round is a stalled point: X is n·r numbers, row-major.
type Round struct {
	Round, Iter int
	H           float64
	X           []float64
}

// Proposal is a proposed point (Probe > 0: judged after Probe GD steps).
type Proposal struct {
	X     []float64 `json:"x"`
	Label string    `json:"label"`
	Probe int       `json:"probe"`
}

// Critical is the critical-point analysis at the stalled point.
type Critical struct {
	H, GradNorm, LambdaN, SigmaR, EXNorm, Euu float64
	Un, Vr, Qr                                []float64
	Rank, M                                   int
}

// Oracle makes the oracle calls of one round.
type Oracle struct {
	in  *bufio.Scanner
	out io.Writer
}

type reply struct {
	Type     string
	H        *float64
	GradNorm *float64 `json:"grad_norm"`
	LambdaN  *float64 `json:"lambda_n"`
	SigmaR   *float64 `json:"sigma_r"`
	EXNorm   *float64 `json:"ex_norm"`
	Euu      *float64
	Grad, HV []float64
	Un       []float64 `json:"u_n"`
	Vr       []float64 `json:"v_r"`
	Qr       []float64 `json:"q_r"`
	Rank, M  int
}

func (o *Oracle) call(msg any) (*reply, error) {
	if o == nil || o.in == nil || o.out == nil {
		return nil, errors.New("execclient: an Oracle is made by Serve")
	}
	if err := send(o.out, msg); err != nil {
		return nil, err
	}
	var r reply
	return &r, recv(o.in, &r)
}

func num(p *float64) float64 {
	if p == nil {
		return math.Inf(1) // null: not finite
	}
	return *p
}

// H returns h(X).
func (o *Oracle) H(x []float64) (float64, error) {
	r, err := o.call(map[string]any{"type": "h", "x": x})
	if err != nil {
		return 0, err
	}
	return num(r.H), nil
}

// Grad returns h(X) and ∇h(X).
func (o *Oracle) Grad(x []float64) (float64, []float64, error) {
	r, err := o.call(map[string]any{"type": "grad", "x": x})
	if err != nil {
		return 0, nil, err
	}
	return num(r.H), r.Grad, nil
}

// HessVec returns ∇²h(X)[D].
func (o *Oracle) HessVec(x, d []float64) ([]float64, error) {
	r, err := o.call(map[string]any{"type": "hessvec", "x": x, "d": d})
	if err != nil {
		return nil, err
	}
	return r.HV, nil
}

// Critical returns the critical-point analysis at the stalled point.
func (o *Oracle) Critical() (*Critical, error) {
	r, err := o.call(map[string]any{"type": "critical"})
	if err != nil {
		return nil, err
	}
	return &Critical{H: num(r.H), GradNorm: num(r.GradNorm), LambdaN: num(r.LambdaN), SigmaR: num(r.SigmaR), EXNorm: num(r.EXNorm), Euu: num(r.Euu),
		Un: r.Un, Vr: r.Vr, Qr: r.Qr, Rank: r.Rank, M: r.M}, nil
}

// Escape proposes candidates at a stalled point; an error ends the run
// with it as the reason.
type Escape func(in Hello, rd Round, o *Oracle) ([]Proposal, error)

// Serve answers the benchmark on r and w until it ends the run.
func Serve(r io.Reader, w io.Writer, escape Escape) error {
	if r == nil || w == nil || escape == nil {
		return errors.New("execclient: Serve needs a reader, a writer and an escape")
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<30)
	var hello struct {
		Hello
		Type     string
		Protocol int `json:"sod_escape"`
	}
	if err := recv(sc, &hello); err != nil {
		return err
	}
	if hello.Type != "hello" || hello.Protocol != Protocol {
		return send(w, map[string]any{"type": "fail", "reason": fmt.Sprintf("client speaks protocol %d, got %d", Protocol, hello.Protocol)})
	}
	if err := send(w, map[string]any{"type": "hello", "sod_escape": Protocol}); err != nil {
		return err
	}
	o := &Oracle{in: sc, out: w}
	for {
		var rd struct {
			Round
			Type string
		}
		if err := recv(sc, &rd); err != nil || rd.Type != "round" {
			return nil // "end", or our input closed: the run is over
		}
		cands, err := escape(hello.Hello, rd.Round, o)
		msg := map[string]any{"type": "propose", "candidates": cands}
		if err != nil {
			msg = map[string]any{"type": "fail", "reason": err.Error()}
		}
		if cands == nil && err == nil {
			msg["candidates"] = []Proposal{}
		}
		if err := send(w, msg); err != nil {
			return err
		}
	}
}

func send(w io.Writer, msg any) error {
	b, err := json.Marshal(msg)
	if err == nil {
		_, err = w.Write(append(b, '\n'))
	}
	return err
}

func recv(sc *bufio.Scanner, v any) error {
	if !sc.Scan() {
		if sc.Err() != nil {
			return sc.Err()
		}
		return io.EOF
	}
	return json.Unmarshal(sc.Bytes(), v)
}
