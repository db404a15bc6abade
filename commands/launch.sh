# tokenless launcher (POSIX sh), installed as dist/launch.sh: `sh launch.sh NODE SCRIPT ARGS…` runs NODE SCRIPT ARGS…
# with Node's own variables moved aside, so the user's NODE_OPTIONS, NODE_V8_COVERAGE… act on the program that
# `tokenless run` starts (which gets them back unchanged, see childEnv in commands/run.ts) and not on our Node too.
#
# For `run [--view-as V] -- PROGRAM…` it decides first, without starting Node, where the program's output goes:
# - stdout a regular file (Claude Code's task output file, or a file the line redirected to): the program runs here
#   and writes straight into that file, as it would raw. Only if it appended at least TOKENLESS_RUN_VIEW_MIN_BYTES
#   (default 1024) does Node run afterwards (`run --view-file START --exit RC`) to replace what it appended by the
#   view; anything Node cannot do leaves the raw bytes where they are.
# - stdout a pipe or socket (another agent, a test harness): Node runs the program with a pipe of its own.
# - anything else (a terminal, /dev/null, closed), TOKENLESS_DISABLED, or limits Node cannot start in: PROGRAM runs
#   in place (exec), as typed, without us.
# The line's PATH may not find anything (`PATH=/nonexistent git status`): every tool here is named by absolute path.
node=$1 script=$2
shift 2

# tool VAR NAME: VAR is /usr/bin/NAME or /bin/NAME, or empty (no subshell: this runs on every wrapped command).
tool() {
  eval "$1="
  for dir in /usr/bin /bin; do
    if [ -x "$dir/$2" ]; then
      eval "$1=\$dir/\$2"
      return
    fi
  done
}

# Is the program found the way the shell would find it? If not, say so in the calling shell's words and exit 127.
not_found() {
  case $1 in */*) return 1 ;; esac
  save_ifs=$IFS
  IFS=:
  for dir in ${PATH-}; do
    if [ -f "${dir:-.}/$1" ] && [ -x "${dir:-.}/$1" ]; then
      IFS=$save_ifs
      return 1
    fi
  done
  IFS=$save_ifs
  # $0 of the shell that ran the line, as it prints it (`bash`, `/bin/bash`, `zsh`).
  shell=bash
  tool tr tr
  [ -n "$tr" ] && [ -r "/proc/$PPID/cmdline" ] && shell=$("$tr" '\0' '\n' <"/proc/$PPID/cmdline" 2>/dev/null | { IFS= read -r first && echo "$first"; })
  case ${shell##*/} in
    *zsh) echo "${shell##*/}:1: command not found: $1" >&2 ;;
    *sh) echo "$shell: line 1: $1: command not found" >&2 ;;
    *) echo "bash: line 1: $1: command not found" >&2 ;;
  esac
  return 0
}

in_place() {
  unset TOKENLESS_AGENT_ID TOKENLESS_SESSION_ID TOKENLESS_TOOL_USE_ID TOKENLESS_HOLD_MS
  exec "$@"
}

# Ends the way the program did: a death by signal (status 128+N) is re-raised on this shell so the caller sees a
# signal too, except a core-dumping one while cores are allowed (this shell would add a core of its own).
finish() {
  if [ "$1" -gt 128 ] && name=$(kill -l "$(($1 - 128))" 2>/dev/null) && [ -n "$name" ]; then
    case $name in
      QUIT | ILL | TRAP | ABRT | BUS | FPE | SEGV | XCPU | XFSZ | SYS) [ "$(ulimit -c 2>/dev/null)" = 0 ] || exit "$1" ;;
    esac
    trap - "$name"
    kill -s "$name" $$
  fi
  exit "$1"
}

move_node_vars() {
  for name in NODE_OPTIONS NODE_V8_COVERAGE NODE_DEBUG NODE_DEBUG_NATIVE NODE_REDIRECT_WARNINGS NODE_PENDING_DEPRECATION \
    NODE_NO_WARNINGS NODE_PATH NODE_PRESERVE_SYMLINKS NODE_ICU_DATA NODE_EXTRA_CA_CERTS NODE_CHANNEL_FD \
    NODE_CHANNEL_SERIALIZATION_MODE NODE_UNIQUE_ID NODE_COMPILE_CACHE NODE_DISABLE_COMPILE_CACHE NODE_TEST_CONTEXT \
    NODE_REPL_EXTERNAL_MODULE NODE_SKIP_PLATFORM_CHECK NODE_TLS_REJECT_UNAUTHORIZED UV_THREADPOOL_SIZE; do
    eval "if [ -n \"\${$name+set}\" ]; then export TOKENLESS_RUN_SAVED_$name=\"\$$name\"; unset $name; fi"
  done
}

# pos: fd 1's file offset from /proc (no subshell), or empty.
offset() {
  pos=
  if [ -r /proc/$$/fdinfo/1 ]; then
    while read -r key value; do
      case $key in pos:) pos=$value ;; esac
    done </proc/$$/fdinfo/1
  fi
  case $pos in '' | *[!0-9]*) pos= ;; esac
}

# Whether this env has --default-signal (GNU coreutils 8.31 and later). The answer is kept in the data directory,
# asked again whenever env is newer than it, so most runs pay no extra process for it.
default_signal_works() {
  host=
  [ -r /proc/sys/kernel/hostname ] && read -r host </proc/sys/kernel/hostname
  cache=${TOKENLESS_DATA_DIR:-${HOME:-/nonexistent}/.tokenless}/launch-env-${host:-host}
  if [ -f "$cache" ] && [ ! "$env" -nt "$cache" ]; then
    read -r answer <"$cache" 2>/dev/null
    case $answer in yes) return 0 ;; no) return 1 ;; esac
  fi
  if "$env" --default-signal=INT true 2>/dev/null; then answer=yes; else answer=no; fi
  { echo "$answer" >"$cache"; } 2>/dev/null
  [ "$answer" = yes ]
}

# Runs the program as this shell's child with fds 1 and 2 as they are, then decides whether Node views its output.
# The program is started in the background and waited for, so that this shell can close its own copy of stdin (a
# pipe's read end held here would keep the writer from getting SIGPIPE when the program stops reading) and so that
# a TERM or HUP sent to this shell alone still reaches the program (after FORWARD_GRACE, so a group kill, which has
# reached it already, is not delivered twice). A background job starts with SIGINT and SIGQUIT ignored: env puts
# back the default for those that were not ignored when the line started us.
run_here() {
  viewed=$1
  shift
  # Where fd 1's offset is: the end of everything the line wrote through it, which is the file's end unless something
  # reopened the file by name. The view replaces only bytes from here on, and stashes every one it replaces.
  # A description nothing wrote through yet has offset 0 whatever the file holds: then the size is asked for (test -s
  # answers an empty file without a process).
  offset
  start=$pos
  if [ "$start" = 0 ] && [ -s /dev/stdout ]; then
    tool stat stat
    start=
    [ -n "$stat" ] && start=$("$stat" -L -c %s "/proc/$$/fd/1" 2>/dev/null)
    case $start in '' | *[!0-9]*) start= ;; esac
  fi
  mask=
  if [ -r /proc/$$/status ]; then
    while read -r key value; do
      case $key in SigIgn:) mask=$value ;; esac
    done </proc/$$/status
  fi
  saved= defaults=
  if [ -n "$mask" ] && default_signal_works; then
    for fd in 9 8 7 6 5 4 3; do
      if [ ! -e "/proc/$$/fd/$fd" ]; then
        saved=$fd
        break
      fi
    done
    low=${mask#????????}
    [ $((0x$low & 2)) -eq 0 ] && defaults=INT
    [ $((0x$low & 4)) -eq 0 ] && defaults=${defaults:+$defaults,}QUIT
  fi
  count=$#
  set -- "$env" -u TOKENLESS_AGENT_ID -u TOKENLESS_SESSION_ID -u TOKENLESS_TOOL_USE_ID -u TOKENLESS_HOLD_MS ${defaults:+--default-signal=$defaults} -- "$@"
  if [ -n "$setpriv" ]; then set -- "$setpriv" --pdeathsig KILL -- "$@"; fi
  if [ -z "$saved" ]; then
    # No /proc or no env --default-signal: a plain foreground child.
    "$@"
    rc=$?
  else
    caught= forwarder= pid=
    trap 'caught=INT' INT
    trap 'caught=QUIT' QUIT
    trap 'caught=TERM; forward TERM' TERM
    trap 'caught=HUP; forward HUP' HUP
    eval "exec $saved<&0"
    eval "\"\$@\" 0<&$saved $saved<&- &"
    pid=$!
    eval "exec 0</dev/null $saved<&-"
    while :; do
      caught=
      wait "$pid" 2>/dev/null
      rc=$?
      [ -n "$caught" ] || break
      if ! kill -0 "$pid" 2>/dev/null; then
        # Collected meanwhile: a second wait still has its status, or says 127 when the first one had it.
        wait "$pid" 2>/dev/null
        again=$?
        [ "$again" -ne 127 ] && rc=$again
        break
      fi
    done
    [ -n "$forwarder" ] && kill "$forwarder" 2>/dev/null
    trap - INT QUIT TERM HUP
  fi
  shift $(($# - count))
  if [ -n "$start" ]; then
    offset
    end=${pos:-$start}
    min=${TOKENLESS_RUN_VIEW_MIN_BYTES:-1024}
    case $min in '' | *[!0-9]*) min=1024 ;; esac
    if [ $((end - start)) -ge "$min" ] && [ "$end" -gt "$start" ]; then
      move_node_vars
      if [ -n "$viewed" ]; then
        exec "$node" "$script" run --view-as "$viewed" --view-file "$start" --exit "$rc" -- "$@"
      fi
      exec "$node" "$script" run --view-file "$start" --exit "$rc" -- "$@"
    fi
  fi
  finish "$rc"
}

forward() {
  [ -n "$pid" ] || return
  [ -n "$sleep" ] || {
    kill -s "$1" "$pid" 2>/dev/null
    return
  }
  ("$sleep" 0.5 && kill -0 "$pid" 2>/dev/null && kill -s "$1" "$pid") </dev/null >/dev/null 2>&1 &
  forwarder=$!
}

if [ "$1" = run ]; then
  viewed= skip=
  if [ "$2" = -- ]; then
    skip=2
  elif [ "$2" = --view-as ] && [ "$4" = -- ]; then
    viewed=$3 skip=4
  fi
  if [ -n "$skip" ] && [ $# -gt "$skip" ]; then
    shift "$skip"
    if not_found "$1"; then exit 127; fi
    case ${TOKENLESS_DISABLED-} in 1 | [Tt][Rr][Uu][Ee] | [Yy][Ee][Ss] | [Oo][Nn]) in_place "$@" ;; esac
    # Under limits Node cannot start in (it aborts before running any JavaScript), the program runs as typed.
    # (Read from /proc without a subshell where it can: this runs on every wrapped command.)
    vmem= files=
    if [ -r /proc/$$/limits ]; then
      while read -r w1 w2 w3 soft rest; do
        case "$w1 $w2 $w3" in
          'Max address space') vmem=$soft ;;
          'Max open files') files=$soft ;;
        esac
      done </proc/$$/limits
      case $vmem in '' | *[!0-9]*) ;; *) vmem=$((vmem / 1024)) ;; esac
    else
      nl='
'
      limits=$(ulimit -v 2>/dev/null; ulimit -n 2>/dev/null)
      vmem=${limits%%"$nl"*} files=${limits#*"$nl"}
    fi
    case $vmem in '' | *[!0-9]*) vmem=unlimited ;; esac
    case $files in '' | *[!0-9]*) files=unlimited ;; esac
    if { [ "$vmem" != unlimited ] && [ "$vmem" -lt 2000000 ]; } || { [ "$files" != unlimited ] && [ "$files" -lt 64 ]; }; then
      in_place "$@"
    fi
    if [ -f /dev/stdout ]; then
      tool env env
      tool setpriv setpriv
      tool sleep sleep
      if [ -n "$env" ]; then run_here "$viewed" "$@"; fi
      in_place "$@"
    fi
    if [ ! -p /dev/stdout ] && [ ! -S /dev/stdout ]; then in_place "$@"; fi
    if [ -n "$viewed" ]; then set -- run --view-as "$viewed" -- "$@"; else set -- run -- "$@"; fi
  fi
fi
move_node_vars
exec "$node" "$script" "$@"
