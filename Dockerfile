# mongobench's image: one static binary, fio (for `mongobench disk`, the
# baseline of the disk a pod writes to) and CA certificates for TLS to the
# server, on a slim Debian, run as a non-root user.
#
#   docker build -t registry.example.com/mongobench:1.0 --build-arg VERSION=1.0 .
#   docker push registry.example.com/mongobench:1.0
FROM golang:1.26 AS build
ARG VERSION=dev
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# Pure Go throughout (the embedded server's SQLite too), so no C library
# is needed at run time.
RUN CGO_ENABLED=0 go build -trimpath \
      -ldflags "-s -w -X github.com/mongobench/mongobench/internal/cli.Version=${VERSION}" \
      -o /out/mongobench ./cmd/mongobench

FROM debian:12-slim
# fio runs its jobs with libaio; tar is there too, for kubectl cp.
RUN apt-get update \
 && apt-get install -y --no-install-recommends fio ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --gid 65532 nonroot \
 && useradd --uid 65532 --gid 65532 --create-home --home-dir /home/nonroot nonroot
COPY --from=build /out/mongobench /usr/local/bin/mongobench
# Results and the store go where the run is told (--out, --store); the
# working directory is the only one a non-root user may write by default.
USER 65532:65532
WORKDIR /home/nonroot
ENTRYPOINT ["/usr/local/bin/mongobench"]
CMD ["help"]
