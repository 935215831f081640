#!/bin/bash
# Prints the RFC 6962 tree heads tree.spec.ts checks, from sha256sum and xxd alone (no code of ours):
# the empty root, MTH of the first n of eight leaves for n = 1..8, and one leaf and one node hash.
leaves=("" "00" "10" "2021" "3031" "40414243" "5051525354555657" "606162636465666768696a6b6c6d6e6f")
lh() { printf '00%s' "$1" | xxd -r -p | sha256sum | cut -d' ' -f1; }
nh() { printf '01%s%s' "$1" "$2" | xxd -r -p | sha256sum | cut -d' ' -f1; }
mth() { # start end
  local a=$1 b=$2 n=$(($2-$1))
  if [ $n -eq 1 ]; then lh "${leaves[$a]}"; return; fi
  local k=1; while [ $((k*2)) -lt $n ]; do k=$((k*2)); done
  nh "$(mth $a $((a+k)))" "$(mth $((a+k)) $b)"
}
printf '' | sha256sum | cut -d' ' -f1
for n in 1 2 3 4 5 6 7 8; do echo "$n $(mth 0 $n)"; done
echo "leaf(L123456) $(lh $(printf 'L123456' | xxd -p))"
echo "node(N123,N456) $(nh $(printf N123 | xxd -p) $(printf N456 | xxd -p))"
