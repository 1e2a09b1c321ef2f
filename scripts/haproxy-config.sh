#!/usr/bin/env bash
# Print an HAProxy configuration for several `kingsbreakfast serve` processes:
#   bash scripts/haproxy-config.sh LISTEN_ADDRESS:PORT SERVER_ADDRESS:PORT [SERVER_ADDRESS:PORT ...]
# e.g. bash scripts/haproxy-config.sh 127.0.0.1:8080 127.0.0.1:8001 127.0.0.1:8002 > kb.cfg
#      haproxy -f kb.cfg
#
# Every request about one table (/ws/tables/ID, /api/tables/ID/...) goes to the same server,
# chosen by a consistent hash of the table id: that server takes the table's lease and plays
# it. When a server stops answering its health checks, only its tables move (to the next
# server on the ring), and the new server takes them over from the database. Everything
# else (the lobby list, creating a table, the archive, the static client) goes round robin.
# TLS: add `ssl crt /path/to/cert.pem` to the bind line (docs/deploy.md).
set -euo pipefail
if (($# < 2)); then
  echo "usage: $0 LISTEN_ADDRESS:PORT SERVER_ADDRESS:PORT [SERVER_ADDRESS:PORT ...]" >&2
  exit 2
fi
listen=$1
shift
servers=""
n=0
for address in "$@"; do
  n=$((n + 1))
  # a process that stops answering its checks is taken out and its sockets closed at once
  # (on-marked-down): the players' clients reconnect and reach the tables' new owner
  servers+="    server kb${n} ${address} check inter 1s fastinter 500ms fall 3 rise 2 on-marked-down shutdown-sessions"$'\n'
done
cat <<CFG
global
    # two descriptors per connection: keep within the open-files limit (ulimit -n)
    maxconn ${KB_PROXY_MAXCONN:-9000}

defaults
    mode http
    option http-server-close
    # the servers' per-address limits count the client, not the proxy (uvicorn reads
    # X-Forwarded-For from a proxy on 127.0.0.1; a client's own header is dropped below)
    option forwardfor
    # a server that refuses the connection (killed, restarting): try another at once
    option redispatch 1
    retries 3
    timeout connect 1s
    timeout client 60s
    timeout server 60s
    # an upgraded WebSocket is a tunnel: the server pings every 5 s and the browser a socket
    # quiet for 2.5 s, so a tunnel silent this long leads to a process dead or frozen
    timeout tunnel 15s
    timeout http-request 10s
    # the check asks /healthz, which the event loop answers: a frozen process still takes
    # TCP connections (the kernel does), so a bare connect check would never notice it. A
    # busy server answers its check late, not never: do not drop it for that; three misses
    # (about 8 s) take a frozen one out
    timeout check 2s

backend play_sockets
    # the play sockets each client address holds open, every server's together: counted
    # here, where they all pass, so a burst spread over the servers meets one cap (the
    # servers' own count reaches each other only once a second)
    stick-table type ipv6 size 200k expire 10m store conn_cur

frontend kingsbreakfast
    bind ${listen}
    http-request del-header X-Kb-Table
    http-request del-header X-Forwarded-For
    http-request track-sc1 src table play_sockets if { path_beg /ws/tables/ }
    http-request deny deny_status 429 if { path_beg /ws/tables/ } { sc1_conn_cur gt ${KB_PROXY_SOCKETS_PER_ADDRESS:-80} }
    http-request set-header X-Kb-Table %[path,field(4,/)] if { path_beg /ws/tables/ /api/tables/ }
    use_backend by_table if { req.hdr(X-Kb-Table) -m found }
    default_backend any_server

backend by_table
    balance hdr(X-Kb-Table)
    hash-type consistent
    option httpchk GET /healthz
${servers}
backend any_server
    balance roundrobin
    option httpchk GET /healthz
${servers}
CFG
