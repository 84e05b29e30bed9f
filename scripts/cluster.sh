#!/usr/bin/env bash
# Two of everything behind one address, on this machine's loopback (docs/operations.md "Two of
# everything behind one address"): one PostgreSQL (the platform's database and the consoles'
# store), one Redis (socket.io's adapter between the platforms), two platforms and two consoles,
# and HAProxy (deploy/haproxy.cfg) in front of each pair.
#
#   scripts/cluster.sh start          migrate and seed once, start all five processes, wait until
#                                     the balancer answers through both consoles
#   scripts/cluster.sh stop [NAME]    stop everything (or one of console-a, console-b, platform-a,
#                                     platform-b, haproxy) with SIGTERM
#   scripts/cluster.sh restart NAME   SIGTERM to one of console-a, console-b, platform-a, platform-b
#                                     (it drains), then start it again and wait until it is ready
#   scripts/cluster.sh status         which processes run
#   scripts/cluster.sh reset          stop everything and drop both databases (the next start seeds afresh)
#   scripts/cluster.sh check          exit 0 when PostgreSQL, Redis and haproxy answer here
#
# Settings (environment, defaults in brackets): CLUSTER_CONSOLE_PORT [3200] the operators'
# address, consoles on the next two ports; CLUSTER_PLATFORM_PORT [4200] the consoles' upstream,
# platforms on the next two; CLUSTER_PG [postgres://postgres@127.0.0.1:5432] the server;
# CLUSTER_DB [betdesk_cluster] the platform's database, the consoles' store in CLUSTER_DB_console;
# REDIS_URL [redis://127.0.0.1:6379] and REDIS_PREFIX [betdesk-cluster]; CLUSTER_RUN_DIR
# [.cache/cluster] pids, logs, the shared uploads; SESSION_SECRET and API_SECRET shared by all
# instances [the development values]; SIM_ACTIVITY / SIM_FEED [off] for platform A only;
# CLUSTER_METRICS_PORT [9200] the consoles' /metrics on the next two ports, the platforms' on +11
# and +12 (CLUSTER_METRICS=off: none); LOG_LEVEL [info] every instance's; CLUSTER_PROMETHEUS_PORT
# [9290] Prometheus (deploy/prometheus.yml), scraping all four.
set -euo pipefail
cd "$(dirname "$0")/.."

CONSOLE_PORT="${CLUSTER_CONSOLE_PORT:-3200}"
PLATFORM_PORT="${CLUSTER_PLATFORM_PORT:-4200}"
PG="${CLUSTER_PG:-postgres://postgres@127.0.0.1:5432}"
DB="${CLUSTER_DB:-betdesk_cluster}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
export REDIS_PREFIX="${REDIS_PREFIX:-betdesk-cluster}"
RUN_DIR="$(mkdir -p "${CLUSTER_RUN_DIR:-.cache/cluster}" && cd "${CLUSTER_RUN_DIR:-.cache/cluster}" && pwd)"
HOST=127.0.0.1
METRICS_PORT="${CLUSTER_METRICS_PORT:-9200}"
PROMETHEUS_PORT="${CLUSTER_PROMETHEUS_PORT:-9290}"
NAMES=(prometheus haproxy console-a console-b platform-a platform-b)

pid_of() { cat "$RUN_DIR/$1.pid" 2>/dev/null || true; }
running() { local pid; pid="$(pid_of "$1")"; [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; }

redis_answers() {
  # PING over bash's /dev/tcp, so no redis-cli is needed.
  local address="${REDIS_URL#*://}"; address="${address##*@}"; address="${address%%/*}"
  local host="${address%%:*}" port="${address##*:}"
  [ "$port" = "$address" ] && port=6379
  local line
  # In a subshell, so the connection and its redirections end with it.
  line="$( { exec 3<>"/dev/tcp/$host/$port" && printf 'PING\r\n' >&3 && read -r -t 2 reply <&3 && printf '%s' "$reply"; } 2>/dev/null )" || return 1
  [[ "$line" == +PONG* ]]
}

check() {
  local missing=()
  command -v haproxy >/dev/null || missing+=("haproxy (apt-get install -y haproxy)")
  command -v prometheus >/dev/null || missing+=("prometheus (apt-get install -y prometheus)")
  { command -v psql >/dev/null && psql "$PG/postgres" -Atqc 'select 1' >/dev/null 2>&1; } || missing+=("PostgreSQL at $PG")
  redis_answers || missing+=("Redis at $REDIS_URL")
  if [ ${#missing[@]} -gt 0 ]; then
    echo "cluster: missing ${missing[*]}" >&2
    return 1
  fi
}

wait_ok() {
  node -e '
    const [url, what] = process.argv.slice(1);
    const deadline = Date.now() + 120_000;
    (async function poll() {
      try { if ((await fetch(url)).ok) return; } catch {}
      if (Date.now() > deadline) { console.error(`cluster: ${what} did not answer ${url}`); process.exit(1); }
      setTimeout(poll, 200);
    })();' "$1" "$2"
}

# Starts NAME in the background with its own log; the rest of the arguments are `env` assignments, then the script.
launch() {
  local name="$1"; shift
  if running "$name"; then echo "cluster: $name already runs (pid $(pid_of "$name"))"; return; fi
  env "$@" </dev/null >>"$RUN_DIR/$name.log" 2>&1 &
  echo $! >"$RUN_DIR/$name.pid"
}

# CLUSTER_METRICS=off starts instances without their /metrics listeners (the cluster-load benchmark's "off" rounds).
metrics_on() { [ "${CLUSTER_METRICS:-on}" != off ]; }

# The port offset of an instance: 1 for platform-a and console-a, 2 for the b ones.
offset_of() { [ "${1: -1}" = a ] && echo 1 || echo 2; }

# Starts one console or platform in the background with its settings (the consoles' upstream is the platforms' balancer).
launch_instance() {
  local name="$1" n common
  n="$(offset_of "$name")"
  case "$name" in
    platform-a | platform-b)
      common=(NODE_ENV="${NODE_ENV:-development}" LOG_LEVEL="${LOG_LEVEL:-info}" DATABASE_URL="$PG/$DB" DATA_DIR="$RUN_DIR/platform-data"
        SCORECARD_FRAME_ANCESTORS="http://localhost:$CONSOLE_PORT http://$HOST:$CONSOLE_PORT"
        PLATFORM_PORT=$((PLATFORM_PORT + n)))
      metrics_on && common+=(PLATFORM_METRICS_PORT=$((METRICS_PORT + 10 + n)))
      # One simulator of each kind for the whole deployment (platform A's): they would otherwise both write the feed.
      if [ "$name" = platform-a ]; then common+=(SIM_ACTIVITY="${SIM_ACTIVITY:-off}" SIM_FEED="${SIM_FEED:-off}"); else common+=(SIM_ACTIVITY=off SIM_FEED=off); fi
      launch "$name" "${common[@]}" node --import tsx platform/server.ts ;;
    console-a | console-b)
      local platform="http://$HOST:$PLATFORM_PORT"
      common=(NODE_ENV="${NODE_ENV:-development}" LOG_LEVEL="${LOG_LEVEL:-info}" CONSOLE_DATABASE_URL="$PG/${DB}_console" TRUSTED_PROXIES=127.0.0.0/8,::1
        ADMIN_API_URL="$platform/api/admin" SPORTS_API_URL="$platform/api/sports" SOCKET_URL="$platform" PORT=$((CONSOLE_PORT + n)))
      metrics_on && common+=(METRICS_PORT=$((METRICS_PORT + n)))
      launch "$name" "${common[@]}" node --import tsx server.ts ;;
    *) echo "cluster: $name is not a console or a platform" >&2; exit 2 ;;
  esac
}

# SIGTERM to one console or platform (it drains), then the same instance again, until it is ready.
restart() {
  local name="$1" port
  stop_one "$name"
  launch_instance "$name"
  case "$name" in platform-*) port=$((PLATFORM_PORT + $(offset_of "$name"))) ;; *) port=$((CONSOLE_PORT + $(offset_of "$name"))) ;; esac
  wait_ok "http://$HOST:$port/health/ready" "$name"
}

start() {
  check
  [ -f build/server/index.js ] || { echo "cluster: building the console…"; npx remix vite:build >/dev/null; }
  for db in "$DB" "${DB}_console"; do
    [ "$(psql "$PG/postgres" -Atqc "select 1 from pg_database where datname = '$db'")" = 1 ] || createdb -d "$PG/postgres" "$db" 2>/dev/null || psql "$PG/postgres" -qc "create database \"$db\""
  done
  # Once, before any instance starts: two platforms finding an empty database would both seed it.
  echo "cluster: migrating and seeding $DB…"
  DATABASE_URL="$PG/$DB" node --import tsx platform/cli.ts seed >"$RUN_DIR/seed.log" 2>&1 || { cat "$RUN_DIR/seed.log" >&2; exit 1; }

  launch_instance platform-a
  launch_instance platform-b
  # The first console migrates the store; the second finds it migrated (both would be safe: migrations take a lock).
  launch_instance console-a
  wait_ok "http://$HOST:$((CONSOLE_PORT + 1))/login" console-a
  launch_instance console-b
  for port in $((PLATFORM_PORT + 1)) $((PLATFORM_PORT + 2)); do wait_ok "http://$HOST:$port/health/ready" "platform on $port"; done
  wait_ok "http://$HOST:$((CONSOLE_PORT + 2))/login" console-b

  launch haproxy CLUSTER_RUN_DIR="$RUN_DIR" \
    CLUSTER_CONSOLE_LB="$HOST:$CONSOLE_PORT" CONSOLE_A="$HOST:$((CONSOLE_PORT + 1))" CONSOLE_B="$HOST:$((CONSOLE_PORT + 2))" \
    CLUSTER_PLATFORM_LB="$HOST:$PLATFORM_PORT" PLATFORM_A="$HOST:$((PLATFORM_PORT + 1))" PLATFORM_B="$HOST:$((PLATFORM_PORT + 2))" \
    haproxy -db -f deploy/haproxy.cfg
  # Both behind the balancer: it answers (its checks pass after `rise` successes).
  wait_ok "http://$HOST:$PLATFORM_PORT/health/ready" "the platforms' balancer"
  wait_ok "http://$HOST:$CONSOLE_PORT/health/ready" "the consoles' balancer"
  start_prometheus
  echo "cluster: ready at http://localhost:$CONSOLE_PORT (consoles on $((CONSOLE_PORT + 1)) and $((CONSOLE_PORT + 2)); platforms behind http://$HOST:$PLATFORM_PORT on $((PLATFORM_PORT + 1)) and $((PLATFORM_PORT + 2))); logs in $RUN_DIR"
}

# Prometheus (Debian's package) with deploy/prometheus.yml and deploy/alerts.yml, the four targets
# written beside them; its data in RUN_DIR, so `reset` starts it afresh.
start_prometheus() {
  local dir="$RUN_DIR/prometheus"
  mkdir -p "$dir/data"
  cp deploy/prometheus.yml deploy/alerts.yml "$dir/"
  printf '[{"targets": ["%s:%s", "%s:%s"], "labels": {"program": "console"}}]\n' $HOST $((METRICS_PORT + 1)) $HOST $((METRICS_PORT + 2)) >"$dir/targets-console.json"
  printf '[{"targets": ["%s:%s", "%s:%s"], "labels": {"program": "platform"}}]\n' $HOST $((METRICS_PORT + 11)) $HOST $((METRICS_PORT + 12)) >"$dir/targets-platform.json"
  launch prometheus prometheus --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/data" \
    --web.listen-address="$HOST:$PROMETHEUS_PORT" --log.level=warn
  wait_ok "http://$HOST:$PROMETHEUS_PORT/-/ready" prometheus
}

stop_one() {
  local name="$1" pid
  pid="$(pid_of "$name")"
  rm -f "$RUN_DIR/$name.pid"
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid"
  # A console drains until the balancer has read its 503s (2 to 3 s, at most 15), a platform for 3 s;
  # then each lets requests finish for up to SHUTDOWN_GRACE_MS (10 s).
  for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  echo "cluster: $name (pid $pid) did not stop in 30 s; killing it" >&2
  kill -KILL "$pid" 2>/dev/null || true
}

# The instances at once, while the balancer still checks them (a console waits to be seen going);
# the balancer and Prometheus after them.
stop_all() {
  local name
  for name in console-a console-b platform-a platform-b; do stop_one "$name" & done
  wait
  for name in haproxy prometheus; do stop_one "$name"; done
}

case "${1:-}" in
  start) start ;;
  restart) restart "${2:?which instance: console-a, console-b, platform-a or platform-b}" ;;
  stop)
    if [ -n "${2:-}" ]; then stop_one "$2"; else stop_all; fi ;;
  status) for name in "${NAMES[@]}"; do running "$name" && echo "$name: pid $(pid_of "$name")" || echo "$name: stopped"; done ;;
  check) check ;;
  reset)
    stop_all
    rm -rf "$RUN_DIR/prometheus"
    for db in "$DB" "${DB}_console"; do psql "$PG/postgres" -qc "drop database if exists \"$db\"" >/dev/null; done ;;
  *) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
