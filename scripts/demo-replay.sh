#!/usr/bin/env bash
# What the replay steps of `make demo` share (demo-poison.sh, demo-jms.sh,
# demo-webhook.sh, demo-aem.sh source it; it does nothing run on its own):
# the repository and go command, a temporary directory removed on exit, the
# build of one program under internal/cmd and its run under timeout(1).
#
#   . "$(dirname "$0")/demo-replay.sh" NAME   sets REPO, GO and tmp
#                                             (sapmessaging-NAME.XXXXXX)
#   replay_build PROGRAM                      builds ./internal/cmd/PROGRAM
#                                             into ${tmp}/PROGRAM
#   replay_run LIMIT COMMAND...               runs COMMAND; timeout(1), when
#                                             present, stops it after LIMIT
#                                             (the command's own -timeout is
#                                             shorter), guarding the run that
#                                             follows the build as well

REPO="${REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
GO="${GO:-go}"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/sapmessaging-${1:?the name of the replay}.XXXXXX")"
trap 'rm -rf "${tmp}"' EXIT

replay_build() {
  (cd "${REPO}" && "${GO}" build -o "${tmp}/$1" "./internal/cmd/$1")
}

replay_run() {
  local limit="$1"
  shift
  if command -v timeout >/dev/null 2>&1; then
    timeout --kill-after=10s "${limit}" "$@"
  else
    "$@"
  fi
}
