# SOD Workbench as a Jupyter image: Debian trixie, JupyterLab 4 (jupyter-server 2), Go 1.26, GoNB.
#
#   podman build --format docker -t sod-workbench .        (or: docker build -t sod-workbench .)
#   podman run --rm -p 127.0.0.1:8888:8888 -e JUPYTER_TOKEN=choose-a-token sod-workbench
#
# docker/README.md has the details; docker/test-image.sh builds and tests it.
#
# Two stages. The build stage installs with scripts/install.sh, exactly as on a laptop (--system as
# root, --user as the notebook user): Debian's jupyterlab with the ~0.9 GB of node-* packages it
# depends on (only needed to build lab extensions), nodejs and npm (the ECharts assets), Debian's Go
# to bootstrap Go 1.26, gonb and goimports. It then prepares the notebook user's caches
# (docker/image-build.sh) and the live HTML book. The runtime stage installs only the Python packages
# JupyterLab, nbconvert and jupyterhub-singleuser import, and copies from the build stage: Go 1.26,
# JupyterLab's and JupyterHub's Python packages and Lab's prebuilt static assets, gonb, goimports
# and the kernel spec, the module and build caches, the ECharts files and the book.
#
# Layout (the Binder / Jupyter docker-stacks conventions): the user is $NB_USER ($NB_UID), the
# repository is the user's home /home/$NB_USER (go.mod there), the notebooks are in
# ~/notebooks, the live HTML book at /usr/local/share/sod-workbench/book, served at
# <base_url>sod-book/ (linked as ~/notebooks/book). A notebook finds the module by walking up from its own
# folder, so your own notebooks go anywhere under the home, e.g. mounted at ~/notebooks/work.
#
# Build parameters for networks that need them (all optional; docker/build-env.sh applies them):
#   --build-arg APT_MIRROR=http://mirror/root      replaces http://deb.debian.org in apt sources
#   --build-arg GOPROXY=... --build-arg GOSUMDB=...  Go module proxy and checksum database
#   --build-arg NPM_REGISTRY=https://...           npm registry for the ECharts assets
#   --secret id=build_ca,src=/path/to/bundle.pem   CA bundle trusted by the HTTPS build steps
#   --build-arg BASE_IMAGE=...                     another Debian trixie base image

# Where no container registry can be reached, docker/test-image.sh makes the base with mmdebstrap.
# BASE_IMAGE is a Debian trixie image.
ARG BASE_IMAGE=docker.io/library/debian:trixie-slim

# ================================================================

# build stage: scripts/install.sh with node, npm and Debian's Go; the caches and book for the runtime
FROM ${BASE_IMAGE} AS build

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

# ---- system part, as root: apt packages (JupyterLab, nodejs/npm, git, ...) and Go 1.26; and
# Debian's jupyterhub, whose Python package the runtime stage takes (jupyterhub-singleuser).
COPY scripts/install.sh scripts/lib.sh /opt/sod-install/scripts/
COPY docker/build-env.sh /opt/sod-install/docker/
RUN --mount=type=secret,id=build_ca,required=false,mode=0444 \
    /opt/sod-install/docker/build-env.sh /opt/sod-install/scripts/install.sh --system
RUN --mount=type=secret,id=build_ca,required=false,mode=0444 \
    /opt/sod-install/docker/build-env.sh sh -c 'apt-get update -qq && \
      apt-get install -y -qq --no-install-recommends jupyterhub >/dev/null'

# What the runtime stage takes from Debian's jupyterlab and jupyterhub packages: their Python
# packages, Lab's static assets, schemas and themes, the server extension's config, the commands.
RUN set -eu; s=/opt/sod-stage/system; py=/usr/lib/python3/dist-packages; \
    mkdir -p "$s$py" "$s/usr/share/jupyter" "$s/etc/jupyter/jupyter_server_config.d" "$s/usr/bin"; \
    cp -a "$py/jupyterlab" "$py"/jupyterlab-*.dist-info "$py/jupyterhub" "$py"/jupyterhub-*.egg-info "$s$py/"; \
    cp -a /usr/share/jupyter/lab "$s/usr/share/jupyter/"; \
    cp -a /etc/jupyter/jupyter_server_config.d/jupyterlab.json "$s/etc/jupyter/jupyter_server_config.d/"; \
    cp -a /usr/bin/jupyter-lab /usr/bin/jupyter-labhub /usr/bin/jupyterhub-singleuser "$s/usr/bin/"; \
    chown "${NB_UID}:${NB_GID}" /opt/sod-stage

RUN useradd --create-home --uid "${NB_UID}" --gid "${NB_GID}" --shell /bin/bash "${NB_USER}"
ENV NB_USER=${NB_USER} \
    NB_UID=${NB_UID} \
    NB_GID=${NB_GID} \
    USER=${NB_USER} \
    HOME=/home/${NB_USER} \
    SHELL=/bin/bash \
    GOPATH=/home/${NB_USER}/.go \
    GOTOOLCHAIN=local \
    PATH=/home/${NB_USER}/.local/bin:/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

# ---- user part, as the notebook user: ECharts assets (npm ci), gonb (the module's pinned tool),
# goimports, the gonb kernel spec, then every module go.mod lists, into a cache of the build
# stage only. Only the files these steps read are copied first, so editing a notebook or the
# library does not redo them.
USER ${NB_UID}
WORKDIR /home/${NB_USER}
COPY --chown=${NB_UID}:${NB_GID} go.mod go.sum ./
COPY --chown=${NB_UID}:${NB_GID} widgets/assets/package.json widgets/assets/package-lock.json widgets/assets/
COPY --chown=${NB_UID}:${NB_GID} scripts/install.sh scripts/lib.sh scripts/
COPY --chown=${NB_UID}:${NB_GID} docker/build-env.sh docker/
RUN --mount=type=secret,id=build_ca,required=false,mode=0444 \
    GOMODCACHE=/home/${NB_USER}/.cache/sod-full-mod GOCACHE=/tmp/sod-tools-cache \
    docker/build-env.sh sh -c 'scripts/install.sh --user && go mod download && rm -rf /tmp/sod-tools-cache'
# The live book's interpreter's modules (livebook/go.mod: yaegi, gonum/plot), in a layer of their
# own: a change to livebook/go.mod does not redo the installs above.
COPY --chown=${NB_UID}:${NB_GID} livebook/go.mod livebook/go.sum livebook/
RUN --mount=type=secret,id=build_ca,required=false,mode=0444 \
    GOMODCACHE=/home/${NB_USER}/.cache/sod-full-mod docker/build-env.sh sh -c 'cd livebook && go mod download'

# ---- the module and its notebooks: the runtime's module cache (only what the notebooks and the
# live book's interpreter use), a warm build cache (the first Go cell of every notebook), the
# ECharts files and the live HTML book (its interpreter built for WebAssembly here),
# made by docker/image-build.sh (offline but for the checksum database's answers, see there).
COPY --chown=${NB_UID}:${NB_GID} . ./
RUN --mount=type=secret,id=build_ca,required=false,mode=0444 \
    docker/build-env.sh docker/image-build.sh /home/${NB_USER}/.cache/sod-full-mod

# ================================================================
# The runtime stage: no node, no npm, one Go.
FROM ${BASE_IMAGE}

ARG NB_USER=jovyan
ARG NB_UID=1000
ARG NB_GID=100
ARG APT_MIRROR=""

ENV LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive \
    PYDEVD_DISABLE_FILE_VALIDATION=1

# What JupyterLab, jupyter-server, nbconvert and jupyterhub-singleuser import (no node-*, no
# nodejs, no Go from Debian), and tini as PID 1 (it reaps the go build processes of the kernel).
COPY docker/build-env.sh /opt/sod-install/docker/
RUN --mount=type=secret,id=build_ca,required=false,mode=0444 \
    /opt/sod-install/docker/build-env.sh sh -c 'apt-get update -qq && \
      apt-get install -y -qq --no-install-recommends ca-certificates tini \
        jupyter-core jupyter-client jupyter-nbconvert python3-nbconvert python3-nbclient python3-jupyter-server \
        python3-jupyterlab-server python3-notebook-shim python3-async-lru python3-json5 python3-packaging \
        python3-jinja2 python3-tornado python3-traitlets python3-jupyter-events python3-rpds-py \
        python3-alembic python3-certipy python3-dateutil python3-idna python3-oauthlib \
        python3-prometheus-client python3-pydantic python3-requests python3-sqlalchemy >/dev/null && \
      apt-get clean && rm -rf /var/lib/apt/lists/*'

COPY --from=build /usr/local/go /usr/local/go
COPY --from=build /opt/sod-stage/system/ /
# Lab's defaults for an offline classroom: no news, no update checks.
COPY docker/lab-overrides.json /usr/share/jupyter/lab/settings/overrides.json
# JupyterLab as the landing page of any server started in the image (jupyterhub-singleuser too).
COPY docker/jupyter_server_config.json /etc/jupyter/jupyter_server_config.d/sod-workbench.json
# The live book at <base_url>sod-book/ (enabled in that config: ServerApp.jpserver_extensions).
COPY docker/sod_livebook.py /usr/lib/python3/dist-packages/sod_livebook.py
COPY docker/healthcheck.sh /usr/local/bin/sod-healthcheck
COPY docker/sod-notebook /usr/local/bin/sod-notebook
RUN useradd --create-home --uid "${NB_UID}" --gid "${NB_GID}" --shell /bin/bash "${NB_USER}" && \
    ln -s /usr/local/go/bin/go /usr/local/go/bin/gofmt /usr/local/bin/ && \
    PYTHONDONTWRITEBYTECODE=1 python3 -c 'import jupyterlab.labapp, jupyterhub.singleuser, nbconvert, sod_livebook' && \
    if dpkg-query -W -f '${Package}\n' | grep -E '^(nodejs|npm|node-.*|golang.*|jupyterlab|jupyterhub)$'; then \
      echo "the runtime stage must not hold these packages" >&2; exit 1; fi

ENV NB_USER=${NB_USER} \
    NB_UID=${NB_UID} \
    NB_GID=${NB_GID} \
    USER=${NB_USER} \
    HOME=/home/${NB_USER} \
    SHELL=/bin/bash \
    GOPATH=/home/${NB_USER}/.go \
    GOTOOLCHAIN=local \
    PATH=/home/${NB_USER}/.local/bin:/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

# ---- the notebook user's part: gonb, goimports and the kernel spec; the module cache; the
# repository; the ECharts files; the warm build cache; the book.
USER ${NB_UID}
WORKDIR /home/${NB_USER}
COPY --from=build --chown=${NB_UID}:${NB_GID} /home/${NB_USER}/.local /home/${NB_USER}/.local
COPY --from=build --chown=${NB_UID}:${NB_GID} /home/${NB_USER}/.go /home/${NB_USER}/.go
COPY --chown=${NB_UID}:${NB_GID} . ./
COPY --from=build --chown=${NB_UID}:${NB_GID} /opt/sod-stage/assets /home/${NB_USER}/widgets/assets/node_modules
COPY --from=build --chown=${NB_UID}:${NB_GID} /home/${NB_USER}/.cache/go-build /home/${NB_USER}/.cache/go-build
# The live book, root's and read-only for the user: the Jupyter server extension sod_livebook
# (docker/sod_livebook.py) serves it at <base_url>sod-book/ outside /files/' sandbox, so only the
# image's own pages may run there; ~/notebooks/book links to it (/files/book/, the frozen pages).
COPY --from=build --chown=0:0 /opt/sod-stage/book /usr/local/share/sod-workbench/book
# The gonb kernel writes its logs there (scripts/install.sh, kernel spec). The book and the caches
# were made from the same sources as the ones this stage copied (a build context that changed
# during the build fails here, see docker/image-build.sh).
RUN mkdir -p /home/${NB_USER}/.cache/sod-workbench/gonb-logs && \
    ln -s /usr/local/share/sod-workbench/book /home/${NB_USER}/notebooks/book && \
    cd /home/${NB_USER} && { sha256sum --quiet --strict -c notebooks/book/SOURCES.sha256 || { \
      echo "the book and caches were made from other sources than this stage copied (edited during the build?)" >&2; exit 1; }; }

EXPOSE 8888
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 CMD ["sod-healthcheck"]
ENTRYPOINT ["tini", "-g", "--"]
CMD ["sod-notebook"]
