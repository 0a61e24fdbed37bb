package dockerlint

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/moby/buildkit/frontend/dockerfile/instructions"
)

// Project policy for the image (README "Docker"), checked on a Dockerfile that lintDockerfile has
// parsed (so ARG and ENV references in USER, WORKDIR, COPY are expanded). Each rule returns
// findings named Policy*.

var (
	// tokenOff matches the ways of switching Jupyter's token authentication off (or fixing the token)
	// on a command line: the token comes from JUPYTER_TOKEN at run time or is random.
	tokenOff = regexp.MustCompile(`(?i)token\s*=\s*(["'\s,\]]|$)|--no-?token|password\s*=|disable_check_xsrf`)
	// download matches a RUN that fetches something outside Debian, the Go module proxy and npm.
	download = regexp.MustCompile(`(^|[\s;&|(])(curl|wget)\s`)
)

// lean matches, in an apt-get install line of the runtime stage, the packages that only the build
// needs: node (Debian's jupyterlab and jupyterhub depend on ~0.9 GB of node-* packages, only
// needed to build lab extensions), npm and Debian's Go (the image has one Go: Go 1.26 from the
// build stage).
var lean = regexp.MustCompile(`(^|\s)(nodejs|npm|node-[a-z0-9.-]+|yarnpkg|webpack|golang[a-z0-9.-]*|jupyterlab|jupyterhub)(\s|$)`)

// checkPolicy returns the project-policy findings of a parsed Dockerfile. repo is the build
// context (the repository root), used to check that COPY sources exist.
func checkPolicy(p *parsed, repo fs.FS) []finding {
	var out []finding
	add := func(rule string, line int, msg string) { out = append(out, finding{Rule: rule, Msg: msg, Line: line}) }

	// Stages: a build stage (install.sh, node, Debian's Go) and a runtime stage that starts from
	// the base image again, so that nothing of the build reaches it but what it copies.
	final := p.stages[len(p.stages)-1]
	names := map[string]int{}
	for i, st := range p.stages {
		if st.Name != "" {
			names[strings.ToLower(st.Name)] = i
		}
	}
	if len(p.stages) < 2 {
		add("PolicyStages", 0, "the image is built in two stages: a build stage (scripts/install.sh, node, Debian's Go) and a runtime stage without them")
	} else if _, ok := names[strings.ToLower(final.BaseName)]; ok {
		add("PolicyStages", lineOf(final.Location), "the runtime stage must start from the base image (FROM ${BASE_IMAGE}), not from "+final.BaseName)
	}

	// The base: Debian trixie, named through a global ARG with that default.
	for _, st := range p.stages {
		if _, ok := names[strings.ToLower(st.BaseName)]; ok {
			continue
		}
		base := st.BaseName
		for _, ac := range p.metaArgs {
			for _, kv := range ac.Args {
				if kv.Value != nil {
					base = strings.ReplaceAll(strings.ReplaceAll(base, "${"+kv.Key+"}", *kv.Value), "$"+kv.Key, *kv.Value)
				}
			}
		}
		if !regexp.MustCompile(`^(docker\.io/library/)?debian:trixie(-slim)?$`).MatchString(base) {
			add("PolicyBase", lineOf(st.Location), "the base image must be Debian trixie (debian:trixie-slim), got "+base)
		}
	}

	var (
		installsHub, hubStage = false, -1
		installSystemRun      bool
		installUserRun        bool
		systemAsRoot          = true
		userAsUser            = true
		copiesFromBuild       = map[int]bool{}
	)
	isRoot := func(u string) bool {
		name, _, _ := strings.Cut(u, ":")
		return name == "" || name == "root" || name == "0"
	}
	for si, st := range p.stages {
		user := "root"
		isFinal := si == len(p.stages)-1
		for _, c := range st.Commands {
			line := lineOf(c.Location())
			text := ""
			if s, ok := c.(fmt.Stringer); ok {
				text = s.String()
			}
			if tokenOff.MatchString(text) {
				add("PolicyToken", line, "token authentication must stay on: "+text)
			}
			switch c := c.(type) {
			case *instructions.EnvCommand:
				for _, kv := range c.Env {
					if kv.Key == "JUPYTER_TOKEN" || kv.Key == "SOD_TOKEN" {
						add("PolicyToken", line, "the token must not be baked into the image ("+kv.Key+")")
					}
				}
			case *instructions.UserCommand:
				user = c.User
			case *instructions.RunCommand:
				script := strings.Join(c.CmdLine, " ")
				if download.MatchString(script) {
					add("PolicyDownloads", line, "build steps use only Debian's archive, the Go module proxy and npm (no curl/wget)")
				}
				if strings.Contains(script, "apt-get install") && regexp.MustCompile(`(^|\s)jupyterhub(\s|$)`).MatchString(script) {
					installsHub, hubStage = true, si
				}
				if strings.Contains(script, "scripts/install.sh") && isFinal {
					add("PolicyLean", line, "the runtime stage does not run scripts/install.sh (it installs nodejs, npm and Debian's Go): it copies from the build stage")
				}
				if strings.Contains(script, "scripts/install.sh --system") {
					installSystemRun = true
					systemAsRoot = systemAsRoot && isRoot(user)
				}
				if strings.Contains(script, "scripts/install.sh --user") {
					installUserRun = true
					userAsUser = userAsUser && !isRoot(user)
				}
				if isFinal {
					for _, part := range regexp.MustCompile(`apt-get install[^&;|]*`).FindAllString(script, -1) {
						if m := lean.FindStringSubmatch(part); m != nil {
							add("PolicyLean", line, "the runtime stage installs "+m[2]+", which only the build needs (or which brings node-* packages)")
						}
					}
				}
			case *instructions.AddCommand:
				for _, src := range c.SourcePaths {
					if strings.Contains(src, "://") {
						add("PolicyDownloads", line, "ADD of a URL: "+src)
					}
				}
			case *instructions.CopyCommand:
				if c.From != "" {
					if i, ok := names[strings.ToLower(c.From)]; ok {
						copiesFromBuild[i] = true
					}
					break
				}
				for _, src := range c.SourcePaths {
					if src == "." {
						continue
					}
					if _, err := fs.Stat(repo, path.Clean(src)); err != nil {
						add("PolicyCopySource", line, "COPY source "+src+" is not in the repository")
					}
				}
			}
		}
	}
	if !installSystemRun || !systemAsRoot {
		add("PolicyInstall", 0, "scripts/install.sh --system must run as root (the same steps as a laptop install)")
	}
	if !installUserRun || !userAsUser {
		add("PolicyInstall", 0, "scripts/install.sh --user must run as the notebook user (the same steps as a laptop install)")
	}
	if !installsHub || (hubStage != len(p.stages)-1 && !copiesFromBuild[hubStage]) {
		add("PolicyJupyterHub", 0, "the image carries jupyterhub-singleuser (Debian's jupyterhub package, installed in the build stage and copied)")
	}
	out = append(out, checkRuntime(final)...)
	return out
}

// checkRuntime checks the runtime (final) stage: the JupyterHub / Binder single-user conventions,
// a non-root user, port 8888, a health check, an overridable command.
func checkRuntime(st instructions.Stage) []finding {
	var out []finding
	add := func(rule string, line int, msg string) { out = append(out, finding{Rule: rule, Msg: msg, Line: line}) }
	var (
		args        = map[string]string{}
		homes       []string
		user        = "root"
		userLine    int
		exposes8888 bool
		health      *instructions.HealthCheckCommand
		cmd         *instructions.CmdCommand
		entrypoint  *instructions.EntrypointCommand
	)
	isRoot := func(u string) bool {
		name, _, _ := strings.Cut(u, ":")
		return name == "" || name == "root" || name == "0"
	}
	for _, c := range st.Commands {
		line := lineOf(c.Location())
		switch c := c.(type) {
		case *instructions.ArgCommand:
			for _, kv := range c.Args {
				v := ""
				if kv.Value != nil {
					v = *kv.Value
				}
				args[kv.Key] = v
			}
		case *instructions.EnvCommand:
			for _, kv := range c.Env {
				if kv.Key == "HOME" {
					homes = append(homes, kv.Value)
				}
			}
		case *instructions.UserCommand:
			user, userLine = c.User, line
		case *instructions.ExposeCommand:
			if slices.ContainsFunc(c.Ports, func(p string) bool { return p == "8888" || p == "8888/tcp" }) {
				exposes8888 = true
			}
		case *instructions.HealthCheckCommand:
			health = c
		case *instructions.CmdCommand:
			cmd = c
		case *instructions.EntrypointCommand:
			entrypoint = c
		}
	}
	nbUser, okUser := args["NB_USER"]
	nbUID, okUID := args["NB_UID"]
	if !okUser || !okUID || nbUser == "" || nbUID == "" {
		add("PolicyNBUser", 0, "ARG NB_USER and ARG NB_UID (with defaults) name the notebook user, as JupyterHub and Binder expect")
	}
	if len(homes) == 0 || homes[len(homes)-1] != "/home/"+nbUser {
		add("PolicyNBUser", 0, "ENV HOME=/home/${NB_USER}: the notebooks live under the user's home")
	}
	if isRoot(user) {
		add("PolicyNonRoot", userLine, "the image must end as the non-root notebook user (USER ${NB_UID})")
	} else if user != nbUID && user != nbUser {
		add("PolicyNonRoot", userLine, "the final USER must be NB_UID or NB_USER, got "+user)
	}
	if !exposes8888 {
		add("PolicyPort", 0, "EXPOSE 8888")
	}
	if health == nil || len(health.Health.Test) == 0 || health.Health.Test[0] == "NONE" {
		add("PolicyHealthcheck", 0, "a HEALTHCHECK is required")
	}
	if cmd == nil || cmd.PrependShell {
		add("PolicyCommand", 0, "a default CMD in exec form, which spawners and Binder can replace")
	}
	if entrypoint != nil {
		ep := entrypoint.CmdLine
		if entrypoint.PrependShell || len(ep) == 0 || ep[len(ep)-1] != "--" {
			add("PolicyCommand", lineOf(entrypoint.Location()), "an ENTRYPOINT must be an init that runs the command it is given (ending in --), so the CMD stays overridable")
		}
	}
	return out
}
