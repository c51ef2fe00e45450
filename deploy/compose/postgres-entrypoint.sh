#!/bin/bash
# The local PostgreSQL image's start (deploy/compose/Containerfile.postgres), after the public postgres image's:
# on an empty data directory, initdb with POSTGRES_USER as the superuser and POSTGRES_PASSWORD as its password,
# then POSTGRES_DB; password (SCRAM) authentication over TCP from anywhere, trust on the local socket only.
set -euo pipefail
: "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is not set}"
user="${POSTGRES_USER:-postgres}"
db="${POSTGRES_DB:-$user}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s' "$POSTGRES_PASSWORD" > "$pwfile"
  initdb --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 \
    --encoding=UTF8 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  if [ "$db" != postgres ]; then
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    createdb --username="$user" "$db"
    pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  fi
  echo "initialised $PGDATA: superuser $user, database $db"
fi
if [ "${1:-}" = postgres ]; then
  shift
  exec postgres -c listen_addresses='*' "$@"
fi
exec "$@"
