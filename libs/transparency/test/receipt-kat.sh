#!/bin/bash
# Prints the receipt known answer receipt.spec.ts and docs/audit.md use, made with openssl, sha256sum,
# xxd and base64 alone (no code of ours), with RFC 8032's first test key as note-kat.sh.
set -euo pipefail
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
b64url() { base64 -w0 | tr '+/' '-_' | tr -d '='; }
printf '302e020100300506032b657004220420%s' 9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60 |
  xxd -r -p >"$dir/k.der"
openssl pkey -inform DER -in "$dir/k.der" -out "$dir/k.pem"
origin=route-service/rfc8032-test1
body='{"requestId":"kat-1","note":"a stand-in response body"}'
sha=$(printf '%s' "$body" | openssl dgst -sha256 -binary | b64url)
record='{"v":2,"type":"quote","requestId":"kat-1"}'
rec=$({ printf '\x00'; printf '%s' "$record"; } | openssl dgst -sha256 -binary | b64url)
printf 'route-service receipt v1\n%s\nkat-1\n%s\n%s\n1767225600000\n' "$origin" "$sha" "${#body}" >"$dir/q"
echo "sha256 $sha bytes ${#body} recordHash $rec"
echo "signature $(openssl pkeyutl -sign -inkey "$dir/k.pem" -rawin -in "$dir/q" | b64url)"
