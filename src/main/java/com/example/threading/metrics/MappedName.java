package com.example.threading.metrics;

import java.util.List;

/**
 * Where one Dropwizard metric goes on {@code /prometheus}: its family (without the {@code _total} a counter's exposed
 * name ends in), its type, its labels and the factor applied to its values; {@code skipReason} is set for metrics left
 * out on purpose.
 */
record MappedName(String family, ExportKind kind, List<String> labelNames, List<String> labelValues, double scale,
        String skipReason) {

    MappedName {
        labelNames = List.copyOf(labelNames);
        labelValues = List.copyOf(labelValues);
    }

    /** {@code name} with each label value in it shown as {@code <label>}: {@code work.cached.rejected} → {@code work.<pattern>.rejected}. */
    String template(String name) {
        String template = name;
        for (int i = 0; i < labelNames.size(); i++) {
            String value = labelValues.get(i);
            if (!value.isEmpty() && template.contains(value)) {
                template = template.replace(value, "<" + labelNames.get(i) + ">");
            }
        }
        return template;
    }
}
