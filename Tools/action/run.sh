#!/usr/bin/env bash
# The action's main step. By default `layoutsnap verify --reporter github` with the action's
# inputs; with INPUT_MERGE_REPORTS, `layoutsnap merge-reports` of the shards' report folders. Then
# the outcome and counts of the run's results.json as step outputs. verify itself writes the
# annotations (stdout) and the job summary ($GITHUB_STEP_SUMMARY); for a merge, and when verify
# could not run far enough to write results.json (exit 2 before any fixture ran), this script
# writes the summary's lines (and, for the latter, an annotation). Exits with layoutsnap's exit
# code (0 passed, 1 a frame failed or is missing, 2 bad input).
#
# Environment, as action.yml passes it (each may be empty):
#   INPUT_PATHS (fixture files or folders, separated by spaces or newlines), INPUT_GOLDENS,
#   INPUT_SHARD (I/N), INPUT_LINT (warn, error or off), INPUT_CACHE (a cache folder, passed as
#   --cache only to a layoutsnap that has that option), INPUT_MERGE_REPORTS (the shards' report
#   folders or a glob of them), INPUT_REPORT (the report folder; default
#   $RUNNER_TEMP/layoutsnap-report), INPUT_ARGS (more arguments), INPUT_ARTIFACT_NAME (default
#   layoutsnap-report, -I added for shard I/N), INPUT_WORKING_DIRECTORY;
#   LAYOUTSNAP (the binary; default layoutsnap on PATH);
#   what a runner sets: GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_WORKSPACE, RUNNER_TEMP.
set -uo pipefail
bin="${LAYOUTSNAP:-layoutsnap}"
temp="${RUNNER_TEMP:-/tmp}"
output="${GITHUB_OUTPUT:-/dev/null}"
summary="${GITHUB_STEP_SUMMARY:-/dev/null}"
cd "${INPUT_WORKING_DIRECTORY:-.}" || exit 2

report="${INPUT_REPORT:-$temp/layoutsnap-report}"
read -r -d '' -a extra <<<"${INPUT_ARGS:-}" || true
if [ -n "${INPUT_MERGE_REPORTS:-}" ]; then
  # shellcheck disable=SC2206 # split and expanded as a glob, on purpose
  shards=(${INPUT_MERGE_REPORTS})
  args=(merge-reports "${shards[@]}" --out "$report" "${extra[@]}")
else
  args=(verify --reporter github --no-progress --report "$report")
  [ -n "${INPUT_GOLDENS:-}" ] && args+=(--goldens "$INPUT_GOLDENS")
  [ -n "${INPUT_SHARD:-}" ] && args+=(--shard "$INPUT_SHARD")
  [ -n "${INPUT_LINT:-}" ] && args+=(--lint "$INPUT_LINT")
  if [ -n "${INPUT_CACHE:-}" ]; then
    # Read whole, not piped into grep -q: with pipefail, grep's early exit would fail the pipe.
    help=$("$bin" verify --help 2>/dev/null || true)
    if [[ "$help" == *"--cache "* ]]; then
      args+=(--cache "$INPUT_CACHE")
    else
      echo "::notice title=layoutsnap::layoutsnap $("$bin" --version) has no --cache option; the cache input is ignored"
    fi
  fi
  read -r -d '' -a paths <<<"${INPUT_PATHS:-}" || true
  args+=("${extra[@]}" "${paths[@]}")
fi

artifact="${INPUT_ARTIFACT_NAME:-layoutsnap-report}"
[ -n "${INPUT_SHARD:-}" ] && [ -z "${INPUT_MERGE_REPORTS:-}" ] && artifact="$artifact-${INPUT_SHARD%%/*}"
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
if [ ! -f "$results" ]; then
  echo "outcome=error" >>"$output"
  echo "::error title=layoutsnap::${args[0]} exited $status before writing results.json; the log above says why"
  printf '### layoutsnap: error\n\n%s exited %s before writing %s; the log says why.\n' "${args[0]}" "$status" \
    "$results" >>"$summary"
  exit "$status"
fi
# The summary object of results.json, as layoutsnap's JSON writer lays it out: a top-level key,
# one "name" : value line per count. camelCase names become kebab-case outputs.
counts="$(awk '/^  "summary" : \{/ { inside = 1; next }
     inside && /^  \}/ { exit }
     inside { gsub(/[",]/, ""); split($0, kv, " : "); gsub(/ /, "", kv[1])
              name = kv[1]; gsub(/[A-Z]/, "-&", name); name = tolower(name)
              if (name != "exit-code") print name "=" kv[2] }' "$results")"
{
  echo "results=$results"
  echo "$counts"
} >>"$output"
if [ -n "${INPUT_MERGE_REPORTS:-}" ]; then
  count() { echo "$counts" | sed -n "s/^$1=//p"; }
  printf '## layoutsnap merge-reports: %s\n\n%s frames of %s fixtures from %s reports: %s passed, %s failed, %s missing.\n' \
    "$(count outcome)" "$(count frames)" "$(count fixtures)" "${#shards[@]}" "$(count passed)" "$(count failed)" \
    "$(count missing)" >>"$summary"
fi
exit "$status"
