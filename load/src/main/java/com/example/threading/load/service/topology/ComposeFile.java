package com.example.threading.load.service.topology;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A docker-compose file, read the way {@code docker compose} reads it for the parts a topology needs: its services with
 * image or build context, command, environment, ports, volumes, file-descriptor limit and dependencies, after
 * compose's variable interpolation ({@code ${VAR}}, {@code ${VAR:-default}}, {@code ${VAR-default}},
 * {@code ${VAR:?message}}, {@code ${VAR?message}}, {@code $$}) from the given variables.
 */
public final class ComposeFile {

    /** One service of the file. */
    public record Service(String name, Optional<String> image, Optional<Path> buildContext, List<String> command,
                          Map<String, String> environment, List<String> ports, List<String> volumes,
                          Optional<FileLimit> nofile, List<String> dependsOn) {
    }

    /** {@code ulimits: nofile}: the soft and hard limits on open files. */
    public record FileLimit(int soft, int hard) {
    }

    private static final Pattern VARIABLE = Pattern.compile("\\$(\\$|\\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?}|[A-Za-z_][A-Za-z0-9_]*)");

    private final Path file;
    private final List<Service> services;

    private ComposeFile(Path file, List<Service> services) {
        this.file = file;
        this.services = List.copyOf(services);
    }

    /** Reads {@code file}, interpolating {@code variables} (as the shell environment of {@code docker compose}). */
    public static ComposeFile read(Path file, Map<String, String> variables) throws IOException {
        JsonNode root = new YAMLMapper().readTree(Files.readString(file));
        JsonNode services = root.path("services");
        if (!services.isObject() || services.isEmpty()) {
            throw new IOException(file + ": no services");
        }
        List<Service> read = new ArrayList<>();
        for (Map.Entry<String, JsonNode> entry : iterable(services)) {
            read.add(service(file.toAbsolutePath().getParent(), entry.getKey(), entry.getValue(), variables));
        }
        return new ComposeFile(file, read);
    }

    /** The file read. */
    public Path file() {
        return file;
    }

    /** The services, in the file's order. */
    public List<Service> services() {
        return services;
    }

    /** The service named {@code name}. */
    public Service service(String name) {
        return services.stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(file + " has no service " + name));
    }

    /** {@code text} with compose's variable references replaced from {@code variables}. */
    static String interpolate(String text, Map<String, String> variables) {
        Matcher reference = VARIABLE.matcher(text);
        StringBuilder out = new StringBuilder();
        int last = 0;
        while (reference.find()) {
            out.append(literal(text, last, reference.start()));
            last = reference.end();
            String whole = reference.group(1);
            if (whole.equals("$")) {
                out.append('$');
                continue;
            }
            String name = reference.group(2) != null ? reference.group(2) : whole;
            String operator = reference.group(3);
            String argument = reference.group(4);
            String value = variables.get(name);
            boolean unsetOrEmpty = value == null || value.isEmpty();
            boolean missing = operator != null && operator.startsWith(":") ? unsetOrEmpty : value == null;
            if (operator == null) {
                out.append(value == null ? "" : value);
            } else if (operator.endsWith("-")) {
                out.append(missing ? argument : value);
            } else if (missing) {
                throw new IllegalArgumentException("required variable " + name + " is missing a value: " + argument);
            } else {
                out.append(value);
            }
        }
        return out.append(literal(text, last, text.length())).toString();
    }

    /** Text between variable references, which must hold no other {@code $}. */
    private static String literal(String text, int from, int to) {
        String part = text.substring(from, to);
        if (part.indexOf('$') >= 0) {
            throw new IllegalArgumentException("invalid interpolation (use $$ for a literal $) in: " + text);
        }
        return part;
    }

    private static Service service(Path directory, String name, JsonNode node, Map<String, String> variables) {
        Optional<String> image = text(node.get("image"), variables);
        JsonNode build = node.get("build");
        Optional<Path> context = build == null ? Optional.empty()
                : text(build.isObject() ? build.get("context") : build, variables).map(c -> directory.resolve(c).normalize());
        List<String> command = new ArrayList<>();
        JsonNode commandNode = node.get("command");
        if (commandNode != null && commandNode.isArray()) {
            commandNode.forEach(part -> command.add(interpolate(part.asText(), variables)));
        } else if (commandNode != null) {
            command.addAll(List.of(interpolate(commandNode.asText(), variables).trim().split("\\s+")));
        }
        Map<String, String> environment = new LinkedHashMap<>();
        JsonNode env = node.get("environment");
        if (env != null && env.isObject()) {
            iterable(env).forEach(e -> environment.put(e.getKey(), e.getValue().isNull() ? "" : interpolate(e.getValue().asText(), variables)));
        } else if (env != null) {
            env.forEach(item -> {
                String[] pair = interpolate(item.asText(), variables).split("=", 2);
                environment.put(pair[0], pair.length > 1 ? pair[1] : variables.getOrDefault(pair[0], ""));
            });
        }
        return new Service(name, image, context, command, environment, texts(node.get("ports"), variables),
                texts(node.get("volumes"), variables), nofile(node.path("ulimits").get("nofile")), dependsOn(node.get("depends_on")));
    }

    private static Optional<FileLimit> nofile(JsonNode nofile) {
        if (nofile == null) {
            return Optional.empty();
        }
        if (nofile.isObject()) {
            return Optional.of(new FileLimit(nofile.path("soft").asInt(), nofile.path("hard").asInt()));
        }
        return Optional.of(new FileLimit(nofile.asInt(), nofile.asInt()));
    }

    private static List<String> dependsOn(JsonNode node) {
        List<String> names = new ArrayList<>();
        if (node != null && node.isArray()) {
            node.forEach(name -> names.add(name.asText()));
        } else if (node != null) {
            node.fieldNames().forEachRemaining(names::add);
        }
        return names;
    }

    private static List<String> texts(JsonNode node, Map<String, String> variables) {
        List<String> texts = new ArrayList<>();
        if (node != null) {
            node.forEach(item -> texts.add(interpolate(item.asText(), variables)));
        }
        return texts;
    }

    private static Optional<String> text(JsonNode node, Map<String, String> variables) {
        return node == null || node.isNull() ? Optional.empty() : Optional.of(interpolate(node.asText(), variables));
    }

    private static Iterable<Map.Entry<String, JsonNode>> iterable(JsonNode object) {
        return object::fields;
    }
}
