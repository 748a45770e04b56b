#!/usr/bin/env bash
# A backup of the cardroom's PostgreSQL database: pg_dump's custom format (compressed, and
# pg_restore can restore all of it or single tables), then only the newest
# $CARDROOM_BACKUP_KEEP dumps are kept. Run by cardroom-backup.timer; by hand, as the
# cardroom user:
#   set -a; . /etc/cardroom/cardroom.env; set +a; /srv/cardroom/deploy/backup.sh
# Restoring: docs/deploy.md, "Backups".
set -euo pipefail

: "${DATABASE_URL:?DATABASE_URL names the database to dump (postgres://USER:PASSWORD@HOST:PORT/NAME)}"
dir="${CARDROOM_BACKUP_DIR:-/var/backups/cardroom}"
keep="${CARDROOM_BACKUP_KEEP:-14}"

case "$DATABASE_URL" in
  postgres://* | postgresql://*) ;;  # libpq reads both, as dj-database-url does
  *) echo "backup.sh dumps PostgreSQL; DATABASE_URL is not postgres://..." >&2; exit 2 ;;
esac
if [[ ! "$keep" =~ ^[1-9][0-9]*$ ]]; then
  echo "CARDROOM_BACKUP_KEEP must be a whole number above 0, not '$keep'" >&2
  exit 2
fi

# The dumps hold every player's account and history: the owner alone may read them.
umask 077
mkdir -p "$dir"
name="cardroom-$(date -u +%Y%m%dT%H%M%SZ).dump"
# Written under another name and renamed once whole, so a dump cut short (a full disk, the
# database gone) is never mistaken for a backup, nor counted by the rotation below.
partial="$dir/.$name.partial"
trap 'rm -f -- "$partial"' EXIT
pg_dump --format=custom --file="$partial" --dbname="$DATABASE_URL"
# A dump pg_restore cannot read is no backup: read its table of contents before keeping it.
pg_restore --list "$partial" >/dev/null
mv -- "$partial" "$dir/$name"
echo "backup: $dir/$name ($(du -h -- "$dir/$name" | cut -f1))"

# The names sort by time (UTC stamps); remove all but the newest $keep. Only this script's
# own names are considered, so nothing else in the directory is ever removed.
find "$dir" -maxdepth 1 -type f -name 'cardroom-*.dump' -printf '%f\n' |
  grep -E '^cardroom-[0-9]{8}T[0-9]{6}Z\.dump$' |
  sort -r |
  tail -n +"$((keep + 1))" |
  while read -r old; do
    rm -f -- "$dir/$old"
    echo "removed: $dir/$old"
  done
