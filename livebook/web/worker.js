// The live book's Web Worker: it runs the Go interpreter (sodlive.wasm,
// built from cmd/sodlive) and posts the cells' outputs to the page.
//
// Messages from the page: {type: "init", module, warm} (the compiled
// WebAssembly.Module and the import paths to warm up with; the worker
// fetches the source packages itself), {type: "run", id, name, src},
// {type: "declare", id, name, src}, {type: "reset"}, {type: "control", id, i, k}
// (a reader moved control i of the controls output id to position k).
// Messages to the page: {type: "mark", name, t} (the timeline), {type: "ready"} or {type: "fatal", error},
// {type: "out", stream, text}, {type: "display", kind, id, content},
// {type: "done", id, result}.
"use strict";
// sodLiveMark(name) posts {type: "mark", name, t} for the page's timeline
// (t in milliseconds since the Unix epoch: the worker's clock starts
// when it does); cmd/sodlive calls it too.
globalThis.sodLiveMark = function (name) {
  postMessage({ type: "mark", name: name, t: performance.timeOrigin + performance.now() });
};
sodLiveMark("workerScript");
// Standard output and error of the whole program (fmt in cells, and the
// compiled packages) arrive through the file system, which holds the
// files the cells write, in memory (memfs.js).
importScripts("memfs.js");
const decoders = { 1: new TextDecoder("utf-8"), 2: new TextDecoder("utf-8") };
globalThis.fs = sodLiveMemFS(function (fd, buf) {
  const text = decoders[fd].decode(buf, { stream: true });
  if (text) {
    if (fd === 2) { errLines(text); }
    postMessage({ type: "out", stream: fd === 2 ? "stderr" : "stdout", text: text });
  }
});
importScripts("wasm_exec.js");
sodLiveMark("workerLoaded");

// The widgets' display back end (widgets/internal/frontend, js build).
globalThis.sodLivePage = {
  display: function (kind, id, content) {
    postMessage({ type: "display", kind: kind, id: id, content: content });
  },
};

let ready = null;
// warmed is the warm-up's end (sodLive.warm): runs wait for it.
let warmed = Promise.resolve();
// The Go runtime's last words, for the message of a crash: the first
// "fatal error: …" line of standard error since the run started (the
// runtime writes it in pieces, then a stack dump, in which a second fatal
// error may follow), else the last "panic: …" line.
let errLine = "", fatalWords = "", panicWords = "";
function errLines(text) {
  const lines = (errLine + text).split("\n");
  errLine = lines.pop().slice(-1024);
  lines.forEach(function (l) {
    if (!fatalWords && /^fatal error: ./.test(l)) { fatalWords = l; }
    if (/^panic: ./.test(l)) { panicWords = l; }
  });
}

// sources are the source packages, {"<import path>/<file>.go": text},
// fetched as the worker starts (manifest.json lists them), while the page
// compiles the interpreter.
const sources = fetch("manifest.json").then(function (r) {
  if (!r.ok) { throw new Error("fetching manifest.json: " + r.status); }
  return r.json();
}).then(function (man) {
  const files = {};
  return Promise.all(man.sources.map(function (p) {
    return fetch("src/" + p).then(function (r) {
      if (!r.ok) { throw new Error("fetching " + p + ": " + r.status); }
      return r.text();
    }).then(function (t) { files[p] = t; });
  })).then(function () { sodLiveMark("sources"); return files; });
});
sources.catch(function () { /* reported by start */ });

function start(module) {
  ready = Promise.all([new Promise(function (resolve, reject) {
    globalThis.sodLiveReady = resolve;
    const go = new Go();
    go.argv = ["sodlive"];
    WebAssembly.instantiate(module, go.importObject).then(function (instance) {
      sodLiveMark("instantiated");
      go.run(instance).then(function () {
        // The Go program ended: a crash (a panic no run contained).
        reject(new Error("the interpreter exited"));
        postMessage({ type: "fatal", error: "the Go program exited (" + (fatalWords || panicWords || errLine || "see the browser's console") + ")" });
      });
    }, reject);
  }), sources]).then(function (both) {
    const err = globalThis.sodLive.init(both[1]);
    if (err) { throw new Error(err); }
    sodLiveMark("interpreter");
  });
  return ready;
}

onmessage = function (e) {
  const m = e.data;
  switch (m.type) {
    case "init":
      start(m.module).then(
        function () {
          postMessage({ type: "ready" });
          // While the page is busy (parsing, typesetting, drawing), the
          // interpreter reads the types of the packages the page's cells
          // import and compiles a program importing them (its first use
          // is the slowest: WebAssembly compiles a function when first
          // called); the first run then waits for the warm-up's end.
          if (m.warm && m.warm.length) {
            warmed = globalThis.sodLive.warm(m.warm).then(function () { sodLiveMark("warmed"); }, function () {});
          }
        },
        function (err) { postMessage({ type: "fatal", error: String(err) }); });
      break;
    case "run":
    case "declare":
      fatalWords = panicWords = "";
      ready.then(function () { return warmed; }).then(function () { return globalThis.sodLive[m.type](m.name, m.src); }).then(
        function (result) { postMessage({ type: "done", id: m.id, result: result }); },
        function (err) { postMessage({ type: "done", id: m.id, result: { error: String(err), panic: true } }); });
      break;
    case "control":
      if (globalThis.sodLiveControl) { globalThis.sodLiveControl(m.id, m.i, m.k); }
      break;
    case "reset":
      ready.then(function () { globalThis.sodLive.reset(); });
      break;
  }
};
