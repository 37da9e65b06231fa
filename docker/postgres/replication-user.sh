#!/bin/bash
# The primary's first start only (the official image runs /docker-entrypoint-initdb.d/*.sh when it creates
# the data directory): the login postgres-replica streams the WAL with, and the pg_hba.conf line that admits
# it. A primary whose data directory was created before needs both added by hand once.
set -euo pipefail

psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" -v password="$REPLICATION_PASSWORD" <<'SQL'
CREATE ROLE replicator WITH REPLICATION LOGIN PASSWORD :'password';
SQL

echo 'host replication replicator all scram-sha-256' >> "$PGDATA/pg_hba.conf"
