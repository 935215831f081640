#!/bin/bash
# Prints the signed-checkpoint known answer note.spec.ts checks, made with openssl, sha256sum and
# xxd alone (no code of ours). The key is RFC 8032's first Ed25519 test key (seed 9d61b1...).
set -euo pipefail
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
seed=9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60
name=route-service/rfc8032-test1
printf '302e020100300506032b657004220420%s' $seed | xxd -r -p >"$dir/k.der"
openssl pkey -inform DER -in "$dir/k.der" -out "$dir/k.pem"
pub=$(openssl pkey -in "$dir/k.pem" -pubout -outform DER | tail -c 32 | xxd -p -c 64)
{ printf '%s\n\x01' "$name"; printf '%s' "$pub" | xxd -r -p; } >"$dir/kid"
kid=$(sha256sum "$dir/kid" | cut -c1-8)
echo "public key $pub, key id $kid"
echo "vkey $name+$kid+$(printf '01%s' "$pub" | xxd -r -p | base64 -w0)"
# The root of the eight-leaf tree mth.sh prints, as a checkpoint of size 8.
root=$(printf '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328' | xxd -r -p | base64 -w0)
printf '%s\n8\n%s\n' "$name" "$root" >"$dir/text"
cat "$dir/text"
echo
echo "— $name $({ printf '%s' "$kid" | xxd -r -p; openssl pkeyutl -sign -inkey "$dir/k.pem" -rawin -in "$dir/text"; } | base64 -w0)"
