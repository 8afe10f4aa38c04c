#!/bin/sh
# The image's entrypoint: every NAME_FILE in the environment (a compose or Docker secret, mounted
# as a file under /run/secrets) becomes NAME with the file's contents, as the official postgres
# image does for POSTGRES_PASSWORD_FILE; then the command runs. So REDIS_URL and DATABASE_URL,
# which carry passwords, are in no compose file and no `docker inspect`, only in the process.
# Health checks that need them run through it too: deploy/docker-entrypoint.sh python -m ...
set -eu
for name in $(env | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)_FILE=.*/\1/p'); do
    file=$(printenv "${name}_FILE")
    value=$(cat "$file")
    export "$name=$value"
    unset "${name}_FILE"
done
exec "$@"
