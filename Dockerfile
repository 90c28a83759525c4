# mongobench's image: one static binary on a distroless base (CA
# certificates for TLS to the server, a non-root user, nothing else).
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

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/mongobench /usr/local/bin/mongobench
# Results and the store go where the run is told (--out, --store); the
# working directory is the only one a non-root user may write by default.
WORKDIR /home/nonroot
ENTRYPOINT ["/usr/local/bin/mongobench"]
CMD ["help"]
