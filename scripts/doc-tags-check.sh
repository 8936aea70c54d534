#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 the cuda-graph authors
# Checks that the documents name only tags (and commits) that exist in this clone: a user told to
# `git checkout v1.2.3` or sent to a release page must find it. It reads README.md, CHANGELOG.md,
# CONTRIBUTING.md and every docs/**/*.md (or the files given) for
#   - a version tag, vX.Y.Z (with a -suffix, if any), anywhere in the text;
#   - a GitHub release link, .../releases/tag/NAME, and a comparison, .../compare/A...B (HEAD and
#     commit hashes allowed);
#   - `git checkout NAME` where NAME is a version tag or a commit hash;
# and fails, naming file, line and tag, for each that `git tag` (or, for a hash, git's objects) lacks.
# Placeholders such as vX.Y.Z are not names. A shallow clone without tags fails on a tag that
# exists upstream: fetch the tags (git fetch --tags) first.
#
#   scripts/doc-tags-check.sh [FILE...]     (.ci/run runs it with no files, and then shows that a
#                                             document naming a missing tag fails it)
set -euo pipefail
cd "$(dirname "$0")/.."

# The names a document may give, as extended regular expressions: a version tag anywhere (not
# inside a longer name such as a model's bge-small-en-v1.5.0), a release page, a comparison and a
# checkout. A name ends at a space, a bracket, a quote or a backquote.
end='[^] )>`"'"'"'<]+'
patterns=(-e '(^|[^A-Za-z0-9_.-])v[0-9]+\.[0-9]+\.[0-9]+(-[A-Za-z0-9.]+)?' -e "/releases/tag/$end"
  -e "/compare/$end" -e "git checkout $end")

# check FILE...: prints one line per tag or commit named that does not exist; status 1 if any.
check() {
  local hit file rest number match name kind
  while IFS= read -r hit; do
    file=${hit%%:*} rest=${hit#*:}
    number=${rest%%:*} match=${rest#*:}
    case $match in
    /releases/tag/*) set -- "${match#/releases/tag/}" ;;
    /compare/*) match=${match#/compare/} && set -- "${match%%..*}" "${match##*..}" ;;
    "git checkout "*) set -- "${match#git checkout }" ;;
    *) set -- "v${match#*v}" ;;
    esac
    for name; do
      name=${name#.} name=${name%.}
      # HEAD, a branch and a placeholder (vX.Y.Z) have no digit; a checkout of a branch is no
      # release.
      [[ $name =~ [0-9] ]] || continue
      if [[ $name =~ ^[0-9a-f]{7,40}$ ]]; then
        git cat-file -e "$name^{commit}" 2> /dev/null ||
          echo "$file:$number: names commit $name, which this clone does not have"
      elif [[ $match != "git checkout "* || $name =~ ^v[0-9]+\.[0-9]+\.[0-9]+ ]]; then
        git rev-parse -q --verify "refs/tags/$name" > /dev/null ||
          echo "$file:$number: names tag $name, which this clone does not have (git tag lists:" \
            "$(git tag | paste -sd' ' | sed 's/^$/none/'))"
      fi
    done
  done < <(grep -noHE "${patterns[@]}" "$@" || :) | sort -t: -k1,1 -k2,2n | uniq | grep . || return 0
  return 1
}

if (($#)); then
  files=("$@")
else
  files=(README.md CHANGELOG.md CONTRIBUTING.md)
  while IFS= read -r file; do files+=("$file"); done < <(find docs -name '*.md' | sort)
fi
if ! problems=$(check "${files[@]}"); then
  echo "$problems" >&2
  echo "doc-tags-check: the documents above name tags or commits this clone lacks: name only" \
    "releases that are tagged (CONTRIBUTING.md, Releasing), or fetch the tags (git fetch --tags)" >&2
  exit 1
fi
echo "doc-tags-check: every tag and commit named in ${#files[@]} documents exists"

if ((!$#)); then
  # The check can fail: a document naming a tag, a release, a comparison and a commit that do not
  # exist.
  planted=$(mktemp)
  trap 'rm -f "$planted"' EXIT
  printf '%s\n' 'Check out the release: `git checkout v0.0.0-planted`.' \
    '[0.0.1]: https://github.com/cudagraph/cuda-graph/releases/tag/v0.0.1' \
    '[Unreleased]: https://github.com/cudagraph/cuda-graph/compare/v0.0.2...HEAD' \
    'Or build the commit: `git checkout 0000000`.' > "$planted"
  found=$(check "$planted" | wc -l || :)
  [[ $found == 4 ]] || {
    echo "doc-tags-check: a document naming three missing tags and a missing commit was found to" \
      "name $found" >&2
    exit 1
  }
  echo "doc-tags-check: a document naming a missing tag (checked out, a release, a comparison) or" \
    "commit fails it"
fi
