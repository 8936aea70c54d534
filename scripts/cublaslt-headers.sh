#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Brings NVIDIA's cuBLASLt headers (cublasLt.h and cublas_api.h, which it includes) into
# target/cublaslt/include and prints that folder, so that CI compiles the cuBLASLt anchors
# (scripts/compile-anchors.sh) with an nvcc that comes without cuBLAS. Nothing is linked with them.
#
# Where they come from: Debian's nvidia-cuda-dev package (section non-free, the CUDA 12.4 of
# Debian 13, the newest CUDA a Debian release carries), fetched with apt from the Debian mirror
# this machine's apt already uses; apt checks it against the release's signed index, this script
# against the package's and the two headers' SHA-256 below; the package is deleted after. Maven
# Central has no such header: org.bytedeco's cuda, cuda-redist and platform jars (looked at up to
# 13.3-9.25-1.5.14) carry bindings and libraries only. CUDA 12.4's cuBLASLt declares every call
# the anchors make; the GPU host compiles them against its own toolkit's headers.
#   bash scripts/cublaslt-headers.sh      (exit 1, saying why, if they cannot be had)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$root/target/cublaslt
inc=$dir/include
version='12.4.127~12.4.1-2'
deb_sha256=d846838f914a0176948d48a8bcade5d6dbcccb5c9374343f6475f5503f173ee0
declare -A header_sha256=(
  [cublasLt.h]=e752b21d073b4fdaf19957cd8a63fd3babe46bc26a05d79b8d928258a65a92de
  [cublas_api.h]=5d102b9600f2ff8856b84b7c5da7d1b04f4a449e57568d3a361d75ddc820fbba
)

fail() { echo "cublaslt-headers.sh: $*" >&2; exit 1; }

# intact DIR: every header in DIR with its checksum.
intact() {
  local h
  for h in "${!header_sha256[@]}"; do
    [ -f "$1/$h" ] && [ "$(sha256sum < "$1/$h" | cut -d' ' -f1)" = "${header_sha256[$h]}" ] || return 1
  done
}

if intact "$inc"; then echo "$inc"; exit 0; fi

command -v apt-get > /dev/null && command -v dpkg-deb > /dev/null \
  || fail "needs apt-get and dpkg-deb (a Debian machine) to fetch Debian's nvidia-cuda-dev $version"
# The mirror of the machine's own Debian sources (deb822 or one-line format).
mirror=$(sed -n 's#^URIs:[[:space:]]*\([^[:space:]]*/debian\)/\{0,1\}[[:space:]]*$#\1#p' \
  /etc/apt/sources.list.d/*.sources 2> /dev/null | head -1)
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $2 ~ /\/debian\/?$/ { print $2; exit }' \
  /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2> /dev/null)
[ -n "$mirror" ] || fail "found no Debian mirror in /etc/apt/sources.list{,.d}: cannot fetch nvidia-cuda-dev $version"

rm -rf "$dir"
mkdir -p "$dir/apt/lists/partial" "$dir/apt/archives/partial" "$dir/unpacked"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror trixie non-free" > "$dir/apt/sources.list"
# A private apt state: the machine's own lists and cache are left as they are. The download runs
# as root (apt's _apt user cannot write into target/), which apt would otherwise warn about.
apt=(apt-get -q -o "Dir::Etc::sourcelist=$dir/apt/sources.list" -o Dir::Etc::sourceparts=-
  -o "Dir::State::Lists=$dir/apt/lists" -o "Dir::Cache=$dir/apt" -o APT::Sandbox::User=root)
log=$dir/fetch.log
"${apt[@]}" update > "$log" 2>&1 || { cat "$log" >&2; fail "apt-get update of Debian trixie non-free from $mirror failed"; }
(cd "$dir" && "${apt[@]}" download "nvidia-cuda-dev=$version") >> "$log" 2>&1 \
  || { cat "$log" >&2; fail "apt-get download nvidia-cuda-dev=$version failed (gone from Debian 13? pick the version it has now and update this script's checksums)"; }
deb=$(ls "$dir"/nvidia-cuda-dev_*.deb)
[ "$(sha256sum < "$deb" | cut -d' ' -f1)" = "$deb_sha256" ] || fail "$deb: SHA-256 is not $deb_sha256"
# The headers lie near the start of the package: tar stops once it has both (--occurrence), and
# dpkg-deb, cut off then, exits on SIGPIPE; the headers' checksums below are what counts.
{ dpkg-deb --fsys-tarfile "$deb" 2> /dev/null || true; } \
  | tar -x -C "$dir/unpacked" --occurrence ./usr/include/cublasLt.h ./usr/include/cublas_api.h
intact "$dir/unpacked/usr/include" || fail "the headers unpacked from $deb do not have the expected SHA-256"
mv "$dir/unpacked/usr/include" "$inc"
rm -rf "$dir/unpacked" "$dir/apt" "$deb"
echo "$inc"
