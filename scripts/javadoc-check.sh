#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Checks the Javadoc command users try, `./mvnw -pl api,blas javadoc:javadoc`, as they run it: in a
# fresh clone of this commit that has never built (no target/ folder), with the build's Javadoc
# settings (snippets from the tests, warnings as errors).
#
#   scripts/javadoc-check.sh [-o]      -o: Maven offline (everything already in ~/.m2)
#
# Maven 3.9 takes the modules a -pl list leaves out (the SPI, for the api), and those it lists but
# does not compile in the same build (the api, for blas), from the local repository, as for any -pl
# without -am. So this first installs the api and what it needs (tests, sources and Javadoc skipped)
# into a throwaway local repository that chains ~/.m2/repository as a read-only tail, as
# scripts/consumer-check.sh does: ~/.m2 never receives a snapshot of this build. It fails unless
# the command succeeds and both modules' pages, with their compiled examples, are there.
set -euo pipefail

cd "$(dirname "$0")/.."
offline=()
[ "${1:-}" = "-o" ] && offline=(-o)
fail() { echo "javadoc-check: $*" >&2; exit 1; }

. scripts/jdk25.sh

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
repository=(-Dmaven.repo.local="$work/repository"
  -Dmaven.repo.local.tail="$HOME/.m2/repository")

SECONDS=0
./mvnw -B -ntp "${offline[@]}" "${repository[@]}" -pl api -am -DskipTests -Dmaven.javadoc.skip=true \
  -Dmaven.source.skip=true -Dspotless.check.skip=true install > "$work/install.log" 2>&1 || {
  tail -60 "$work/install.log"
  fail "installing the api and what it needs failed (log above)"
}
git clone -q "$PWD" "$work/clone"
(cd "$work/clone" && ./mvnw -B -ntp "${offline[@]}" "${repository[@]}" -pl api,blas javadoc:javadoc) \
  > "$work/javadoc.log" 2>&1 || {
  tail -60 "$work/javadoc.log"
  fail "./mvnw -pl api,blas javadoc:javadoc failed in a fresh clone (log above)"
}
for page in api/target/reports/apidocs/cuda.graph/cuda/graph/KernelImage.html \
  blas/target/reports/apidocs/cuda.graph.blas/cuda/graph/blas/Blas.html; do
  [ -f "$work/clone/$page" ] || fail "no $page after the command"
  grep -q 'class="snippet' "$work/clone/$page" || fail "$page shows no example"
done
echo "javadoc-check: ./mvnw -pl api,blas javadoc:javadoc works in a fresh clone (${SECONDS} s)"
