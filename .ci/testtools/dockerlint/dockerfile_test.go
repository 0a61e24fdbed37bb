package dockerlint

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"
)

// repoRoot is the workbench repository, three folders up (.ci/testtools/dockerlint).
const repoRoot = "../../.."

const dockerfilePath = repoRoot + "/Dockerfile"

func readDockerfile(t *testing.T) []byte {
	t.Helper()
	src, err := os.ReadFile(dockerfilePath)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestDockerfileLint: the repository's Dockerfile is clean under BuildKit's check rules.
func TestDockerfileLint(t *testing.T) {
	found, _, err := lintDockerfile(readDockerfile(t))
	if err != nil {
		t.Fatalf("Dockerfile does not parse: %v", err)
	}
	for _, f := range found {
		t.Errorf("Dockerfile %s", f)
	}
}

// TestDockerfilePolicy: the repository's Dockerfile follows the project's image policy.
func TestDockerfilePolicy(t *testing.T) {
	_, p, err := lintDockerfile(readDockerfile(t))
	if err != nil {
		t.Fatalf("Dockerfile does not parse: %v", err)
	}
	for _, f := range checkPolicy(p, os.DirFS(repoRoot)) {
		t.Errorf("Dockerfile %s", f)
	}
}

func rules(fs []finding) []string {
	var r []string
	for _, f := range fs {
		if !slices.Contains(r, f.Rule) {
			r = append(r, f.Rule)
		}
	}
	slices.Sort(r)
	return r
}

// TestLintRules: each rule fires on a Dockerfile that breaks it, and a clean one gives nothing.
func TestLintRules(t *testing.T) {
	const from = "FROM docker.io/library/debian:bookworm-slim\n"
	tests := []struct {
		name string
		src  string
		want []string // rule names, sorted
	}{
		{"clean", "ARG BASE=debian:bookworm-slim\nFROM ${BASE}\nARG X=1\nENV A=${X}\nENV B=$A\nWORKDIR /w\nCMD [\"x\"]\n", nil},
		{"from as casing", "FROM debian:bookworm-slim as Base\n", []string{"FromAsCasing", "StageNameCasing"}},
		{"maintainer", from + "MAINTAINER me\n", []string{"MaintainerDeprecated"}},
		{"shell form CMD", from + "CMD sod-notebook\n", []string{"JSONArgsRecommended"}},
		{"shell form ENTRYPOINT", from + "ENTRYPOINT tini --\n", []string{"JSONArgsRecommended"}},
		{"SHELL makes shell form fine", from + "SHELL [\"/bin/bash\", \"-c\"]\nCMD sod-notebook\n", nil},
		{"legacy ENV", from + "ENV A B\n", []string{"LegacyKeyValueFormat"}},
		{"legacy LABEL", from + "LABEL a b\n", []string{"LegacyKeyValueFormat"}},
		{"relative WORKDIR", from + "WORKDIR home\n", []string{"WorkdirRelativePath"}},
		{"relative after absolute", from + "WORKDIR /home\nWORKDIR x\n", nil},
		{"undefined var", from + "COPY $NOPE /x\n", []string{"UndefinedVar"}},
		{"same-ENV reference", from + "ENV A=1 B=$A\n", []string{"UndefinedVar"}},
		{"ARG defines", from + "ARG SRC\nCOPY $SRC /x\n", nil},
		{"meta ARG not redeclared", "ARG SRC=a\n" + from + "COPY $SRC /x\n", []string{"UndefinedVar"}},
		{"undefined FROM arg", "FROM ${BASE}\n", []string{"UndefinedArgInFrom"}},
		{"invalid FROM default", "ARG BASE=Not_An:Image:ref\nFROM ${BASE}\n", []string{"InvalidDefaultArgInFrom"}},
		{"secret in ARG", from + "ARG GITHUB_TOKEN\n", []string{"SecretsUsedInArgOrEnv"}},
		{"secret in ENV", from + "ENV API_KEY=x\n", []string{"SecretsUsedInArgOrEnv"}},
		{"public key allowed", from + "ENV PUBLIC_KEY=x\n", nil},
		{"two CMD", from + "CMD [\"a\"]\nCMD [\"b\"]\n", []string{"MultipleInstructionsDisallowed"}},
		{"two HEALTHCHECK", from + "HEALTHCHECK CMD [\"a\"]\nHEALTHCHECK CMD [\"b\"]\n", []string{"MultipleInstructionsDisallowed"}},
		{"mixed casing", from + "run echo\nRUN echo\nRUN echo\n", []string{"ConsistentInstructionCasing"}},
		{"reserved stage", "FROM debian:bookworm-slim AS scratch\n", []string{"ReservedStageName"}},
		{"duplicate stage", "FROM debian:bookworm-slim AS a\nFROM debian:bookworm-slim AS a\n", []string{"DuplicateStageName"}},
		{"empty continuation", from + "RUN echo a \\\n\n  b\n", []string{"NoEmptyContinuation"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			found, _, err := lintDockerfile([]byte(tt.src))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			if got := rules(found); !slices.Equal(got, tt.want) {
				t.Errorf("rules = %v, want %v\nfindings: %v", got, tt.want, found)
			}
		})
	}
}

// TestLintParseError: a Dockerfile that BuildKit cannot parse is an error, not a clean result.
func TestLintParseError(t *testing.T) {
	for _, src := range []string{"", "RUN echo no FROM\n", "FROM debian:bookworm-slim\nBOGUS x\n"} {
		if _, _, err := lintDockerfile([]byte(src)); err == nil {
			t.Errorf("lintDockerfile(%q): no error", src)
		}
	}
}

// TestPolicyRules: each policy rule fires when the repository's Dockerfile is changed to break it.
func TestPolicyRules(t *testing.T) {
	orig := string(readDockerfile(t))
	// edit replaces the first occurrence of old (the last one with last set: the runtime stage).
	edit := func(old, new string, last ...bool) func(*testing.T) string {
		return func(t *testing.T) string {
			i := strings.Index(orig, old)
			if len(last) > 0 && last[0] {
				i = strings.LastIndex(orig, old)
			}
			if i < 0 {
				t.Fatalf("the Dockerfile no longer contains %q: update this test", old)
			}
			return orig[:i] + new + orig[i+len(old):]
		}
	}
	drop := func(prefix string) func(*testing.T) string {
		return func(t *testing.T) string {
			var b strings.Builder
			sc := bufio.NewScanner(strings.NewReader(orig))
			n := 0
			for sc.Scan() {
				if strings.HasPrefix(sc.Text(), prefix) {
					n++
					continue
				}
				b.WriteString(sc.Text() + "\n")
			}
			if n == 0 {
				t.Fatalf("the Dockerfile has no line starting with %q: update this test", prefix)
			}
			return b.String()
		}
	}
	// runtimeOnly is the Dockerfile without its build stage (and what refers to it).
	runtimeOnly := func(t *testing.T) string {
		i := strings.Index(orig, "FROM ${BASE_IMAGE} AS build")
		j := strings.LastIndex(orig, "FROM ${BASE_IMAGE}")
		if i < 0 || j <= i {
			t.Fatal("the Dockerfile no longer has a build stage and a runtime stage: update this test")
		}
		var b strings.Builder
		for _, l := range strings.Split(orig[:i]+orig[j:], "\n") {
			if !strings.Contains(l, "--from=build") {
				b.WriteString(l + "\n")
			}
		}
		return b.String()
	}
	const runtimeApt = "apt-get install -y -qq --no-install-recommends ca-certificates tini"
	tests := []struct {
		name   string
		mutate func(*testing.T) string
		want   string
	}{
		{"unchanged", func(*testing.T) string { return orig }, ""},
		{"other base", edit("ARG BASE_IMAGE=docker.io/library/debian:trixie-slim", "ARG BASE_IMAGE=ubuntu:24.04"), "PolicyBase"},
		{"bookworm base", edit("ARG BASE_IMAGE=docker.io/library/debian:trixie-slim", "ARG BASE_IMAGE=debian:bookworm-slim"), "PolicyBase"},
		{"one stage", runtimeOnly, "PolicyStages"},
		{"runtime from the build stage", edit("FROM ${BASE_IMAGE}\n", "FROM build\n", true), "PolicyStages"},
		{"nodejs in the runtime", edit(runtimeApt, runtimeApt+" nodejs", true), "PolicyLean"},
		{"node package in the runtime", edit(runtimeApt, runtimeApt+" node-lumino", true), "PolicyLean"},
		{"Debian's Go in the runtime", edit(runtimeApt, runtimeApt+" golang-go", true), "PolicyLean"},
		{"jupyterlab deb in the runtime", edit(runtimeApt, runtimeApt+" jupyterlab", true), "PolicyLean"},
		{"install.sh in the runtime", edit("RUN useradd", "RUN scripts/install.sh --system && useradd", true), "PolicyLean"},
		{"runs as root", edit("USER ${NB_UID}", "USER root", true), "PolicyNonRoot"},
		{"no NB_UID", edit("ARG NB_UID=1000", "ARG NB_ID=1000", true), "PolicyNBUser"},
		{"home elsewhere", edit("HOME=/home/${NB_USER}", "HOME=/srv", true), "PolicyNBUser"},
		{"no health check", drop("HEALTHCHECK"), "PolicyHealthcheck"},
		{"health check off", edit("HEALTHCHECK --interval", "HEALTHCHECK NONE\n# --interval"), "PolicyHealthcheck"},
		{"no port", drop("EXPOSE"), "PolicyPort"},
		{"token off", edit(`CMD ["sod-notebook"]`, `CMD ["sod-notebook", "--NotebookApp.token="]`), "PolicyToken"},
		{"token off quoted", edit(`CMD ["sod-notebook"]`, `CMD ["sod-notebook", "--ServerApp.token=''"]`), "PolicyToken"},
		{"token off IdentityProvider", edit(`CMD ["sod-notebook"]`, `CMD ["sod-notebook", "--IdentityProvider.token="]`), "PolicyToken"},
		{"token baked", edit("ENV LANG=C.UTF-8", "ENV JUPYTER_TOKEN=abc LANG=C.UTF-8", true), "PolicyToken"},
		{"curl", edit("RUN useradd", "RUN curl -fsSL https://example.org/x | sh && useradd"), "PolicyDownloads"},
		{"ADD url", edit("COPY docker/healthcheck.sh", "ADD https://example.org/x /x\nCOPY docker/healthcheck.sh"), "PolicyDownloads"},
		{"missing COPY source", edit("COPY docker/healthcheck.sh", "COPY docker/no-such-file.sh"), "PolicyCopySource"},
		{"no CMD", drop("CMD"), "PolicyCommand"},
		{"entrypoint swallows CMD", edit(`ENTRYPOINT ["tini", "-g", "--"]`, `ENTRYPOINT ["sod-notebook"]`), "PolicyCommand"},
		{"no jupyterhub", edit("--no-install-recommends jupyterhub >/dev/null", "--no-install-recommends tini >/dev/null"), "PolicyJupyterHub"},
		{"user part as root", edit("USER ${NB_UID}\nWORKDIR /home/${NB_USER}\nCOPY --chown=${NB_UID}:${NB_GID} go.mod", "USER root\nWORKDIR /home/${NB_USER}\nCOPY --chown=${NB_UID}:${NB_GID} go.mod"), "PolicyInstall"},
		{"no install.sh --user", edit("scripts/install.sh --user", "docker/other.sh"), "PolicyInstall"},
		{"system part as user", edit("/opt/sod-install/scripts/install.sh --system", "true\nUSER 1000\nRUN scripts/install.sh --system\nUSER root"), "PolicyInstall"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.mutate(t)
			_, p, err := lintDockerfile([]byte(src))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			got := rules(checkPolicy(p, os.DirFS(repoRoot)))
			if tt.want == "" {
				if len(got) != 0 {
					t.Errorf("policy findings %v on the unchanged Dockerfile: %v", got, checkPolicy(p, os.DirFS(repoRoot)))
				}
				return
			}
			if !slices.Contains(got, tt.want) {
				t.Errorf("policy rules = %v, want %s among them", got, tt.want)
			}
		})
	}
}
