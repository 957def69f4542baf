#!/usr/bin/env bash
# The action's install step: puts layoutsnap on the runner with apt, from a .deb (a URL, such as a
# release asset, or a path), or built from the action's own checkout (Tools/build-deb, which needs
# Swift 6 and the -dev packages: .ci/install --runtime). The job should run in a Debian 12
# container (`container: debian:12`): the goldens' pixels are Debian 12's libraries and fonts.
# Environment: INPUT_PACKAGE (URL, path or empty), GITHUB_ACTION_PATH (the action's checkout),
# RUNNER_TEMP, GITHUB_OUTPUT.
set -euo pipefail
action="${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/../.." && pwd)}"
temp="${RUNNER_TEMP:-/tmp}"
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
package="${INPUT_PACKAGE:-}"
case "$package" in
  http://* | https://*)
    command -v curl >/dev/null || { "${sudo_cmd[@]}" apt-get update -qq; "${sudo_cmd[@]}" apt-get install -y -qq curl ca-certificates >/dev/null; }
    deb="$temp/$(basename "${package%%\?*}")"
    case "$deb" in *.deb) ;; *) deb="$temp/layoutsnap.deb" ;; esac
    curl -fsSL --retry 3 -o "$deb" "$package"
    ;;
  "")
    bash "$action/.ci/install" --runtime
    command -v dpkg-shlibdeps >/dev/null || DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq dpkg-dev >/dev/null
    deb="$("$action/Tools/build-deb" "$temp" | tail -1)"
    ;;
  *) deb="$(realpath "$package")" ;;
esac
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "$deb" >/dev/null
echo "installed $(basename "$deb"): layoutsnap $(layoutsnap --version)"
[ -n "${GITHUB_OUTPUT:-}" ] && echo "version=$(layoutsnap --version)" >>"$GITHUB_OUTPUT"
exit 0
