# SOD Workbench as a Jupyter image: Debian bookworm, Jupyter Notebook 6 from apt, Go 1.26, GoNB.
#
#   podman build --format docker -t sod-workbench .        (or: docker build -t sod-workbench .)
#   podman run --rm -p 127.0.0.1:8888:8888 -e JUPYTER_TOKEN=choose-a-token sod-workbench
#
# The README's "Docker" section has the details; docker/test-image.sh builds and smoke-tests it.
# Install steps are docker/install.sh's, run the same way as on a laptop (--system as root,
# --user as the notebook user), so the image and a laptop install cannot drift apart.
#
# Layout (the Binder / Jupyter docker-stacks conventions): the user is $NB_USER ($NB_UID), the
# repository is the user's home /home/$NB_USER (go.mod there), the notebooks are in
# ~/notebooks. A notebook finds the module by walking up from its own folder, so your own
# notebooks go anywhere under the home, e.g. mounted at ~/notebooks/work.
#
# Build parameters for networks that need them (all optional; docker/build-env.sh applies them):
#   --build-arg APT_MIRROR=http://mirror/root      replaces http://deb.debian.org in apt sources
#   --build-arg GOPROXY=... --build-arg GOSUMDB=...  Go module proxy and checksum database
#   --build-arg NPM_REGISTRY=https://...           npm registry for the ECharts assets
#   --secret id=build_ca,src=/path/to/bundle.pem   CA bundle trusted by the HTTPS build steps
#   --build-arg BASE_IMAGE=...                     another Debian bookworm base image

# Where no container registry can be reached, docker/test-image.sh makes the base with mmdebstrap.
# BASE_IMAGE is a Debian bookworm image.
ARG BASE_IMAGE=docker.io/library/debian:bookworm-slim
FROM ${BASE_IMAGE}

ARG NB_USER=jovyan
ARG NB_UID=1000
ARG NB_GID=100
ARG APT_MIRROR=""
ARG GOPROXY=""
ARG GOSUMDB=""
ARG NPM_REGISTRY=""

ENV LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive \
    PYDEVD_DISABLE_FILE_VALIDATION=1

# ---- system part, as root: apt packages (Jupyter, nodejs/npm, git, ...) and Go 1.26.
COPY docker/install.sh docker/build-env.sh /opt/sod-install/docker/
RUN --mount=type=secret,id=build_ca,required=false,mode=0444 \
    /opt/sod-install/docker/build-env.sh /opt/sod-install/docker/install.sh --system

# What only the image needs: JupyterHub's single-user server (for JupyterHub spawners and
# Binder) and tini as PID 1 (reaps the go build processes the kernel starts). The bootstrap
# golang-1.23 that install.sh used to fetch Go 1.26 into /usr/local/go is no longer needed.
RUN --mount=type=secret,id=build_ca,required=false,mode=0444 \
    /opt/sod-install/docker/build-env.sh sh -c 'apt-get update -qq && \
      apt-get install -y -qq --no-install-recommends jupyterhub tini >/dev/null && \
      if [ -x /usr/local/go/bin/go ]; then apt-get purge -y -qq golang-1.23-go golang-1.23-src >/dev/null; fi && \
      apt-get autoremove -y -qq >/dev/null && rm -rf /var/lib/apt/lists/*'

RUN useradd --create-home --uid "${NB_UID}" --gid "${NB_GID}" --shell /bin/bash "${NB_USER}"
ENV NB_USER=${NB_USER} \
    NB_UID=${NB_UID} \
    NB_GID=${NB_GID} \
    USER=${NB_USER} \
    HOME=/home/${NB_USER} \
    SHELL=/bin/bash \
    GOPATH=/home/${NB_USER}/.go \
    PATH=/home/${NB_USER}/.local/bin:/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
COPY docker/healthcheck.sh /usr/local/bin/sod-healthcheck
COPY docker/sod-notebook /usr/local/bin/sod-notebook

# ---- user part, as the notebook user: ECharts assets (npm ci), gonb (the module's pinned tool),
# goimports, the gonb kernel spec. Only the files it reads are copied first, so editing a notebook
# or the library does not redo it.
USER ${NB_UID}
WORKDIR /home/${NB_USER}
COPY --chown=${NB_UID}:${NB_GID} go.mod go.sum ./
COPY --chown=${NB_UID}:${NB_GID} widgets/assets/package.json widgets/assets/package-lock.json widgets/assets/
COPY --chown=${NB_UID}:${NB_GID} docker/install.sh docker/build-env.sh docker/
RUN --mount=type=secret,id=build_ca,required=false,mode=0444 \
    docker/build-env.sh docker/install.sh --user

# ---- the module and its notebooks, then a warm Go build cache: every module go.mod lists is
# downloaded (notebooks work without network), every package is compiled once and the smoke
# notebook runs once through the kernel, so the first cell a user runs is fast.
COPY --chown=${NB_UID}:${NB_GID} . ./
RUN --mount=type=secret,id=build_ca,required=false,mode=0444 \
    docker/build-env.sh sh -c 'go mod download && go build ./... && \
      cd docker && jupyter nbconvert --to notebook --execute --ExecutePreprocessor.timeout=900 \
        --output-dir /tmp/sod-warm smoke.ipynb && \
      grep -q SOD_SMOKE_OK /tmp/sod-warm/smoke.ipynb && rm -rf /tmp/sod-warm /tmp/gonb_*'

EXPOSE 8888
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 CMD ["sod-healthcheck"]
ENTRYPOINT ["tini", "-g", "--"]
CMD ["sod-notebook"]
