#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Builds the release bundle as a release would, signed with a throwaway key, and checks that Maven
# Central would take it. Tests are skipped: run them first (.ci/run runs this after the README's
# test command). Nothing leaves the machine; Maven reaches Maven Central only.
#
#   scripts/release-check.sh [-o]      -o: Maven offline (everything already in ~/.m2)
#
# 1. A throwaway signing key (ed25519, no passphrase, one day) in a temporary GNUPGHOME.
# 2. ./mvnw -Prelease -DskipTests verify: each published module's flattened POM, jar, sources and
#    javadoc jars (Dokka's for the Kotlin module) and Gradle module metadata, signed and
#    checksummed, laid out in target/central-bundle (repository layout); unpublished modules are
#    neither installed, deployed nor bundled.
# 3. target/central-bundle.zip, the file Maven Central's portal takes.
# 4. The checks: every signature verifies with gpg against the throwaway key, and
#    scripts/release/CheckBundle.java (the artifacts are the BOM's, each file signed and
#    checksummed, the POMs flattened: no parent, no build configuration; Gradle metadata saying Java
#    25).
# 5. The checks catch what they are for: a copy of the bundle with a changed jar, a POM with a
#    parent and a javadoc jar missing fails them.
set -euo pipefail

cd "$(dirname "$0")/.."
offline=()
[ "${1:-}" = "-o" ] && offline=(-o)

. scripts/jdk25.sh

GNUPGHOME=$(mktemp -d)
export GNUPGHOME
work=$(mktemp -d)
cleanup() {
  # The agent this GNUPGHOME started, and nothing else.
  gpgconf --kill gpg-agent 2>/dev/null || :
  rm -rf "$GNUPGHOME" "$work"
}
trap cleanup EXIT

gpg --batch --quiet --passphrase '' --quick-gen-key \
  "cuda-graph release check (throwaway key)" ed25519 sign 1d 2>/dev/null
echo "release-check: signing with a throwaway key in $GNUPGHOME"

./mvnw -B -ntp "${offline[@]}" -Prelease -DskipTests verify > "$work/build.log" 2>&1 || {
  tail -60 "$work/build.log"
  echo "release-check: the release build failed (log above)"
  exit 1
}
grep -E "^\[(WARNING|ERROR)\]" "$work/build.log" && {
  echo "release-check: the release build printed the warnings above"
  exit 1
}

bundle=target/central-bundle
[ -d "$bundle" ] || { echo "release-check: the build made no $bundle"; exit 1; }
rm -f target/central-bundle.zip
(cd "$bundle" && "$JAVA_HOME/bin/jar" --create --no-manifest --file ../central-bundle.zip .)
echo "release-check: target/central-bundle.zip ($(du -k target/central-bundle.zip | cut -f1) KiB)"

# Every signature, against the signed file beside it.
verify_signatures() {
  local dir=$1 bad=0 n=0 asc
  while IFS= read -r asc; do
    n=$((n + 1))
    gpg --batch --quiet --verify "$asc" "${asc%.asc}" 2>/dev/null || {
      echo "BAD SIGNATURE: ${asc#"$dir"/}"
      bad=$((bad + 1))
    }
  done < <(find "$dir" -name '*.asc' | sort)
  echo "signatures: $n checked, $bad bad"
  [ "$n" -gt 0 ] && [ "$bad" -eq 0 ]
}

status=0
verify_signatures "$bundle" || status=1
"$JAVA_HOME/bin/java" scripts/release/CheckBundle.java . "$bundle" || status=1
if [ "$status" -ne 0 ]; then
  echo "release-check: FAILED"
  exit 1
fi

# The checks must be able to fail: spoil a copy three ways and expect each to be caught.
spoiled="$work/spoiled"
cp -r "$bundle" "$spoiled"
api=$(find "$spoiled" -type d -name 'cuda-graph-api')/*
printf 'x' >> $api/cuda-graph-api-*[0-9T].jar
sed -i 's#<modelVersion>4.0.0</modelVersion>#&<parent><groupId>g</groupId><artifactId>a</artifactId><version>1</version></parent>#' \
  $api/cuda-graph-api-*.pom
rm $(find "$spoiled" -name 'cuda-graph-kotlin-*-javadoc.jar')
caught=$("$JAVA_HOME/bin/java" scripts/release/CheckBundle.java . "$spoiled" || :)
signatures=$(verify_signatures "$spoiled" || :)
for expected in "BAD SIGNATURE: .*cuda-graph-api-[^ ]*[0-9T].jar.asc" \
  "PROBLEM: cuda-graph-api-.*pom has a <parent>" \
  "PROBLEM: cuda-graph-kotlin lacks .*-javadoc.jar" \
  "PROBLEM: cuda-graph-api-[^ ]*.jar.md5 does not match"; do
  if ! printf '%s\n%s\n' "$caught" "$signatures" | grep -qE "$expected"; then
    echo "release-check: a spoiled bundle was not caught: no line matches '$expected'"
    printf '%s\n%s\n' "$caught" "$signatures"
    exit 1
  fi
done
echo "release-check: a spoiled copy (changed jar, POM with a parent, javadoc jar missing) is caught"
echo "release-check: OK"
