# The shared body of scripts/ci/setup-*.sh, sourced by each: install Debian packages from the archive unless the
# program they provide is already there. Needs root (or sudo) and the Debian archive. Prints what is installed.
#
#   install_debian BINARY VERSION_COMMAND PACKAGE…   # VERSION_COMMAND: a shell line printing BINARY's version
install_debian() {
  local binary="$1" version="$2"
  shift 2
  if [ -x "$binary" ]; then
    echo "$(basename "$binary") already installed: $(eval "$version")"
    return 0
  fi
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y --no-install-recommends "$@"
  eval "$version"
}
