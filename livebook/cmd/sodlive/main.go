//go:build js && wasm

// Command sodlive is the live book's Go interpreter, built for the page's
// Web Worker (GOOS=js GOARCH=wasm). It wires package live to JavaScript:
// it defines globalThis.sodLive with
//
//	init(sources)       the source packages, {"<import path>/<file>.go": text}
//	run(name, src)      a Promise of {error, panic, compiled, shell, magic, ms, check, setup, compile, exec}
//	declare(name, src)  a Promise of {error}: keep a cell's declarations without running it
//	reset()             forget every declaration
//	warm(paths)         a Promise of {error}: warm up with the packages at paths (Kernel.Warm)
//
// and calls globalThis.sodLiveReady() once they exist (and
// globalThis.sodLiveMark("goMain") as main starts, for the timeline). Cells write to
// os.Stdout and os.Stderr, which the worker's file system shim forwards.
package main

import (
	"context"
	"errors"
	"os"
	"syscall/js"
	"testing/fstest"
	"time"

	"sodworkbench.org/workbench/livebook/live"
)

func main() {
	// The timeline: the Go runtime and every package's init are done.
	if mark := js.Global().Get("sodLiveMark"); mark.Type() == js.TypeFunction {
		mark.Invoke("goMain")
	}
	var k *live.Kernel
	api := js.Global().Get("Object").New()
	api.Set("init", js.FuncOf(func(_ js.Value, args []js.Value) any {
		fsys := fstest.MapFS{}
		files := args[0]
		keys := js.Global().Get("Object").Call("keys", files)
		for i := range keys.Length() {
			name := keys.Index(i).String()
			fsys[name] = &fstest.MapFile{Data: []byte(files.Get(name).String())}
		}
		var err error
		k, err = live.New(fsys)
		if err != nil {
			return err.Error()
		}
		return nil
	}))
	api.Set("run", js.FuncOf(func(_ js.Value, args []js.Value) any {
		name, src := args[0].String(), args[1].String()
		return promise(func() map[string]any {
			start := time.Now()
			res, err := k.Run(context.Background(), name, src, os.Stdout, os.Stderr)
			out := map[string]any{"ms": ms(time.Since(start)), "shell": strings(res.Shell), "magic": strings(res.Magic), "compiled": res.Compiled,
				"check": ms(res.Check), "setup": ms(res.Setup), "compile": ms(res.Compile), "exec": ms(res.Exec)}
			if err != nil {
				out["error"] = err.Error()
				out["panic"] = errors.Is(err, live.ErrPanic)
			}
			return out
		})
	}))
	api.Set("declare", js.FuncOf(func(_ js.Value, args []js.Value) any {
		name, src := args[0].String(), args[1].String()
		return promise(func() map[string]any {
			if err := k.Declare(name, src); err != nil {
				return map[string]any{"error": err.Error()}
			}
			return map[string]any{}
		})
	}))
	api.Set("warm", js.FuncOf(func(_ js.Value, args []js.Value) any {
		paths := make([]string, args[0].Length())
		for i := range paths {
			paths[i] = args[0].Index(i).String()
		}
		return promise(func() map[string]any {
			if err := k.Warm(paths); err != nil {
				return map[string]any{"error": err.Error()}
			}
			return map[string]any{}
		})
	}))
	api.Set("reset", js.FuncOf(func(js.Value, []js.Value) any {
		k.Reset()
		return nil
	}))
	js.Global().Set("sodLive", api)
	if ready := js.Global().Get("sodLiveReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func strings(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// promise runs f on a goroutine (so that the JavaScript event loop, and
// timers, stay free) and resolves a Promise with its result.
func promise(f func() map[string]any) js.Value {
	var handler js.Func
	handler = js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve := args[0]
		go func() {
			defer handler.Release()
			resolve.Invoke(js.ValueOf(f()))
		}()
		return nil
	})
	return js.Global().Get("Promise").New(handler)
}
