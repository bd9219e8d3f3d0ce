#!/usr/bin/env bash
# Runtime dependencies are declared: a copy of the production build with only `dependencies` installed
# (`npm ci --omit=dev`) must start as `npm start` starts it and answer `whoami` for a key made through owner REST.
# A package the server imports at run time but lists under devDependencies fails here, not in production.
# Needs a finished `npm run build` in the current directory (or in $1).
set -euo pipefail
src="$(cd "${1:-.}" && pwd)"
work="$(mktemp -d)"
app="$work/app"
pid=""
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

dist_dir="${NEXT_DIST_DIR:-.next}"
[ -f "$src/$dist_dir/BUILD_ID" ] && [ -f "$src/dist/server.mjs" ] || { echo "no production build in $src: run npm run build first" >&2; exit 1; }

# What `npm start` runs (scripts/start.mjs → dist/server.mjs) and what that reads from disk: Next's build (without
# its cache) and config, the migrations. -p keeps modification times: start.mjs rebuilds when a source it can see (here
# the migrations and the lockfile) is newer than the build, and a rebuild would need the dev dependencies this check
# leaves out.
mkdir -p "$app/.next"
(cd "$src/$dist_dir" && tar --exclude=./cache -cf - .) | (cd "$app/.next" && tar -xpf -)
cp -rp "$src/dist" "$src/drizzle" "$src/scripts" "$src/package.json" "$src/package-lock.json" "$src/next.config.ts" "$app/"
[ -d "$src/public" ] && cp -rp "$src/public" "$app/"

echo "npm ci --omit=dev in $app"
(cd "$app" && npm ci --omit=dev --no-audit --no-fund --prefer-offline --loglevel=error)

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
port="$(free_port)"
smtp_port="$(free_port)"
email="ci-owner@example.com"
password="runtime-deps-check-password"
base="http://127.0.0.1:$port"

(
  cd "$app"
  exec env -u DATABASE_URL -u NEXT_DIST_DIR NODE_ENV=production HOST=127.0.0.1 PORT="$port" SMTP_PORT="$smtp_port" \
    PUBLIC_URL="$base" DATA_DIR="$work/data" OWNER_EMAIL="$email" OWNER_PASSWORD="$password" \
    node scripts/start.mjs
) >"$work/server.log" 2>&1 &
pid=$!

ready=""
for _ in $(seq 120); do
  if ! kill -0 "$pid" 2>/dev/null; then break; fi
  if curl -sf -o /dev/null "$base/api/v1/openapi.json"; then ready=1; break; fi
  sleep 0.5
done
if [ -z "$ready" ]; then
  echo "the server did not come up with production dependencies only:" >&2
  cat "$work/server.log" >&2
  exit 1
fi

created="$(curl -sS -u "$email:$password" -H 'content-type: application/json' \
  -d '{"name":"runtime deps check","scopes":["ledger:read"]}' "$base/api/v1/keys")"
secret="$(printf '%s' "$created" | node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>{const v=JSON.parse(s).secret;if(!v)process.exit(1);console.log(v)})')" || {
  echo "creating a key failed: $created" >&2
  cat "$work/server.log" >&2
  exit 1
}
status="$(curl -sS -o "$work/whoami.json" -w '%{http_code}' -H "authorization: Bearer $secret" "$base/api/v1/whoami")"
if [ "$status" != 200 ]; then
  echo "GET /api/v1/whoami answered $status: $(cat "$work/whoami.json")" >&2
  cat "$work/server.log" >&2
  exit 1
fi
echo "runtime dependencies ok: whoami answered 200 from a build with production dependencies only"
