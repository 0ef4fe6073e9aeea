#!/usr/bin/env bash
# Prints a JWT for the events endpoints (docs/longpoll-auth.md), signed HS256 with $EVENTS_AUTH_SECRET, for tests and
# the examples of deploy/: the topics it may subscribe to and publish on (comma-separated names or prefix*), and its
# lifetime in seconds. Needs bash and openssl.
#   TOKEN=$(deploy/mint-token.sh)                               # every topic, both actions, one hour
#   TOKEN=$(deploy/mint-token.sh 'room-1,lobby-*' 'room-1' 600)   # subscribe, publish, lifetime
set -euo pipefail
: "${EVENTS_AUTH_SECRET:?set EVENTS_AUTH_SECRET to the secret of the service}"
subscribe=${1-*}
publish=${2-*}
lifetime=${3-3600}

# A comma-separated list of topic names or prefix* as a JSON array; anything else is refused, never quoted.
json_list() {
  local entries=() entry
  IFS=',' read -ra entries <<< "$1"
  local out=""
  for entry in "${entries[@]}"; do
    [[ $entry =~ ^[A-Za-z0-9._-]{0,64}\*?$ && -n $entry ]] || { echo "not a topic name or prefix*: '$entry'" >&2; exit 2; }
    out+="${out:+,}\"$entry\""
  done
  printf '[%s]' "$out"
}
[[ $lifetime =~ ^[0-9]+$ ]] || { echo "the lifetime is a number of seconds: '$lifetime'" >&2; exit 2; }

b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
header=$(printf '{"alg":"HS256","typ":"JWT"}' | b64url)
subscribe_json=$(json_list "$subscribe")
publish_json=$(json_list "$publish")
payload=$(printf '{"sub":"mint-token","exp":%d,"events":{"subscribe":%s,"publish":%s}}' \
  "$(( $(date +%s) + lifetime ))" "$subscribe_json" "$publish_json" | b64url)
signature=$(printf '%s.%s' "$header" "$payload" | openssl dgst -sha256 -hmac "$EVENTS_AUTH_SECRET" -binary | b64url)
printf '%s.%s.%s\n' "$header" "$payload" "$signature"
