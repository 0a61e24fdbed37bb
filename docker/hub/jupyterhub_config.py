# docker/hub/jupyterhub_config.py — JupyterHub 5 for a class on one server (The Littlest
# JupyterHub's model): students are system users of the hub's machine (or container), each
# student's server is `jupyterhub-singleuser` started as that student by JupyterHub's
# LocalProcessSpawner, with the workbench's notebooks copied into the student's home on first
# start. docker/README.md, "Classroom hub", has the commands.
#
# Settings come from the environment (the defaults are a class's production settings):
#
#   SOD_HUB_URL            where the hub listens (http://127.0.0.1:8000: loopback only; behind
#                          HTTPS in production, with SOD_HUB_SSL_CERT/KEY or a reverse proxy)
#   SOD_HUB_SSL_CERT/KEY   certificate and key files: the hub itself serves HTTPS
#   SOD_HUB_AUTH           pam (default: students log in with their system password) or test
#   SOD_HUB_TEST=1         allows SOD_HUB_AUTH=test (JupyterHub's DummyAuthenticator with the
#                          password SOD_HUB_TEST_PASSWORD): for tests only, refused otherwise
#   SOD_HUB_ADMINS         space-separated admin users (they can also log in without the group)
#   SOD_HUB_GROUP          the system group whose members may log in (students)
#   SOD_HUB_NOTEBOOKS      the notebooks copied into a student's home on first start
#   SOD_HUB_MODULE         the workbench module (go.mod, sod/, widgets/) the notebooks build against
#   SOD_HUB_CULL_KERNEL    seconds before an idle kernel is shut down (jupyter_server; 1200)
#   SOD_HUB_CULL_SERVER    seconds without activity before a student's server stops (3600)
#   SOD_HUB_MEM_LIMIT      memory per student (2G): every process of the student's server writes to
#                          at most this much memory, and all of them together this much where the
#                          hub can make cgroups (see "limits per student" below)
#   SOD_HUB_CPU_LIMIT      cores per student (1), where the hub can make cgroups
#   SOD_HUB_NPROC          processes and threads per student (512)
#   SOD_HUB_STATE          folder of the hub's database and cookie secret (/srv/jupyterhub)
#   SOD_HUB_GOCACHE_SHARED the shared read-only Go build cache (/opt/sod-gocache; none: off)
#   SOD_HUB_PORTS          hub and proxy-API ports on 127.0.0.1 (8081,8001)
import os
import pwd
import shutil
import sys

c = get_config()  # noqa: F821 (provided by JupyterHub)
env = os.environ.get


def refuse(msg):
    sys.exit("jupyterhub_config.py: " + msg)


# ---- where the hub listens: loopback unless told otherwise; HTTPS when given a certificate.
url = env("SOD_HUB_URL", "http://127.0.0.1:8000")
if not url.startswith(("http://", "https://")):
    refuse(f"SOD_HUB_URL={url!r}: want http://HOST:PORT or https://HOST:PORT")
c.JupyterHub.bind_url = url
cert, key = env("SOD_HUB_SSL_CERT"), env("SOD_HUB_SSL_KEY")
if bool(cert) != bool(key):
    refuse("set both SOD_HUB_SSL_CERT and SOD_HUB_SSL_KEY, or neither")
if cert:
    c.JupyterHub.ssl_cert, c.JupyterHub.ssl_key = cert, key
try:
    hub_port, api_port = (int(p) for p in env("SOD_HUB_PORTS", "8081,8001").split(","))
except ValueError:
    refuse(f"SOD_HUB_PORTS={env('SOD_HUB_PORTS')!r}: want two ports, HUB,PROXY_API")
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = hub_port
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{api_port}"

state = env("SOD_HUB_STATE", "/srv/jupyterhub")
c.JupyterHub.db_url = f"sqlite:///{state}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = f"{state}/jupyterhub_cookie_secret"
c.ConfigurableHTTPProxy.pid_file = f"{state}/jupyterhub-proxy.pid"

# ---- who may log in.
group = env("SOD_HUB_GROUP", "students")
admins = set(env("SOD_HUB_ADMINS", "").split())
recorded = []  # the users sod-hub-user added: name uid hash admin
try:
    with open(os.path.join(state, "users")) as f:
        recorded = [ln.split() for ln in f if len(ln.split()) == 4]
except FileNotFoundError:
    pass
admins |= {r[0] for r in recorded if r[3] == "1"}
auth = env("SOD_HUB_AUTH", "pam")
if auth == "pam":
    # Production: PAM against the system's users (docker/hub/sod-hub-user adds students with a
    # password); only members of the students group, and the admins, may log in.
    c.JupyterHub.authenticator_class = "pam"
    c.LocalAuthenticator.allowed_groups = {group}
    # The recorded students are also the hub's users from the start, so that they can get a
    # token through the REST API before their first login in a browser.
    c.Authenticator.allowed_users = {r[0] for r in recorded}
elif auth == "test":
    if env("SOD_HUB_TEST") != "1":
        refuse("SOD_HUB_AUTH=test is the test-only authenticator (one shared password for every "
               "user): refused unless SOD_HUB_TEST=1. Use SOD_HUB_AUTH=pam in production.")
    if not env("SOD_HUB_TEST_PASSWORD"):
        refuse("SOD_HUB_AUTH=test needs SOD_HUB_TEST_PASSWORD")
    c.JupyterHub.authenticator_class = "dummy"
    c.DummyAuthenticator.password = env("SOD_HUB_TEST_PASSWORD")
    c.Authenticator.allow_all = True  # every name that is a system user (the spawner checks)
else:
    refuse(f"SOD_HUB_AUTH={auth!r}: want pam (or test, with SOD_HUB_TEST=1)")
c.Authenticator.admin_users = admins

# ---- each student's server: jupyterhub-singleuser as the student, in their home.
c.JupyterHub.spawner_class = "localprocess"
c.Spawner.cmd = ["jupyterhub-singleuser"]
c.Spawner.notebook_dir = "~"
c.Spawner.default_url = "/lab" if shutil.which("jupyter-lab") else "/tree"
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 90

module = env("SOD_HUB_MODULE", "/opt/sod-workbench")
notebooks = env("SOD_HUB_NOTEBOOKS", os.path.join(module, "notebooks"))
c.Spawner.environment = {
    # Go: the image's toolchain and module cache (read-only, shared), the student's own build
    # cache, no downloads; -p=1 keeps one student's compile from taking every core; -ldflags=-w
    # (no DWARF) makes the link of every cell cheaper, as the image's kernel spec does
    # (scripts/install.sh, KERNEL_GOFLAGS).
    "PATH": "/usr/local/go/bin:/usr/local/bin:/usr/bin:/bin",
    "GOMODCACHE": env("SOD_HUB_GOMODCACHE", os.path.join(env("GOPATH", "/home/jovyan/.go"), "pkg", "mod")),
    "GOFLAGS": env("SOD_HUB_GOFLAGS", "-mod=mod -p=1 -trimpath -ldflags=-w"),
    "GOPROXY": "off",
    # Nothing can be downloaded (GOPROXY=off) and the module cache was checked against go.sum
    # when the image was built, so a notebook's temporary module need not ask the checksum
    # database (which would need the network) about the modules it takes from the cache.
    "GOSUMDB": "off",
    "GOTOOLCHAIN": "local",
    "GOMEMLIMIT": env("SOD_HUB_GOMEMLIMIT", "1GiB"),
}
# The shared read-only Go build cache that the image filled (docker/hub/gocache): every
# student reads it, and writes only to a layer in their own home.
shared_cache = env("SOD_HUB_GOCACHE_SHARED", "/opt/sod-gocache")
if shared_cache != "none" and os.path.isdir(shared_cache) and shutil.which("sod-gocache"):
    c.Spawner.environment["GOCACHEPROG"] = lambda spawner: (
        f"{shutil.which('sod-gocache')} -ro {shared_cache} -rw "
        f"{pwd.getpwnam(spawner.user.name).pw_dir}/.cache/sod-go-build")

# ---- limits per student. The sizing table in docker/README.md plans 0.5 GiB and a third of a core
# per student on average (measured: ~0.3 GiB per student running a notebook); these are the
# ceilings one student cannot pass, so that a memory hog, a fork bomb or a busy loop in one
# student's cell fails in that student's server and the others' kernels keep running.
# LocalProcessSpawner only passes mem_limit and cpu_limit on as MEM_LIMIT and CPU_LIMIT, so the
# config enforces them itself:
#   - always, with setrlimit (util-linux prlimit starts jupyterhub-singleuser): each process
#     (server, kernel, go build, cell program) writes to at most SOD_HUB_MEM_LIMIT of memory, and
#     the student's user at most SOD_HUB_NPROC processes and threads (students are ordinary
#     users, so RLIMIT_NPROC holds: it counts every process of that user);
#   - where the hub (root) can make cgroups (v1, or v2 with a writable cgroup file system: a
#     privileged hub container, or the host), a cgroup per student that bounds the memory of all
#     the student's processes together (SOD_HUB_MEM_LIMIT), their CPU (SOD_HUB_CPU_LIMIT cores)
#     and their number (SOD_HUB_NPROC). The hub's log says which holds ("limits per student").


def parse_size(s):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
    s = s.strip().upper().removesuffix("IB").removesuffix("B")
    try:
        return int(float(s[:-1]) * units[s[-1]]) if s and s[-1] in units else int(s)
    except ValueError:
        refuse(f"SOD_HUB_MEM_LIMIT={s!r}: want a size like 2G or 1536M")


mem_limit = parse_size(env("SOD_HUB_MEM_LIMIT", "2G"))
try:
    cpu_limit = float(env("SOD_HUB_CPU_LIMIT", "1"))
    nproc = int(env("SOD_HUB_NPROC", "512"))
except ValueError:
    refuse("SOD_HUB_CPU_LIMIT and SOD_HUB_NPROC: want numbers (cores, processes)")
if not (256 << 20 <= mem_limit <= 1 << 40) or not (0.1 <= cpu_limit <= 256) or not (64 <= nproc <= 65536):
    refuse(f"limits per student: memory {mem_limit} B (256M to 1T), cpu {cpu_limit} (0.1 to 256), "
           f"processes {nproc} (64 to 65536)")
c.Spawner.mem_limit = mem_limit
c.Spawner.cpu_limit = cpu_limit
prlimit = shutil.which("prlimit")
if not prlimit:
    refuse("prlimit (util-linux) not found: it sets the limits of each student's server")
# RLIMIT_DATA bounds the memory a process writes to; Go reserves address space it does not use
# (a gonb kernel: ~2 GiB of it), so the address space gets four times as much, as a backstop.
c.Spawner.cmd = [prlimit, f"--data={mem_limit}", f"--as={4 * mem_limit}", f"--nproc={nproc}", "--core=0", "--",
                 "jupyterhub-singleuser"]

CG = "/sys/fs/cgroup"


def write(path, value):
    with open(path, "w") as f:
        f.write(str(value))


def student_cgroups(name):
    """Makes the cgroup(s) of student NAME with the limits; returns their cgroup.procs files,
    or raises OSError where cgroups cannot be made here."""
    period = 100000
    if os.path.exists(f"{CG}/cgroup.controllers"):  # v2
        if not {"memory", "cpu", "pids"} <= set(open(f"{CG}/cgroup.controllers").read().split()):
            raise OSError("cgroup v2 without the memory, cpu and pids controllers")
        if "memory" not in open(f"{CG}/cgroup.subtree_control").read().split():
            # Controllers can be given to children only by a cgroup without processes of its
            # own: the hub's processes move to a leaf first.
            os.makedirs(f"{CG}/sod-hub", exist_ok=True)
            for pid in open(f"{CG}/cgroup.procs").read().split():
                try:
                    write(f"{CG}/sod-hub/cgroup.procs", pid)
                except OSError:
                    pass  # a kernel thread, or a process that ended
            write(f"{CG}/cgroup.subtree_control", "+memory +cpu +pids")
        d = f"{CG}/sod-student-{name}"
        os.makedirs(d, exist_ok=True)
        write(f"{d}/memory.max", mem_limit)
        write(f"{d}/cpu.max", f"{int(cpu_limit * period)} {period}")
        write(f"{d}/pids.max", nproc)
        return [f"{d}/cgroup.procs"]
    procs = []  # v1: one hierarchy per controller
    for ctl, settings in [("memory", {"memory.limit_in_bytes": mem_limit}),
                          ("cpu", {"cpu.cfs_period_us": period, "cpu.cfs_quota_us": int(cpu_limit * period)}),
                          ("pids", {"pids.max": nproc})]:
        d = f"{CG}/{ctl}/sod-student-{name}"
        os.makedirs(d, exist_ok=True)
        for k, v in settings.items():
            write(f"{d}/{k}", v)
        procs.append(f"{d}/cgroup.procs")
    return procs


PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS = 24, 38  # <linux/prctl.h>


def without_privileges(become_student):
    """The function a student's server runs before its program (LocalProcessSpawner's preexec_fn):
    as root, it empties the capability bounding set and sets no_new_privs, then becomes the
    student (become_student). A student's server and everything it starts then has no
    capability and can gain none: not from a setuid program (su, mount), not from file
    capabilities. docker/test-hub.sh checks it from a student's kernel (/proc/self/status)."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)

    def preexec():
        for cap in range(64):  # EINVAL past the last capability this kernel knows
            libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)
        if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
        become_student()
    return preexec


try:
    from jupyterhub.spawner import LocalProcessSpawner
except ImportError:  # the config read outside JupyterHub (docker/hub/hub_test.go)
    LocalProcessSpawner = None

if LocalProcessSpawner:
    class LimitedSpawner(LocalProcessSpawner):
        """LocalProcessSpawner that starts each student's server without any privilege and puts it
        in the student's cgroups."""

        def make_preexec_fn(self, name):
            return without_privileges(super().make_preexec_fn(name))

        async def start(self):
            try:
                procs = student_cgroups(self.user.name)
            except OSError as e:
                procs = []
                self.log.warning("limits per student: no cgroup (%s): prlimit only (%d B per process, "
                                 "%d processes)", e, mem_limit, nproc)
            ip_port = await super().start()
            for p in procs:  # the server has just started: whatever it starts later is inside
                write(p, self.pid)
            if procs:
                self.log.info("limits per student: %s in cgroups (memory %d B, %.1f cores, %d processes)",
                              self.user.name, mem_limit, cpu_limit, nproc)
            return ip_port

    c.JupyterHub.spawner_class = LimitedSpawner

# Culling, with jupyter_server's own settings: idle kernels are shut down after
# SOD_HUB_CULL_KERNEL seconds (checked every 60 s, or every 10 s for short tests), and a server
# with no activity (no kernel, no request) for SOD_HUB_CULL_SERVER seconds stops itself;
# JupyterHub polls its spawners (Spawner.poll_interval) and frees the slot.
cull_kernel = int(env("SOD_HUB_CULL_KERNEL", "1200"))
cull_server = int(env("SOD_HUB_CULL_SERVER", "3600"))
c.Spawner.args = [
    f"--MappingKernelManager.cull_idle_timeout={cull_kernel}",
    f"--MappingKernelManager.cull_interval={10 if cull_kernel < 120 else 60}",
    "--MappingKernelManager.cull_connected=True",
    f"--ServerApp.shutdown_no_activity_timeout={cull_server}",
    "--LabApp.news_url=None",
    "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
]
c.Spawner.poll_interval = 10 if cull_server < 120 else 30
c.JupyterHub.last_activity_interval = 10 if cull_server < 120 else 300


def first_start(spawner):
    """Copies the notebooks into the student's home the first time their server starts (later
    starts keep the student's edits), and links the workbench module there, read-only, so that
    a notebook's setup cell finds go.mod by walking up from ~/notebooks."""
    pw = pwd.getpwnam(spawner.user.name)
    home = pw.pw_dir
    if not os.path.isdir(home):
        raise RuntimeError(f"{spawner.user.name} has no home folder {home}")
    dst = os.path.join(home, "notebooks")
    if not os.path.exists(dst):
        shutil.copytree(notebooks, dst, ignore=shutil.ignore_patterns("*_test.go", "testdata", "book", ".*"))
        for root, dirs, files in os.walk(dst):
            for n in [root] + [os.path.join(root, f) for f in files]:
                os.chown(n, pw.pw_uid, pw.pw_gid)
                os.chmod(n, 0o755 if os.path.isdir(n) else 0o644)
    for name in ("go.mod", "go.sum", "sod", "widgets"):
        link = os.path.join(home, name)
        if not os.path.lexists(link) and os.path.exists(os.path.join(module, name)):
            os.symlink(os.path.join(module, name), link)
            os.lchown(link, pw.pw_uid, pw.pw_gid)


c.Spawner.pre_spawn_hook = first_start
