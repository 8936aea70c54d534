#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Checks scripts/install-library.sh, the lean install: it installs the core artifacts (bom, spi, api,
# driver, simulator, testkit, blas, nccl) and nothing else, and resolves no jar of what a library
# user does not need: the Kotlin compiler and its Maven plugin, Dokka, ONNX Runtime, LangChain4j,
# DJL or Spring.
#
#   scripts/install-library-check.sh      (.ci/run runs it after ./mvnw verify, which fills ~/.m2)
#
# 1. The install runs offline (-o) into a throwaway repository whose tail (maven.repo.local.tail) is
#    a view of ~/.m2/repository through symbolic links, less those jars and less this build's own
#    artifacts (a snapshot there would stand in for a module). Each jar of those the build resolves
#    is then missing, and Maven, offline, fails naming it: what Maven resolved is judged (from its
#    log), not what the repository holds, and nothing is downloaded or copied. Their POMs stay in the
#    view: Maven reads every module's model whatever -pl says, spring-ai's imported Spring BOMs too.
# 2. The log must show a successful build that names none of those artifacts and installs exactly
#    the core artifacts.
# 3. The check can fail: the install with kotlin added (which needs the Kotlin compiler) and with
#    conformance-tests added (a published module, not a core one), each resumed at that module over
#    what step 1 installed, must each be refused, saying why.
# Exits 1, with the reasons and the end of the log, when the install breaks a rule.
set -euo pipefail
cd "$(dirname "$0")/.."
fail() { echo "install-library-check: $*" >&2; exit 1; }

core=(cuda-graph-bom cuda-graph-spi cuda-graph-api cuda-graph-driver cuda-graph-simulator
  cuda-graph-testkit cuda-graph-blas cuda-graph-nccl)
# What the lean install must not resolve, as GROUP:ARTIFACT globs.
left_out=('org.jetbrains.kotlin:kotlin-compiler*' 'org.jetbrains.kotlin:kotlin-maven-plugin'
  'org.jetbrains.dokka:*' 'com.microsoft.onnxruntime:*' 'dev.langchain4j:*' 'ai.djl:*' 'ai.djl.*:*'
  'org.springframework:*' 'org.springframework.*:*')

source=${INSTALL_CHECK_TAIL_REPOSITORY:-$HOME/.m2/repository}
[[ -d $source ]] || fail "no Maven repository at $source to read from (run ./mvnw verify first)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
SECONDS=0

# The view: every file of the repository linked, then the left-out jars and this build's artifacts
# unlinked (GNU cp; the links are removed, never what they point to).
cp -rs "$source/." "$work/tail/"
rm -rf "$work/tail/io/github/cudagraph"
hidden=0
while IFS= read -r jar; do
  path=${jar#./}
  rest=${path%/*/*/*} # GROUP/AS/DIRS
  artifact=${path#"$rest"/}
  artifact=${artifact%%/*}
  for glob in "${left_out[@]}"; do
    # shellcheck disable=SC2053 # the glob is a pattern on purpose
    if [[ ${rest//\//.}:$artifact == $glob ]]; then
      rm "$work/tail/$path"
      hidden=$((hidden + 1))
      break
    fi
  done
done < <(cd "$work/tail" && find . -name '*.jar')
echo "install-library-check: the tail is $source, less $hidden left-out jars and io.github.cudagraph"

# A left-out artifact named in a log: as coordinates (group:artifact) or a repository path.
mentions=
for glob in "${left_out[@]}"; do
  group=${glob%%:*} artifact=${glob#*:}
  group=${group//./\\.} artifact=${artifact//./\\.}
  group=${group//\*/[A-Za-z0-9_.-]*} artifact=${artifact//\*/[A-Za-z0-9_.-]*}
  mentions+="${mentions:+|}(^|[^A-Za-z0-9_.-])$group:$artifact(:|\$| )|/${group//\\./\/}/$artifact/"
done

# judge LOG STATUS: prints each rule the install (whose Maven log and exit status these are) broke;
# status 1 if any.
judge() {
  local log=$1 status=$2 named installed extra missing
  named=$(grep -oE "$mentions" "$log" | sed -E 's/^[^A-Za-z0-9_./-]//; s/[: ]$//' | sort -u | paste -sd' ' || :)
  installed=$(sed -nE "s#^\[INFO\] Installing .* to $work/repository/io/github/cudagraph/([^/]+)/.*#\1#p" \
    "$log" | sort -u)
  extra=$(comm -23 <(echo "$installed") <(printf '%s\n' "${core[@]}" | sort) | paste -sd' ' || :)
  missing=$(comm -13 <(echo "$installed") <(printf '%s\n' "${core[@]}" | sort) | paste -sd' ' || :)
  local broken=0
  if [[ -n $named ]]; then
    echo "it resolved what the lean install must leave out: $named"
    broken=1
  fi
  if [[ -n $extra ]]; then
    echo "it installed what is not a core artifact: $extra"
    broken=1
  fi
  if [[ $status != 0 ]]; then
    echo "the install failed (exit $status):"
    grep -E '^\[ERROR\] ' "$log" | grep -vE '^\[ERROR\] *$|^\[ERROR\] (-> )?\[Help|the -e switch|the -X switch|For more information|After correcting|mvn <args>' \
      | head -5 | sed 's/^/    /'
    broken=1
  elif [[ -n $missing && ${3:-} == whole ]]; then
    echo "it did not install every core artifact: $missing missing"
    broken=1
  fi
  return "$broken"
}

# install NAME [ARGUMENTS...]: the lean install, offline, into the throwaway repository (the same
# for every run), its log in $work/NAME.log; prints its exit status.
install() {
  local name=$1 status=0
  shift
  scripts/install-library.sh "$@" -o -Dmaven.repo.local="$work/repository" \
    -Dmaven.repo.local.tail="$work/tail" > "$work/$name.log" 2>&1 || status=$?
  echo "$status"
}

status=$(install lean)
if ! reasons=$(judge "$work/lean.log" "$status" whole); then
  tail -40 "$work/lean.log"
  fail "scripts/install-library.sh breaks the lean install's rules (its log's end above):
$reasons"
fi
echo "install-library-check: the lean install installed exactly ${core[*]} and resolved none of" \
  "the left-out artifacts (${SECONDS} s)"

# The check can fail.
for planted in "kotlin cuda-graph-kotlin org.jetbrains.kotlin" \
  "conformance-tests cuda-graph-conformance cuda-graph-conformance"; do
  read -r module artifact want <<< "$planted"
  status=$(install "$module" --with "$module" -rf ":$artifact")
  if reasons=$(judge "$work/$module.log" "$status"); then
    tail -40 "$work/$module.log"
    fail "the install with $module added passed the check (its log's end above)"
  fi
  [[ $reasons == *"$want"* ]] || fail "the install with $module added was refused, but not for" \
    "naming $want: $reasons"
  echo "install-library-check: the install with $module added is refused: ${reasons%%$'\n'*}"
done
echo "install-library-check: OK (${SECONDS} s)"
