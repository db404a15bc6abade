# The shared body of scripts/install-*.sh, sourced by each: reuse the pinned client when the caller's `installed`
# check says it is in place, else install PACKAGE into $DIR from the npm registry and check again. Prints $BIN on
# stdout (npm's own output goes to stderr); fails when the client is still not there afterwards.
#
#   install_pinned NAME PACKAGE [npm options…]    # uses the caller's $DIR, $BIN, $VERSION and installed()
install_pinned() {
  local name="$1" package="$2"
  shift 2
  if installed; then
    echo "$BIN"
    return 0
  fi
  mkdir -p "$DIR"
  # A private package.json keeps npm from walking up into any project that happens to contain the cache directory.
  [ -f "$DIR/package.json" ] || printf '{"name":"syt-%s-cache","private":true}\n' "$name" > "$DIR/package.json"
  npm install --prefix "$DIR" --no-audit --no-fund --loglevel=error "$@" "$package" >&2
  if ! installed; then
    echo "install-$name: $BIN is missing or not version $VERSION" >&2
    return 1
  fi
  echo "$BIN"
}

# An `installed` check for a client whose `--version` cannot be trusted to answer offline or quickly: $BIN is there and
# PACKAGE's own package.json under $DIR names $VERSION.
#
#   installed() { package_installed @google/gemini-cli; }
package_installed() {
  [ -x "$BIN" ] && [ "$(node -p "require('$DIR/node_modules/$1/package.json').version" 2>/dev/null)" = "$VERSION" ]
}
