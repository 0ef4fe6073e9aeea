# Multi-stage build: Maven + JDK 17 builds the fat jar (the project compiles with --release 17), a JRE runs it.
# Build:  docker build -t threading-reference .
# Run:    docker run --rm -p 8080:8080 threading-reference
# Admin:  docker run --rm -p 8080:8080 -p 127.0.0.1:8081:8081 -e ADMIN_BIND_HOST=0.0.0.0 threading-reference
# Every knob in config.yml is an environment variable: docker run -e JETTY_MAX_THREADS=400 ...
# What each port exposes and how to close it: docs/operations.md, "Security: what each port exposes".
#
# Base images are build arguments whose defaults are pinned by digest (the tag each digest was published under is in
# the comment above it): a tag can be moved to other content, a digest cannot. A digest the registry does not know fails
# the build at once; it cannot pull other content. To update, take tag and digest together from
#   docker buildx imagetools inspect <tag>     (the "Digest:" line, the multi-platform index)
# Another base (a mirror, or a stand-in built from Debian's packages where no registry is reachable) replaces one
# without editing this file: --build-arg BUILD_IMAGE=... --build-arg RUNTIME_IMAGE=... (the image check, deploy/image/,
# builds and runs the image that way: docs/operations.md, "Docker").

# maven:3.9-eclipse-temurin-17
ARG BUILD_IMAGE=maven:3.9-eclipse-temurin-17@sha256:a8746f15d5bb26b5b8bacb056cc76211553850f4c71d16aff845cfa004cbc197
# eclipse-temurin:25-jre
ARG RUNTIME_IMAGE=eclipse-temurin:25-jre@sha256:681c543d6f36c50f45e9b5226930a46203dcfa351d3670e9d0bdf0dabae53539

FROM ${BUILD_IMAGE} AS build
WORKDIR /build
# .mvn/jvm.config opens javac to Error Prone, which checks the main sources as they compile.
COPY pom.xml .
COPY .mvn ./.mvn
RUN mvn -B -q dependency:go-offline
# Every input the build reads: the sources, and docs/, whose pages the jar carries for the live page (/live).
COPY src ./src
COPY docs ./docs
RUN mvn -B -q package -DskipTests

# The runtime is JDK 25 (the newer JDK the test suite also runs on), so /work/virtual has virtual threads.
FROM ${RUNTIME_IMAGE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin app
WORKDIR /app
COPY --from=build /build/target/threading-reference.jar /app/threading-reference.jar
COPY config.yml /app/config.yml
# The application connector listens on all interfaces, to be reachable through -p. The admin connector stays on the
# container's loopback: it has no authentication and serves /tasks/log-level, /tasks/gc, /pprof and /threads. The
# HEALTHCHECK below runs inside the container and reaches it there; a load balancer checks GET /ready on the
# application port instead (deploy/haproxy.cfg). To read metrics from the host, open it explicitly:
# -e ADMIN_BIND_HOST=0.0.0.0 -p 127.0.0.1:8081:8081 (published on the host's loopback only).
ENV APP_BIND_HOST=0.0.0.0 \
    APP_PORT=8080 \
    ADMIN_BIND_HOST=127.0.0.1 \
    ADMIN_PORT=8081 \
    JAVA_OPTS=""
EXPOSE 8080 8081
USER app
# Liveness: /ping answers "pong" while the admin connector runs. Not /healthcheck: that is readiness, and it turns
# unhealthy whenever the Jetty pool or the bounded pool is saturated, so an orchestrator would restart a healthy but
# busy container (see docs/operations.md, "Health: liveness and readiness").
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD curl -fsS http://127.0.0.1:8081/ping > /dev/null || exit 1
ENTRYPOINT ["sh", "-c", "exec java $JAVA_OPTS -jar /app/threading-reference.jar server /app/config.yml"]
