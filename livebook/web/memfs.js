// An in-memory file system for the Go program in the live book's worker,
// in the shape wasm_exec.js expects of globalThis.fs (Node's callback API):
// os.MkdirTemp, os.Create, os.ReadFile, os.Stat and the like work, under
// /tmp and anywhere else, and vanish with the worker (Reset or Stop), as
// nothing may leave the page. Standard output and error (fd 1 and 2) go to
// out(fd, bytes).
"use strict";
function sodLiveMemFS(out) {
  var S_IFDIR = 0o40000, S_IFREG = 0o100000;
  var C = { O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_TRUNC: 512, O_APPEND: 1024, O_DIRECTORY: 65536 };
  function dir() { return { kids: new Map(), mode: S_IFDIR | 0o755, mtime: Date.now() }; }
  var root = dir();
  root.kids.set("tmp", dir());
  var files = new Map(), nextFD = 3, ino = 1;

  function err(code, path) {
    var e = new Error(code + ": " + path);
    e.code = code;
    return e;
  }
  function parts(path) {
    if (path.charAt(0) !== "/") { path = "/" + path; }
    var out = [];
    path.split("/").forEach(function (p) {
      if (p === "" || p === ".") { return; }
      if (p === "..") { out.pop(); return; }
      out.push(p);
    });
    return out;
  }
  function lookup(path) {
    var n = root;
    var ps = parts(path);
    for (var i = 0; i < ps.length; i++) {
      if (!n.kids) { throw err("ENOTDIR", path); }
      n = n.kids.get(ps[i]);
      if (!n) { throw err("ENOENT", path); }
    }
    return n;
  }
  function parent(path) {
    var ps = parts(path);
    if (!ps.length) { throw err("EEXIST", path); }
    var name = ps.pop();
    var p = lookup("/" + ps.join("/"));
    if (!p.kids) { throw err("ENOTDIR", path); }
    return { dir: p, name: name };
  }
  function stat(n) {
    if (!n.ino) { n.ino = ino++; }
    var size = n.kids ? 4096 : n.size;
    return {
      dev: 1, ino: n.ino, mode: n.mode, nlink: 1, uid: 0, gid: 0, rdev: 0, size: size, blksize: 4096,
      blocks: Math.ceil(size / 512), atimeMs: n.mtime, mtimeMs: n.mtime, ctimeMs: n.mtime,
      isDirectory: function () { return !!n.kids; },
    };
  }
  function grow(n, size) {
    if (size <= n.data.length) { return; }
    var b = new Uint8Array(Math.max(size, 2 * n.data.length, 1024));
    b.set(n.data.subarray(0, n.size));
    n.data = b;
  }
  function wrap(f) {
    return function () {
      var args = Array.prototype.slice.call(arguments), cb = args.pop();
      var r;
      try { r = f.apply(null, args); } catch (e) { cb(e); return; }
      cb(null, r);
    };
  }

  return {
    constants: C,
    writeSync: function (fd, buf) {
      if (fd === 1 || fd === 2) { out(fd, buf); return buf.length; }
      var f = files.get(fd);
      if (!f) { throw err("EBADF", String(fd)); }
      var n = f.node, at = f.append ? n.size : f.pos;
      grow(n, at + buf.length);
      n.data.set(buf, at);
      n.size = Math.max(n.size, at + buf.length);
      n.mtime = Date.now();
      f.pos = at + buf.length;
      return buf.length;
    },
    write: function (fd, buf, offset, length, position, cb) {
      try {
        var b = buf.subarray(offset, offset + length);
        if (position !== null && position !== undefined) {
          var f = files.get(fd);
          if (f) { f.pos = position; }
        }
        cb(null, this.writeSync(fd, b));
      } catch (e) { cb(e); }
    },
    read: wrap(function (fd, buf, offset, length, position) {
      var f = files.get(fd);
      if (!f) { throw err("EBADF", String(fd)); }
      if (f.node.kids) { throw err("EISDIR", f.path); }
      var at = position !== null && position !== undefined ? position : f.pos;
      var n = Math.max(0, Math.min(length, f.node.size - at));
      buf.set(f.node.data.subarray(at, at + n), offset);
      if (position === null || position === undefined) { f.pos = at + n; }
      return n;
    }),
    open: wrap(function (path, flags, mode) {
      var n;
      try {
        n = lookup(path);
        if ((flags & C.O_CREAT) && (flags & C.O_EXCL)) { throw err("EEXIST", path); }
      } catch (e) {
        if (e.code !== "ENOENT" || !(flags & C.O_CREAT)) { throw e; }
        var p = parent(path);
        n = { data: new Uint8Array(0), size: 0, mode: S_IFREG | (mode & 0o777), mtime: Date.now() };
        p.dir.kids.set(p.name, n);
      }
      if (n.kids && (flags & (C.O_WRONLY | C.O_RDWR))) { throw err("EISDIR", path); }
      if ((flags & C.O_TRUNC) && !n.kids) { n.size = 0; }
      var fd = nextFD++;
      files.set(fd, { node: n, pos: 0, path: path, append: !!(flags & C.O_APPEND) });
      return fd;
    }),
    close: wrap(function (fd) { files.delete(fd); }),
    fstat: wrap(function (fd) {
      var f = files.get(fd);
      if (!f) { throw err("EBADF", String(fd)); }
      return stat(f.node);
    }),
    stat: wrap(function (path) { return stat(lookup(path)); }),
    lstat: wrap(function (path) { return stat(lookup(path)); }),
    fsync: wrap(function () {}),
    ftruncate: wrap(function (fd, length) {
      var f = files.get(fd);
      if (!f) { throw err("EBADF", String(fd)); }
      grow(f.node, length);
      f.node.data.fill(0, f.node.size, length);
      f.node.size = length;
    }),
    truncate: wrap(function (path, length) {
      var n = lookup(path);
      grow(n, length);
      n.size = length;
    }),
    mkdir: wrap(function (path, perm) {
      var p = parent(path);
      if (p.dir.kids.has(p.name)) { throw err("EEXIST", path); }
      var d = dir();
      d.mode = S_IFDIR | (perm & 0o777);
      p.dir.kids.set(p.name, d);
    }),
    readdir: wrap(function (path) {
      var n = lookup(path);
      if (!n.kids) { throw err("ENOTDIR", path); }
      return Array.from(n.kids.keys());
    }),
    unlink: wrap(function (path) {
      var p = parent(path), n = p.dir.kids.get(p.name);
      if (!n) { throw err("ENOENT", path); }
      if (n.kids) { throw err("EISDIR", path); }
      p.dir.kids.delete(p.name);
    }),
    rmdir: wrap(function (path) {
      var p = parent(path), n = p.dir.kids.get(p.name);
      if (!n) { throw err("ENOENT", path); }
      if (!n.kids) { throw err("ENOTDIR", path); }
      if (n.kids.size) { throw err("ENOTEMPTY", path); }
      p.dir.kids.delete(p.name);
    }),
    rename: wrap(function (from, to) {
      var a = parent(from), n = a.dir.kids.get(a.name);
      if (!n) { throw err("ENOENT", from); }
      var b = parent(to);
      a.dir.kids.delete(a.name);
      b.dir.kids.set(b.name, n);
    }),
    chmod: wrap(function (path, mode) { var n = lookup(path); n.mode = (n.mode & ~0o777) | (mode & 0o777); }),
    fchmod: wrap(function (fd, mode) { var f = files.get(fd); if (f) { f.node.mode = (f.node.mode & ~0o777) | (mode & 0o777); } }),
    chown: wrap(function () {}), fchown: wrap(function () {}), lchown: wrap(function () {}),
    utimes: wrap(function (path, atime, mtime) { lookup(path).mtime = mtime * 1000; }),
    link: wrap(function (path) { throw err("ENOSYS", path); }),
    symlink: wrap(function (path) { throw err("ENOSYS", path); }),
    readlink: wrap(function (path) { throw err("EINVAL", path); }),
  };
}
