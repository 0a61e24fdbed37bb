// The live book's loader, inlined into each page's <head> (book.Inject)
// so that the interpreter downloads and compiles while the page is still
// parsing. sodLiveCompile(url) fetches url + ".gz" (the interpreter
// gzip-compressed by the book: about a fifth of its size from any static
// server, compressing or not), unpacks it with DecompressionStream and
// compiles it as it arrives. A browser without DecompressionStream, or a
// server that already unpacked the file, gets url itself (uncompressed,
// unless the server compresses it). window.sodLiveModule is the compiled
// module's promise for the page's interpreter (data-wasm of this script).
"use strict";
window.sodLiveCompile = function (url) {
  function compile(resp) {
    return WebAssembly.compileStreaming
      ? WebAssembly.compileStreaming(resp)
      : resp.arrayBuffer().then(function (b) { return WebAssembly.compile(b); });
  }
  function plain() {
    return fetch(url).then(function (r) {
      if (!r.ok) { throw new Error("fetching " + url + ": " + r.status); }
      return compile(new Response(r.body, { headers: { "Content-Type": "application/wasm" } }));
    });
  }
  if (typeof DecompressionStream === "undefined") { return plain(); }
  return fetch(url + ".gz").then(function (r) {
    if (!r.ok) { throw new Error("fetching " + url + ".gz: " + r.status); }
    var unpacked = r.body.pipeThrough(new DecompressionStream("gzip"));
    return compile(new Response(unpacked, { headers: { "Content-Type": "application/wasm" } }));
  }).catch(function (err) {
    if (window.console) { console.warn("live book: " + url + ".gz failed (" + err + "); fetching " + url); }
    return plain();
  });
};
(function () {
  var s = document.currentScript, wasm = s && s.getAttribute("data-wasm");
  if (wasm) { window.sodLiveModule = window.sodLiveCompile(wasm); }
})();
