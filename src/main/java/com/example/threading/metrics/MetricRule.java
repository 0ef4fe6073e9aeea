package com.example.threading.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One line of the table that turns Dropwizard metric names into Prometheus names and labels: a regular expression
 * over the whole Dropwizard name, the Prometheus family it belongs to, and which named groups become labels.
 * <pre>{@code
 * rule("work\\.(?<pattern>[^.]+)\\.response-time", "work_request_duration_seconds").labels("pattern")
 * }</pre>
 * The family may take a named group's value ({@code "work_{what}_total"}; dashes become underscores). A label is
 * either a named group ({@code "pattern"}; the group is the label name without underscores) or a constant
 * ({@code "limit=common"}).
 *
 * <p>A rule is built and configured only in {@link NameMapping}'s static table (class initialization publishes it) and
 * never changed afterwards.
 */
final class MetricRule {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-zA-Z]+)}");

    private final Pattern dropwizardName;
    private final String family;
    private final ExportKind kind;
    private final List<String> labels = new ArrayList<>();
    private double scale = 1;
    private UnaryOperator<String> labelValues = UnaryOperator.identity();
    private String skipReason = "";

    private MetricRule(String regex, String family, ExportKind kind) {
        this.dropwizardName = Pattern.compile(regex);
        this.family = family;
        this.kind = kind;
    }

    /** A rule whose Prometheus type follows the Dropwizard type. */
    static MetricRule rule(String regex, String family) {
        return new MetricRule(regex, family, ExportKind.BY_TYPE);
    }

    /** A rule with an explicit Prometheus type. */
    static MetricRule rule(String regex, String family, ExportKind kind) {
        return new MetricRule(regex, family, kind);
    }

    /** A metric left out on purpose, with the reason (documented on docs/prometheus.md). */
    static MetricRule skip(String regex, String reason) {
        MetricRule rule = new MetricRule(regex, "", ExportKind.SKIP);
        rule.skipReason = reason;
        return rule;
    }

    /** The labels, in order: named groups of the regex or {@code name=constant}. */
    MetricRule labels(String... names) {
        labels.addAll(List.of(names));
        return this;
    }

    /** Multiplies every value, e.g. {@code 0.001} for a gauge in milliseconds exposed in seconds. */
    MetricRule scale(double factor) {
        this.scale = factor;
        return this;
    }

    /** Rewrites every label value taken from a group, e.g. a pool's {@code work.cached.executor} as {@code work-cached}. */
    MetricRule labelValues(UnaryOperator<String> rewrite) {
        this.labelValues = rewrite;
        return this;
    }

    /** The Prometheus name and labels of {@code name} if this rule matches it. */
    Optional<MappedName> apply(String name) {
        Matcher matcher = dropwizardName.matcher(name);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        Matcher placeholders = PLACEHOLDER.matcher(family);
        StringBuilder resolved = new StringBuilder();
        while (placeholders.find()) {
            placeholders.appendReplacement(resolved, NameMapping.snakeCase(matcher.group(placeholders.group(1))));
        }
        placeholders.appendTail(resolved);
        List<String> names = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (String label : labels) {
            int equals = label.indexOf('=');
            if (equals >= 0) {
                names.add(label.substring(0, equals));
                values.add(label.substring(equals + 1));
            } else {
                names.add(label);
                values.add(labelValues.apply(matcher.group(label.replace("_", ""))));
            }
        }
        return Optional.of(new MappedName(resolved.toString(), kind, names, values, scale, skipReason));
    }
}
