# tilerace: a multi-stage image. Build: docker build -t tilerace .
# Run:   docker run -p 8080:8080 -v tilerace-data:/data tilerace

# ---- build stage: the same package list as a developer machine -------------------------------
FROM debian:bookworm AS build
WORKDIR /src
COPY scripts/install-deps.sh scripts/
RUN scripts/install-deps.sh && rm -rf /var/lib/apt/lists/*
COPY CMakeLists.txt ./
COPY engine engine
COPY protocol protocol
COPY server server
RUN cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DTILERACE_TESTS=OFF -DTILERACE_BENCH=OFF \
 && cmake --build build --target tilerace \
 && strip build/tilerace

# ---- runtime stage: the binary, the web client and the shared libraries it links ------------
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      libboost-program-options1.81.0 libspdlog1.10 libfmt9 libsqlite3-0 libpq5 libhiredis0.14 libssl3 \
      libsodium23 libicu72 \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin tilerace \
 && mkdir -p /data && chown tilerace:tilerace /data
COPY --from=build /src/build/tilerace /usr/local/bin/tilerace
COPY web-client /usr/share/tilerace/web-client
ENV TILERACE_HOST=0.0.0.0 \
    TILERACE_PORT=8080 \
    TILERACE_DATA=/data \
    TILERACE_WEB_ROOT=/usr/share/tilerace/web-client
USER tilerace
VOLUME /data
EXPOSE 8080
# bash's /dev/tcp keeps curl out of the image.
HEALTHCHECK --interval=5s --timeout=3s --start-period=5s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${TILERACE_PORT} && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && grep -q '\"status\":\"ok\"' <&3"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/tilerace"]
