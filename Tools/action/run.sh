#!/usr/bin/env bash
# The action's verify step: `layoutsnap verify --reporter github` with the action's inputs, then
# the outcome and counts of the run's results.json as step outputs. verify itself writes the
# annotations (stdout) and the job summary ($GITHUB_STEP_SUMMARY); when it could not run far
# enough to write results.json (exit 2 before any fixture ran), this script writes an annotation
# and the summary's line. Exits with verify's exit code (0 passed, 1 a frame failed, 2 bad input).
#
# Environment, as action.yml passes it (each may be empty):
#   INPUT_PATHS (fixture files or folders, separated by spaces or newlines), INPUT_GOLDENS,
#   INPUT_SHARD (I/N), INPUT_LINT (warn, error or off), INPUT_CACHE (a cache folder, passed as
#   --cache only to a layoutsnap that has that option), INPUT_REPORT (the report folder; default
#   $RUNNER_TEMP/layoutsnap-report), INPUT_ARGS (more verify arguments), INPUT_ARTIFACT_NAME
#   (default layoutsnap-report, -I added for shard I/N), INPUT_WORKING_DIRECTORY;
#   LAYOUTSNAP (the binary; default layoutsnap on PATH);
#   what a runner sets: GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_WORKSPACE, RUNNER_TEMP.
set -uo pipefail
bin="${LAYOUTSNAP:-layoutsnap}"
temp="${RUNNER_TEMP:-/tmp}"
output="${GITHUB_OUTPUT:-/dev/null}"
cd "${INPUT_WORKING_DIRECTORY:-.}" || exit 2

report="${INPUT_REPORT:-$temp/layoutsnap-report}"
args=(verify --reporter github --no-progress --report "$report")
[ -n "${INPUT_GOLDENS:-}" ] && args+=(--goldens "$INPUT_GOLDENS")
[ -n "${INPUT_SHARD:-}" ] && args+=(--shard "$INPUT_SHARD")
[ -n "${INPUT_LINT:-}" ] && args+=(--lint "$INPUT_LINT")
if [ -n "${INPUT_CACHE:-}" ]; then
  if "$bin" verify --help 2>/dev/null | grep -q -- '--cache '; then
    args+=(--cache "$INPUT_CACHE")
  else
    echo "::notice title=layoutsnap::layoutsnap $("$bin" --version) has no --cache option; the cache input is ignored"
  fi
fi
read -r -d '' -a extra <<<"${INPUT_ARGS:-}" || true
read -r -d '' -a paths <<<"${INPUT_PATHS:-}" || true
args+=("${extra[@]}" "${paths[@]}")

artifact="${INPUT_ARTIFACT_NAME:-layoutsnap-report}"
[ -n "${INPUT_SHARD:-}" ] && artifact="$artifact-${INPUT_SHARD%%/*}"
rm -f "$report/results.json"
echo "layoutsnap ${args[*]}"
"$bin" "${args[@]}"
status=$?

results="$report/results.json"
{
  echo "exit-code=$status"
  echo "report=$report"
  echo "artifact-name=$artifact"
} >>"$output"
if [ -f "$results" ]; then
  echo "results=$results" >>"$output"
  # The summary object of results.json, as layoutsnap's JSON writer lays it out: a top-level key,
  # one "name" : value line per count.
  awk '/^  "summary" : \{/ { inside = 1; next }
       inside && /^  \}/ { exit }
       inside { gsub(/[",]/, ""); split($0, kv, " : "); gsub(/ /, "", kv[1]);
                name = kv[1]; gsub(/[A-Z]/, "-&", name); name = tolower(name)
                if (name != "exit-code") print name "=" kv[2] }' "$results" >>"$output"
else
  echo "outcome=error" >>"$output"
  echo "::error title=layoutsnap::verify exited $status before writing results.json; the log above says why"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    printf '### layoutsnap: error\n\nverify exited %s before writing %s; the log says why.\n' "$status" "$results" \
      >>"$GITHUB_STEP_SUMMARY"
  fi
fi
exit "$status"
