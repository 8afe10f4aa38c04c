#!/bin/sh
# Makes deploy/secrets/ once, the compose stack's secrets (never committed: .gitignore), with
# random hex passwords (safe in a URL as they are):
#   postgres_password   PostgreSQL's (POSTGRES_PASSWORD_FILE of the postgres service)
#   database_url        the archive's URL with it (DATABASE_URL_FILE of app and worker)
#   redis.conf          `requirepass ...`, the config file the redis service starts from
#   redis_url           the games' and the queue's URL with it (REDIS_URL_FILE of app and worker)
# The folder is for its owner alone (0700); the files are readable (0444) because compose mounts
# them as they are into containers whose users (redis, postgres, uid 10066) are not the owner.
# Changing a password later: ALTER USER sixtysix PASSWORD ... in PostgreSQL (the volume keeps
# the first one), then rewrite the files and `docker compose up -d` again.
set -eu
dir="$(dirname "$0")/secrets"
if [ -e "$dir" ]; then
    echo "$dir exists: nothing changed (remove it to make new secrets)" >&2
    exit 1
fi
hex() { od -An -tx1 -N24 /dev/urandom | tr -d ' \n'; }
umask 077
mkdir "$dir"
postgres=$(hex)
redis=$(hex)
printf '%s' "$postgres" > "$dir/postgres_password"
printf 'postgresql+psycopg://sixtysix:%s@postgres:5432/sixtysix' "$postgres" > "$dir/database_url"
printf 'requirepass %s\n' "$redis" > "$dir/redis.conf"
printf 'redis://:%s@redis:6379/0' "$redis" > "$dir/redis_url"
chmod 0444 "$dir"/*
echo "made $dir"
