#!/usr/bin/env bash
# Installs the Debian packages of design.md section 8 when they are missing.
#
# LLVM: clang-22 + mlir-22-tools whenever apt offers them, even on a machine
# that already has the 19 fallback; 19 only when 22 is not offered, or when
# LOOM_LLVM=19 forces it. Every decision is printed.
#
#   tools/bootstrap-apt.sh            install what is missing
#   tools/bootstrap-apt.sh --decide   print the LLVM version it would use, change nothing
#   tools/bootstrap-apt.sh --missing  print the packages it would install, change nothing
#
# APT_CACHE and DPKG_QUERY name the apt-cache and dpkg-query commands (tests
# substitute fakes).
set -euo pipefail

base_pkgs=(build-essential libpython3.11 liblz4-dev zlib1g-dev ccache)
# make test renders <dfg>.<adg>.viz.html in headless Chromium (tests/mapper/test_viz_html.py)
test_pkgs=(chromium)
APT_CACHE=${APT_CACHE:-apt-cache}
DPKG_QUERY=${DPKG_QUERY:-dpkg-query}

missing() {  # prints the packages of "$@" that dpkg does not have installed
  local p status
  for p in "$@"; do
    status=$("$DPKG_QUERY" -W -f='${Status}' "$p" 2>/dev/null || true)
    [ "$status" = "install ok installed" ] || echo "$p"
  done
}

llvm_pkgs() { echo "clang-$1 mlir-$1-tools"; }

offered() {  # true when apt has an installation candidate for package $1
  # The whole output is read before it is tested: `apt-cache ... | grep -q`
  # under pipefail fails when grep stops early and apt-cache dies of SIGPIPE.
  local policy
  policy=$("$APT_CACHE" policy "$1" 2>/dev/null) || return 1
  [[ $policy =~ Candidate:\ [0-9] ]]
}

choose_llvm() {  # prints the LLVM version to install; the reason goes to stderr
  case "${LOOM_LLVM:-}" in
    "") ;;
    22|19) echo "bootstrap: LOOM_LLVM=$LOOM_LLVM forces LLVM $LOOM_LLVM" >&2
           echo "$LOOM_LLVM"; return ;;
    *) echo "bootstrap: error: LOOM_LLVM=$LOOM_LLVM is not 22 or 19" >&2; exit 2 ;;
  esac
  if [ -z "$(missing $(llvm_pkgs 22))" ] || { offered clang-22 && offered mlir-22-tools; }; then
    echo "bootstrap: LLVM 22 (clang-22 and mlir-22-tools installed or offered)" >&2
    echo 22
  else
    echo "bootstrap: clang-22/mlir-22-tools not offered by apt; falling back to LLVM 19" >&2
    echo 19
  fi
}

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

apt_updated=0
apt_update() {
  if [ "$apt_updated" = 0 ]; then
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    apt_updated=1
  fi
}

main() {
  # Package lists are needed to know what is offered, unless 22 is already here.
  if [ -n "$(missing $(llvm_pkgs 22))" ] && [ "${LOOM_LLVM:-}" != 19 ] \
     && [ -z "${1:-}" ]; then
    apt_update
  fi
  local version
  version=$(choose_llvm)
  if [ "${1:-}" = --decide ]; then
    echo "$version"
    return
  fi
  local todo p
  todo=$(missing "${base_pkgs[@]}" $(llvm_pkgs "$version"))
  # a test package apt does not offer is left out (its tests skip, saying why)
  for p in $(missing "${test_pkgs[@]}"); do
    [ -n "${1:-}" ] || apt_update
    if offered "$p"; then
      todo="$todo $p"
    else
      echo "bootstrap: $p is not offered by apt; the tests that need it will skip" >&2
    fi
  done
  if [ "${1:-}" = --missing ]; then
    echo $todo
    return
  fi
  if [ -z "$todo" ]; then
    echo "bootstrap: apt packages present (LLVM $version)"
    return
  fi
  echo "bootstrap: installing $(echo $todo)"
  apt_update
  # shellcheck disable=SC2086
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $todo >/dev/null
  echo "bootstrap: apt packages installed (LLVM $version)"
}

main "$@"
