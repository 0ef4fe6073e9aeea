package com.example.threading.fuzz;

import java.security.SecureRandom;
import java.util.Locale;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * Chooses the seed (and, if asked, the tries) of every fuzz property, so that the suite gives the same answer twice:
 * <ul>
 * <li>by default, in CI and on a laptop alike, {@value #FIXED_SEED}: the same requests every run;</li>
 * <li>{@code -Dfuzz.seed=N}: seed N, e.g. to replay a seed a failure printed;</li>
 * <li>{@code -Dfuzz.seed=random}: a fresh seed per property, for an exploring run (never the default);</li>
 * <li>{@code -Dfuzz.tries=N}: N tries per property instead of {@code jqwik.tries.default}.</li>
 * </ul>
 * Each property prints the seed and tries it ran with, so any run can be repeated. A seed set on a property itself
 * ({@code @Property(seed = …)}) is kept: those are regression seeds.
 *
 * <p>Thread-safety: jqwik calls the hook on the test thread, once per property; stateless.
 */
public final class FuzzSeeds implements AroundPropertyHook {

    /** The seed of every property unless {@code fuzz.seed} names another. */
    static final String FIXED_SEED = "20261124";

    private static final SecureRandom FRESH = new SecureRandom();

    /** Every property of the class the hook is added to. */
    @Override
    public PropagationMode propagateTo() {
        return PropagationMode.ALL_DESCENDANTS;
    }

    @Override
    public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context, PropertyExecutor property) {
        String asked = System.getProperty("fuzz.seed", "").trim();
        boolean ownSeed = context.attributes().seed().filter(seed -> !seed.isEmpty()).isPresent();
        if (!ownSeed) {
            String seed = asked.isEmpty() ? FIXED_SEED
                    : asked.toLowerCase(Locale.ROOT).equals("random") ? Long.toString(FRESH.nextLong()) : Long.toString(Long.parseLong(asked));
            context.attributes().setSeed(seed);
        }
        String tries = System.getProperty("fuzz.tries", "").trim();
        if (!tries.isEmpty() && context.attributes().tries().isEmpty()) {
            context.attributes().setTries(Integer.parseInt(tries));
        }
        System.out.printf("fuzz: %s with seed %s%s%n", context.label(), context.attributes().seed().orElse("?"),
                context.attributes().tries().map(n -> ", " + n + " tries").orElse(""));
        return property.execute();
    }
}
