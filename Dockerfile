# Multi-stage build: Maven + JDK 17 builds the fat jar (the project compiles with --release 17), a JRE runs it.
# Build:  docker build -t threading-reference .
# Run:    docker run --rm -p 8080:8080 -p 127.0.0.1:8081:8081 threading-reference
# Every knob in config.yml is an environment variable: docker run -e JETTY_MAX_THREADS=400 ...

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /build
COPY pom.xml .
RUN mvn -B -q dependency:go-offline
COPY src ./src
RUN mvn -B -q package -DskipTests

# The runtime is JDK 25 (the newer JDK the test suite also runs on), so /work/virtual has virtual threads.
FROM eclipse-temurin:25-jre
RUN apt-get update \
 && apt-get install -y --no-install-recommends curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin app
WORKDIR /app
COPY --from=build /build/target/threading-reference.jar /app/threading-reference.jar
COPY config.yml /app/config.yml
# Inside a container both connectors must listen on all interfaces to be reachable through -p;
# keep the admin port private when you publish it (-p 127.0.0.1:8081:8081).
ENV APP_BIND_HOST=0.0.0.0 \
    APP_PORT=8080 \
    ADMIN_BIND_HOST=0.0.0.0 \
    ADMIN_PORT=8081 \
    JAVA_OPTS=""
EXPOSE 8080 8081
USER app
# /healthcheck turns unhealthy while the Jetty pool or the bounded pool is saturated (see README).
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD curl -fsS http://127.0.0.1:8081/healthcheck > /dev/null || exit 1
ENTRYPOINT ["sh", "-c", "exec java $JAVA_OPTS -jar /app/threading-reference.jar server /app/config.yml"]
