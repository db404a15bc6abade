# tokenless launcher (POSIX sh), installed as dist/launch.sh: `sh launch.sh NODE SCRIPT ARGS…` runs NODE SCRIPT ARGS…
# with Node's own variables moved aside, so the user's NODE_OPTIONS, NODE_V8_COVERAGE… act on the program that
# `tokenless run` starts (which gets them back unchanged, see childEnv in commands/run.ts) and not on our Node too.
# Fail-open: for `run -- PROGRAM…` under limits that Node cannot start in (it aborts before running any JavaScript),
# PROGRAM runs as typed, without us.
node=$1 script=$2
shift 2
if [ "$1" = run ] && [ "$2" = -- ] && [ $# -gt 2 ]; then
  nl='
'
  limits=$(ulimit -v 2>/dev/null; ulimit -n 2>/dev/null)
  vmem=${limits%%"$nl"*} files=${limits#*"$nl"}
  case $vmem in ''|*[!0-9]*) vmem=unlimited ;; esac
  case $files in ''|*[!0-9]*) files=unlimited ;; esac
  if { [ "$vmem" != unlimited ] && [ "$vmem" -lt 2000000 ]; } || { [ "$files" != unlimited ] && [ "$files" -lt 64 ]; }; then
    shift 2
    unset TOKENLESS_AGENT_ID TOKENLESS_SESSION_ID TOKENLESS_TOOL_USE_ID
    exec "$@"
  fi
fi
for name in NODE_OPTIONS NODE_V8_COVERAGE NODE_DEBUG NODE_DEBUG_NATIVE NODE_REDIRECT_WARNINGS NODE_PENDING_DEPRECATION \
  NODE_NO_WARNINGS NODE_PATH NODE_PRESERVE_SYMLINKS NODE_ICU_DATA NODE_EXTRA_CA_CERTS NODE_CHANNEL_FD \
  NODE_CHANNEL_SERIALIZATION_MODE NODE_UNIQUE_ID NODE_COMPILE_CACHE NODE_DISABLE_COMPILE_CACHE NODE_TEST_CONTEXT \
  NODE_REPL_EXTERNAL_MODULE NODE_SKIP_PLATFORM_CHECK NODE_TLS_REJECT_UNAUTHORIZED UV_THREADPOOL_SIZE; do
  eval "if [ -n \"\${$name+set}\" ]; then export TOKENLESS_RUN_SAVED_$name=\"\$$name\"; unset $name; fi"
done
exec "$node" "$script" "$@"
