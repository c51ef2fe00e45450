#!/usr/bin/env bash
# Creates the toolsmith role and database on the local PostgreSQL, idempotently. Each service keeps
# its tables in its own schema of that database (created by its Flyway migrations); tests create
# their own throwaway databases, which is why the role may CREATEDB.
#
# Connects as the PostgreSQL superuser through the local socket (su postgres) or, when that is not
# possible, with PGUSER/PGPASSWORD over TCP. Settings: TOOLSMITH_PG_USER, TOOLSMITH_PG_PASSWORD,
# TOOLSMITH_PG_DATABASE (defaults toolsmith/toolsmith/toolsmith).
set -euo pipefail

role="${TOOLSMITH_PG_USER:-toolsmith}"
password="${TOOLSMITH_PG_PASSWORD:-toolsmith}"
database="${TOOLSMITH_PG_DATABASE:-toolsmith}"

psql_admin() {
  if [ "$(id -u)" = "0" ] && id postgres >/dev/null 2>&1; then
    su postgres -c "psql -v ON_ERROR_STOP=1 -qtA $(printf '%q ' "$@")"
  else
    psql -v ON_ERROR_STOP=1 -qtA -h "${TOOLSMITH_PG_HOST:-127.0.0.1}" -p "${TOOLSMITH_PG_PORT:-5432}" "$@"
  fi
}

if [ "$(psql_admin -d postgres -c "SELECT 1 FROM pg_roles WHERE rolname = '${role}'")" != "1" ]; then
  psql_admin -d postgres -c "CREATE ROLE ${role} LOGIN CREATEDB PASSWORD '${password}'"
  echo "created role ${role}"
else
  psql_admin -d postgres -c "ALTER ROLE ${role} LOGIN CREATEDB PASSWORD '${password}'"
fi

if [ "$(psql_admin -d postgres -c "SELECT 1 FROM pg_database WHERE datname = '${database}'")" != "1" ]; then
  psql_admin -d postgres -c "CREATE DATABASE ${database} OWNER ${role}"
  echo "created database ${database}"
fi
echo "PostgreSQL ready: database ${database}, role ${role}"
