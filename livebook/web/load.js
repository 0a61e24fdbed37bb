// The live book's loader, inlined into each page's <head> (book.Inject)
// so that the interpreter downloads and compiles while the page is still
// parsing. sodLiveCompile(url) fetches url + ".gz" (the interpreter
// gzip-compressed by the book: about a fifth of its size from any static
// server, compressing or not), unpacks it with DecompressionStream and
// compiles it as it arrives. A browser without DecompressionStream, or a
// server that already unpacked the file, gets url itself (uncompressed,
// unless the server compresses it). window.sodLiveModule is the compiled
// module's promise for the page's interpreter (data-wasm of this script),
// and window.sodLiveBooted its worker, already started (sodLiveBoot).
// window.sodLiveTimes holds the loading's timeline (milliseconds since the
// navigation started, performance.now()), which live.js completes.
"use strict";
window.sodLiveTimes = window.sodLiveTimes || {};
window.sodLiveMark = function (name, t) {
  if (!(name in window.sodLiveTimes)) { window.sodLiveTimes[name] = t === undefined ? performance.now() : t; }
};
window.sodLiveMark("loader");
// The main thread's long tasks (over 50 ms: MathJax, chart scripts, the
// page's own), [start, duration], for the timeline.
window.sodLiveLongTasks = [];
try {
  new PerformanceObserver(function (list) {
    list.getEntries().forEach(function (e) { window.sodLiveLongTasks.push([e.startTime, e.duration]); });
  }).observe({ type: "longtask", buffered: true });
} catch (e) { /* no long task timing in this browser */ }
window.sodLiveCompile = function (url) {
  function compile(resp) {
    return (WebAssembly.compileStreaming
      ? WebAssembly.compileStreaming(resp)
      : resp.arrayBuffer().then(function (b) { return WebAssembly.compile(b); })).then(function (m) {
      window.sodLiveMark("compiled");
      return m;
    });
  }
  // fetched marks the end of a response's body (the last byte received).
  function fetched(body) {
    if (typeof TransformStream === "undefined") { return body; }
    return body.pipeThrough(new TransformStream({ flush: function () { window.sodLiveMark("fetched"); } }));
  }
  function plain() {
    return fetch(url).then(function (r) {
      if (!r.ok) { throw new Error("fetching " + url + ": " + r.status); }
      window.sodLiveMark("response");
      return compile(new Response(fetched(r.body), { headers: { "Content-Type": "application/wasm" } }));
    });
  }
  if (typeof DecompressionStream === "undefined") { return plain(); }
  return fetch(url + ".gz").then(function (r) {
    if (!r.ok) { throw new Error("fetching " + url + ".gz: " + r.status); }
    window.sodLiveMark("response");
    var unpacked = fetched(r.body).pipeThrough(new DecompressionStream("gzip"));
    return compile(new Response(unpacked, { headers: { "Content-Type": "application/wasm" } }));
  }).catch(function (err) {
    if (window.console) { console.warn("live book: " + url + ".gz failed (" + err + "); fetching " + url); }
    return plain();
  });
};
// sodLiveBoot(dir, module, warm) starts the page's Web Worker (dir + "worker.js")
// at once, so that its scripts load and it fetches the source packages
// while the interpreter compiles, and gives it the module when compiled.
// The worker then starts Go and the interpreter without waiting for the
// page's main thread (MathJax, the charts), and warms the interpreter up
// with warm, the page's import paths (data-warm). It returns {worker, take}:
// take(onmessage) hands the worker to live.js with the messages that
// arrived before (the timeline's marks are recorded here).
window.sodLiveBoot = function (dir, module, warm) {
  var worker = new Worker(dir + "worker.js"), early = [], handler = null;
  window.sodLiveMark("workerCreated");
  function deliver(m) {
    if (m.type === "mark") { window.sodLiveMark(m.name, m.t - performance.timeOrigin); return; }
    if (handler) { handler({ data: m }); } else { early.push(m); }
  }
  worker.onmessage = function (e) { deliver(e.data); };
  worker.onerror = function (e) { deliver({ type: "fatal", error: e.message || "the worker failed" }); };
  module.then(function (m) { worker.postMessage({ type: "init", module: m, warm: warm }); },
    function (err) { deliver({ type: "fatal", error: "compiling the interpreter: " + err }); });
  return {
    worker: worker,
    take: function (onmessage) {
      handler = onmessage;
      early.splice(0).forEach(function (m) { handler({ data: m }); });
    },
  };
};
(function () {
  var s = document.currentScript, wasm = s && s.getAttribute("data-wasm");
  var warm = ((s && s.getAttribute("data-warm")) || "").split(" ").filter(Boolean);
  if (wasm) {
    window.sodLiveModule = window.sodLiveCompile(wasm);
    try {
      window.sodLiveBooted = window.sodLiveBoot(wasm.replace(/[^/]*$/, ""), window.sodLiveModule, warm);
    } catch (err) { /* no worker from here: live.js starts it */ }
  }
})();
// A page whose live.js never ran (not served, or a script error) still
// draws the kernel's charts and typesets its math once it has loaded: the
// deferred scripts (book.LaterType) run in document order, as the export
// ran them, and MathJax typesets.
window.addEventListener("load", function () {
  if (window.sodLiveBook) { return; }
  document.querySelectorAll('script[type="text/x-sodlive-later"]').forEach(function (old) {
    var s = document.createElement("script");
    s.text = old.text;
    old.type = "text/x-sodlive-ran";
    old.replaceWith(s);
  });
  var hub = window.MathJax && window.MathJax.Hub;
  if (hub && hub.Queue) { hub.Queue(["Typeset", hub]); }
});
