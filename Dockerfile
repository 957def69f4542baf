# layoutsnap on Debian 12: the libraries and fonts CI renders with, so goldens recorded in this
# image on any host (macOS included) are the goldens CI accepts, byte for byte.
#
#   Tools/build-deb .                                   # writes ./layoutsnap_<version>-1_amd64.deb
#   docker build -t layoutsnap .
#   docker run --rm -v "$PWD":/src -w /src layoutsnap record    # or verify, review, lint ...
#
# Tools/test-deb-root installs the same package with the same script on the same base (Debian 12
# minbase, from the package mirror) and verifies every bundled golden there: the test of what this
# image holds (docs/install.md).
FROM debian:12-slim
COPY layoutsnap_*_amd64.deb Tools/deb/install-package /tmp/layoutsnap/
RUN sh /tmp/layoutsnap/install-package /tmp/layoutsnap/layoutsnap_*_amd64.deb && rm -rf /tmp/layoutsnap
ENTRYPOINT ["layoutsnap"]
CMD ["verify"]
