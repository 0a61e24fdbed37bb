// The live book's page runtime: it makes every code cell of an exported
// notebook editable and runnable with the Go interpreter of worker.js,
// keeping GoNB's semantics (declarations accumulate from cell to cell,
// "%%" starts the program's body, every run is a whole program).
//
// The page carries its interpreter's file and its cells' sources in
// <script type="application/json" id="sodlive-cells"> ({wasm, cells: [{src,
// known}]}, known being why a cell cannot run in the browser). With ?run=all it runs
// every cell on load and then sets data-run-state on <body> to "done" or
// "failed: cell N <reason>". window.sodLiveStats holds the timings, in
// milliseconds since the navigation started (performance.now()), and the
// text outputs (for the browser tests); its timeline is the loading's, from
// load.js (window.sodLiveTimes), this script and the worker's marks, and
// longTasks the main thread's tasks over 50 ms. The interpreter's download and
// compilation start in the page's <head> (load.js, window.sodLiveModule).
(function () {
  "use strict";
  var base = document.currentScript.src.replace(/[^/]*$/, "");
  var stats = (window.sodLiveStats = { script: performance.now(), firstOutput: null, ready: null, compiled: null, cells: [],
    timeline: (window.sodLiveTimes = window.sodLiveTimes || {}), longTasks: window.sodLiveLongTasks || [] });
  document.addEventListener("DOMContentLoaded", function () { mark("htmlParsed"); });
  function mark(name, t) {
    if (!(name in stats.timeline)) { stats.timeline[name] = t === undefined ? performance.now() : t; }
  }
  mark("liveScript");
  var pageData = JSON.parse(document.getElementById("sodlive-cells").textContent);
  var cellsData = pageData.cells;
  var SETUP_NOTE =
    "The “!” lines are shell commands for the Jupyter kernel (they point GoNB at this module). " +
    "They are not needed here: the page's Go interpreter has the workbench's packages built in.";

  var worker = null, module = null, ready = null;
  var pending = {}, nextID = 1, current = null, queue = Promise.resolve(), epoch = 0;
  var committed = []; // sources of the cells whose declarations the interpreter holds, by index
  var bar, status;

  function setStatus(text) { status.textContent = text; }

  // ---- the worker -------------------------------------------------------
  // The compiled interpreter: started in the page's <head> (load.js,
  // window.sodLiveModule); again if that failed.
  function loadOnce() {
    if (module) { return Promise.resolve(module); }
    var started = window.sodLiveModule;
    window.sodLiveModule = null;
    return (started || Promise.reject(new Error("no loader"))).catch(function () {
      return window.sodLiveCompile(base + pageData.wasm);
    }).then(function (m) {
      module = m;
      if (stats.compiled === null) { stats.compiled = stats.timeline.compiled || performance.now(); }
      return m;
    });
  }

  // startWorker takes the worker load.js started (window.sodLiveBooted),
  // which gets the module from there, or starts one and gives it the
  // module (after Stop or a crash).
  function startWorker() {
    setStatus("loading the Go interpreter…");
    var booted = window.sodLiveBooted;
    window.sodLiveBooted = null;
    ready = new Promise(function (resolve, reject) {
      function onmessage(e) {
        var m = e.data;
        if (m.type === "mark") { mark(m.name, m.t - performance.timeOrigin); return; }
        if (m.type === "ready") { resolve(); return; }
        if (m.type === "fatal") {
          if (stats.ready === null) { reject(new Error(m.error)); return; }
          // The interpreter crashed (a Go runtime error the run could not
          // contain): end the run with the reason, and start a new
          // interpreter with the declarations it had.
          fail("the interpreter crashed: " + m.error + "\nThe page restarted it, with the declarations of the cells run so far.");
          if (worker) { worker.terminate(); }
          worker = null;
          startWorker().then(function () { setStatus("ready (the interpreter was restarted after a crash)"); });
          return;
        }
        onMessage(m);
      }
      if (booted) {
        worker = booted.worker;
        loadOnce().catch(function () { /* the worker says so */ });
        booted.take(onmessage);
        return;
      }
      loadOnce().then(function (m) {
        worker = new Worker(base + "worker.js");
        worker.onmessage = onmessage;
        worker.onerror = function (e) { reject(new Error(e.message || "the worker failed")); };
        worker.postMessage({ type: "init", module: m });
      }, reject);
    }).then(function () {
      if (stats.ready === null) {
        stats.ready = performance.now();
        mark("ready");
        // A reader's page does its deferred work now; a page running all
        // its cells on load (?run=all) when they have run.
        if (!runAllOnLoad) { startLater(); }
      }
      // After a stop, give the new interpreter the declarations it had.
      var chain = Promise.resolve();
      committed.forEach(function (src, i) {
        if (src === undefined) { return; }
        chain = chain.then(function () { return call("declare", i, src); });
      });
      return chain;
    }).then(function () { setStatus("ready"); });
    ready.catch(function (err) {
      setStatus("the interpreter could not start: " + err);
      // The kernel's charts and the math do not wait for an interpreter
      // that will not come (a run-all page does this when its run ends).
      if (!runAllOnLoad) { startLater(); }
    });
    return ready;
  }

  function call(type, i, src) {
    var id = nextID++;
    if (type === "run") { mark("firstRun"); }
    return new Promise(function (resolve) {
      pending[id] = resolve;
      worker.postMessage({ type: type, id: id, name: "cell " + (i + 1), src: src });
    });
  }

  // fail ends the pending calls with msg, which the running cell prints
  // once (as the error of its run).
  function fail(msg) {
    var n = 0;
    Object.keys(pending).forEach(function (id) { pending[id]({ error: msg, stopped: true }); delete pending[id]; n++; });
    if (current && n === 0) { current.error(msg); }
  }

  function onMessage(m) {
    if (m.type === "done") {
      var r = pending[m.id];
      if (!r) { return; }
      if (m.result === undefined || m.result === null) {
        // The interpreter exited during the call (a crash): its "fatal"
        // message follows and ends the run with the reason (fail).
        setTimeout(function () {
          if (pending[m.id] === r) { delete pending[m.id]; r({ error: "the interpreter ended the run without a result" }); }
        }, 2000);
        return;
      }
      delete pending[m.id];
      r(m.result);
      return;
    }
    if (!current) { return; }
    if (stats.firstOutput === null) {
      stats.firstOutput = performance.now();
      mark("firstOutput", stats.firstOutput);
      // Painted: the next frame after the output is in the page.
      requestAnimationFrame(function () { setTimeout(function () { mark("firstPaint"); }, 0); });
    }
    if (m.type === "out") { current.text(m.stream, m.text); }
    if (m.type === "display") { current.display(m.kind, m.id, m.content); }
  }

  // ---- the page's work after its first output ----------------------------
  // The book gave the kernel outputs' scripts (the chart libraries'
  // loaders, each chart's initialisation) the type LATER (book.LaterType)
  // and MathJax skipStartupTypeset, so that the page's main thread, while
  // it loads, answers the worker. startLater, once the interpreter is
  // ready (with ?run=all: once every cell has run, so that the cells do
  // not wait for it), asks MathJax to typeset and runs those scripts in
  // document order, one per idle slice;
  // later() runs those still waiting (a kernel output put back) and
  // resolves when none is left. A library's loader runs at once when an
  // output needs it (loadLater), even if its cell's output was replaced.
  var LATER = "text/x-sodlive-later";
  var libName = /var name = "([\w-]+)", global = |if \(!\(window\["([\w-]+)"\]\)\) \{ \(function \(define, exports/;
  var laterLibs = {}; // library name -> its loader's deferred <script>
  document.querySelectorAll('script[type="' + LATER + '"]').forEach(function (s) {
    var m = libName.exec(s.text);
    if (m && !laterLibs[m[1] || m[2]]) { laterLibs[m[1] || m[2]] = s; }
  });
  function runScript(old) {
    var s = document.createElement("script");
    s.text = old.text;
    old.type = "text/x-sodlive-ran";
    if (old.isConnected) { old.replaceWith(s); } else { document.head.appendChild(s); }
  }
  function loadLater(name) {
    var old = laterLibs[name];
    if (old && old.type === LATER) { runScript(old); }
    var w = window.sodWidgets;
    return Promise.resolve(w && w.loading && w.loading[name]);
  }
  function idle() {
    return new Promise(function (resolve) {
      if (window.requestIdleCallback) { requestIdleCallback(resolve, { timeout: 500 }); } else { setTimeout(resolve, 0); }
    });
  }
  function laterPass() {
    return idle().then(function () {
      var s = document.querySelector('script[type="' + LATER + '"]');
      if (!s) { return; }
      var m = libName.exec(s.text), t = s.text;
      var need = m ? loadLater(m[1] || m[2]) :
        t.indexOf("echarts") < 0 ? Promise.resolve() :
        loadLater("echarts").then(function () { return t.indexOf("needGL = true") >= 0 ? loadLater("echarts-gl") : null; });
      return need.then(function () {
        if (s.type === LATER) { runScript(s); }
      }).then(laterPass);
    });
  }
  var laterChain = null;
  function later() {
    if (!laterChain) { return Promise.resolve(); }
    laterChain = laterChain.then(laterPass, laterPass);
    return laterChain;
  }
  var typeset = null; // MathJax's typesetting ended (or 30 s passed)
  function startLater() {
    if (laterChain) { return Promise.all([typeset, laterChain]); }
    mark("later");
    var hub = window.MathJax && window.MathJax.Hub;
    typeset = new Promise(function (resolve) {
      if (!(hub && hub.Queue)) { resolve(); return; }
      hub.Queue(["Typeset", hub], function () { mark("mathjax"); resolve(); });
      setTimeout(resolve, 30000);
    });
    laterChain = Promise.resolve();
    return Promise.all([typeset, later()]);
  }

  // ---- libraries for the charts ----------------------------------------
  var libs = {};
  function library(name, file, after) {
    if (window[name] || (window.sodWidgets && window.sodWidgets.loading && window.sodWidgets.loading[name])) {
      return Promise.resolve();
    }
    if (laterLibs[name]) { return loadLater(name); }
    if (!libs[name]) {
      libs[name] = (after || Promise.resolve()).then(function () {
        return new Promise(function (resolve, reject) {
          var s = document.createElement("script");
          s.src = base + file;
          s.onload = resolve;
          s.onerror = function () { reject(new Error("loading " + file)); };
          document.head.appendChild(s);
        });
      });
    }
    return libs[name];
  }

  // runScripts re-creates the <script> elements of inserted HTML so that
  // the browser runs them (the widgets' chart scripts).
  function runScripts(el) {
    el.querySelectorAll("script").forEach(function (old) {
      var s = document.createElement("script");
      s.text = old.text;
      old.replaceWith(s);
    });
  }

  // ---- one cell -----------------------------------------------------------
  function Cell(i, el, data) {
    this.i = i;
    this.el = el;
    this.src = data.src;
    this.known = data.known || "";
    this.liveOnly = !!data.liveOnly;
    var input = el.querySelector(".jp-InputArea-editor") || el.querySelector(".jp-InputArea");
    this.input = input;
    var out = el.querySelector(".jp-Cell-outputWrapper .jp-OutputArea");
    if (!out) {
      var wrap = document.createElement("div");
      wrap.className = "jp-Cell-outputWrapper";
      out = document.createElement("div");
      out.className = "jp-OutputArea jp-Cell-outputArea";
      wrap.appendChild(out);
      el.appendChild(wrap);
    }
    this.out = out;
    this.kernelOutput = Array.prototype.slice.call(out.childNodes); // the executed notebook's output (drawn charts kept)
    var tools = document.createElement("div");
    tools.className = "sodlive-tools";
    var self = this;
    var run = button("▶ Run", "run this cell (Shift+Enter in the editor)", function () { self.schedule(); });
    var edit = button("✎ Edit", "edit this cell", function () { self.edit(); });
    var label = document.createElement("span");
    label.className = "sodlive-label";
    label.textContent = "cell " + (i + 1);
    this.timer = document.createElement("span");
    this.timer.className = "sodlive-timer";
    tools.append(label, run, edit, this.timer);
    if (this.liveOnly) {
      var lo = document.createElement("span");
      lo.className = "sodlive-note";
      lo.textContent = "interactive: it runs until you press ■ Stop, and “Run all” skips it";
      tools.appendChild(lo);
    }
    if (this.known) {
      var k = document.createElement("span");
      k.className = "sodlive-known";
      k.textContent = "not runnable in the browser: " + this.known;
      tools.appendChild(k);
    }
    el.insertBefore(tools, el.firstChild);
  }

  Cell.prototype.edit = function () {
    if (this.area) { this.area.focus(); return; }
    var self = this, area = document.createElement("textarea");
    area.className = "sodlive-editor";
    area.spellcheck = false;
    area.value = this.src;
    area.rows = Math.max(2, this.src.split("\n").length + 1);
    area.addEventListener("input", function () {
      self.src = area.value;
      area.rows = Math.max(2, area.value.split("\n").length + 1);
    });
    area.addEventListener("keydown", function (e) {
      if (e.key === "Enter" && e.shiftKey) { e.preventDefault(); self.schedule(); }
      if (e.key === "Tab") {
        e.preventDefault();
        var s = area.selectionStart;
        area.setRangeText("\t", s, area.selectionEnd, "end");
        self.src = area.value;
      }
    });
    this.input.style.display = "none";
    this.input.parentNode.insertBefore(area, this.input.nextSibling);
    this.area = area;
    area.focus();
  };

  Cell.prototype.clear = function () {
    this.out.innerHTML = "";
    this.last = null;
    this.texts = "";
    this.outputs = 0;
  };

  Cell.prototype.text = function (stream, text) {
    this.texts += text;
    if (!this.last || this.last.stream !== stream) {
      var pre = document.createElement("pre");
      pre.className = "sodlive-" + stream;
      this.out.appendChild(pre);
      this.last = { stream: stream, pre: pre };
    }
    this.last.pre.textContent += text;
  };

  Cell.prototype.display = function (kind, id, content) {
    this.last = null;
    this.outputs++;
    var div = null;
    if (kind === "update" && id) {
      div = this.out.querySelector('[data-sodlive-id="' + CSS.escape(id) + '"]');
    }
    if (!div) {
      div = document.createElement("div");
      div.className = "sodlive-display";
      if (id) { div.setAttribute("data-sodlive-id", id); }
      this.out.appendChild(div);
    }
    if (kind === "script") {
      var s = document.createElement("script");
      s.text = content;
      div.appendChild(s);
      return;
    }
    if (kind === "controls") {
      div.innerHTML = content;
      div.querySelectorAll("[data-sodlive-control]").forEach(function (el) {
        var i = +el.getAttribute("data-sodlive-control");
        el.addEventListener(el.tagName === "SELECT" ? "change" : "input", function () {
          if (worker) { worker.postMessage({ type: "control", id: id, i: i, k: +el.value }); }
        });
      });
      return;
    }
    var needGL = content.indexOf("needGL = true") >= 0;
    var show = function () { div.innerHTML = content; runScripts(div); };
    if (content.indexOf('class="sodw"') >= 0) {
      var e = library("echarts", "echarts.min.js");
      (needGL ? library("echarts-gl", "echarts-gl.min.js", e) : e).then(show, show);
    } else {
      show();
    }
  };

  Cell.prototype.error = function (msg) {
    var pre = document.createElement("pre");
    pre.className = "sodlive-error";
    pre.textContent = msg;
    this.out.appendChild(pre);
    this.last = null;
  };

  Cell.prototype.note = function (msg) {
    var p = document.createElement("div");
    p.className = "sodlive-note";
    p.textContent = msg;
    this.out.appendChild(p);
  };

  // schedule queues a run of the cell after the runs already queued.
  Cell.prototype.schedule = function () {
    var self = this, e = epoch;
    queue = queue.then(function () { return e === epoch ? self.run() : { ok: false, error: "stopped" }; });
    return queue;
  };

  Cell.prototype.run = function () {
    var self = this;
    return (ready || startWorker()).then(function () {
      current = self;
      self.clear();
      self.el.classList.add("sodlive-running");
      var t0 = performance.now();
      var tick = setInterval(function () {
        self.timer.textContent = "running " + ((performance.now() - t0) / 1000).toFixed(1) + " s";
      }, 200);
      setStatus("running cell " + (self.i + 1));
      return call("run", self.i, self.src).then(function (r) {
        clearInterval(tick);
        current = null;
        self.el.classList.remove("sodlive-running");
        var secs = (performance.now() - t0) / 1000, kept = false;
        self.timer.textContent = (r.error ? "failed" : "done") + " in " + secs.toFixed(2) + " s";
        if (r.shell && r.shell.length) { self.note(SETUP_NOTE); }
        if (r.magic && r.magic.length) { self.note("GoNB commands not used in the browser: " + r.magic.join(" ")); }
        // An earlier cell the page cannot run, whose declarations this
        // cell may need.
        var dep = null;
        for (var j = 0; j < self.i && !dep; j++) { if (cells[j].knownFailed) { dep = cells[j]; } }
        if (self.known) { self.knownFailed = !!r.error && !r.stopped; }
        if (r.error && !r.stopped && (self.known || (dep && self.kernelOutput.length))) {
          // A run the page cannot do erases nothing: the kernel's output
          // stays, with a note saying why it is not the page's.
          self.out.replaceChildren.apply(self.out, self.kernelOutput);
          later(); // its charts, if not drawn yet
          self.note(self.known
            ? "This is the kernel's output: the page cannot run this cell (" + self.known + "). The page's attempt: " + r.error.split("\n")[0]
            : "This is the kernel's output: this cell comes after cell " + (dep.i + 1) + ", which the page cannot run (" + dep.known +
              "), and may need what it declares. The page's attempt: " + r.error.split("\n")[0]);
          kept = true;
        } else if (r.error) { self.error(r.error); }
        if (r.compiled) { committed[self.i] = self.src; }
        var st = { liveOnly: self.liveOnly, cell: self.i + 1, ms: secs * 1000, interp: r.ms, check: r.check, setup: r.setup, compile: r.compile, exec: r.exec, ok: !r.error, error: r.error || "", text: self.texts, outputs: self.outputs, known: self.known, kept: kept, after: kept && !self.known ? dep.i + 1 : 0 };
        stats.cells[self.i] = st;
        // After Stop or a crash the page is starting a new interpreter,
        // and startWorker says when it is ready.
        if (!r.stopped) { setStatus("ready"); }
        return st;
      });
    });
  };

  function button(text, title, f) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    b.title = title;
    b.addEventListener("click", f);
    return b;
  }

  // ---- the page -------------------------------------------------------------
  var cells = [];
  var runAllOnLoad = /(^|[?&])run=all(&|$)/.test(location.search);
  function runAll() {
    var failed = null;
    var e = epoch;
    cells.forEach(function (c) {
      if (c.liveOnly) { return; }
      queue = queue.then(function () { return e === epoch ? c.run() : { ok: false, error: "stopped", cell: c.i + 1 }; }).then(function (st) {
        if (!st.ok && !st.kept && failed === null) {
          failed = "failed: cell " + st.cell + " " + st.error.split("\n")[0];
        }
      });
    });
    return queue.then(function () { return failed || "done"; }, function (err) { return "failed: " + err; });
  }

  function stop() {
    epoch++; // the queued runs are dropped
    if (worker) { worker.terminate(); }
    worker = null;
    fail("stopped");
    current = null;
    queue = Promise.resolve();
    startWorker();
  }

  function reset() {
    committed = [];
    if (worker) { worker.postMessage({ type: "reset" }); }
    setStatus("reset: no declarations kept");
  }

  function init() {
    mark("init");
    var els = document.querySelectorAll(".jp-Cell.jp-CodeCell");
    bar = document.createElement("div");
    bar.className = "sodlive-bar";
    status = document.createElement("span");
    status.className = "sodlive-status";
    bar.append(
      button("▶▶ Run all", "run every cell from the top", function () { runAll(); }),
      button("■ Stop", "stop the running cell (the declarations are kept)", stop),
      button("↺ Reset", "forget every declaration, as a kernel restart", reset),
      status);
    document.body.appendChild(bar);
    var exported = cellsData.filter(function (d) { return !d.liveOnly; }).length;
    if (els.length !== exported) {
      setStatus("this page's cells do not match its sources (" + els.length + " vs " + exported + "): live mode is off");
      document.body.setAttribute("data-run-state", "failed: page " + els.length + " code cells, " + exported + " sources");
      return;
    }
    // The cells the export left out (live-only) go back where they were.
    var all = Array.prototype.slice.call(document.querySelectorAll(".jp-Cell"));
    var k = 0;
    cellsData.forEach(function (d, i) {
      var el;
      if (!d.liveOnly) {
        el = els[k++];
      } else {
        el = document.createElement("div");
        el.className = "jp-Cell jp-CodeCell jp-Notebook-cell sodlive-liveonly";
        el.innerHTML = '<div class="jp-Cell-inputWrapper"><div class="jp-InputArea jp-Cell-inputArea">' +
          '<div class="jp-InputArea-editor"><div class="highlight"><pre></pre></div></div></div></div>';
        el.querySelector("pre").textContent = d.src;
        var at = d.before >= 0 && d.before < all.length ? all[d.before] : null;
        if (at) { at.parentNode.insertBefore(el, at); } else if (all.length) { all[all.length - 1].parentNode.appendChild(el); }
      }
      cells.push(new Cell(i, el, d));
    });
    // For tests and the console: run cell i (0-based), with a new source if given.
    window.sodLiveBook = {
      count: cells.length,
      run: function (i, src) {
        var c = cells[i];
        if (src !== undefined) { c.src = src; if (c.area) { c.area.value = src; } }
        return c.schedule();
      },
      runAll: runAll, stop: stop, reset: reset,
      // What cell i's output area shows: its text, the charts drawn in it, its notes.
      output: function (i) {
        var o = cells[i].out;
        return {
          text: o.innerText,
          charts: o.querySelectorAll("[_echarts_instance_]").length,
          notes: Array.prototype.map.call(o.querySelectorAll(".sodlive-note"), function (n) { return n.textContent; }),
          errors: Array.prototype.map.call(o.querySelectorAll(".sodlive-error"), function (n) { return n.textContent; }),
        };
      },
      status: function () { return status.textContent; },
    };
    // The interpreter loads at once, so that the first run does not wait.
    startWorker();
    if (runAllOnLoad) {
      document.body.setAttribute("data-run-state", "running");
      ready.then(runAll, function (err) { return "failed: interpreter " + err; }).then(function (state) {
        // The kernel's charts the page kept are drawn, and the math
        // typeset, before it says so.
        return startLater().then(later).then(function () { return state; });
      }).then(function (state) {
        document.body.setAttribute("data-run-state", state);
      });
    }
  }

  // The book puts this script at the end of the page's body: every cell
  // is in the document already, so the page does not wait for
  // DOMContentLoaded (which comes after the export's styles, scripts and
  // MathJax's start have taken the main thread) to take the worker and run.
  init();
})();
