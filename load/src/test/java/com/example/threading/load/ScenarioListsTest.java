package com.example.threading.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every list of the scenarios names exactly the tool's subcommands: the README's layout line and its table of
 * experiments, load/README.md's command line, and docs/load.md's table of scenarios.
 */
class ScenarioListsTest {

    private static final Set<String> SCENARIOS = new TreeSet<>(new CommandLine(LoadTool.class).getSubcommands().keySet());

    @Test
    void theReadmesLayoutLineAndTableNameEveryScenario() throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        Matcher layout = Pattern.compile("load tool \\(its own Maven build\\): ([a-z, ]+)").matcher(readme);
        assertThat(layout.find()).isTrue();
        assertThat(new TreeSet<>(Arrays.asList(layout.group(1).trim().split(",\\s*")))).isEqualTo(SCENARIOS);
        assertThat(names(readme, "\\| `java -jar load/target/threading-load\\.jar ([a-z]+)")).isEqualTo(SCENARIOS);
    }

    @Test
    void loadReadmeAndLoadMdNameEveryScenario() throws Exception {
        Matcher command = Pattern.compile("threading-load\\.jar <([a-z|]+)>").matcher(Files.readString(Path.of("README.md")));
        assertThat(command.find()).isTrue();
        assertThat(new TreeSet<>(Arrays.asList(command.group(1).split("\\|")))).isEqualTo(SCENARIOS);
        String loadMd = Files.readString(Path.of("..", "docs", "load.md"));
        String scenariosTable = loadMd.substring(loadMd.indexOf("| `wave` | for each pattern"));
        assertThat(names(scenariosTable.substring(0, scenariosTable.indexOf("\n\n")), "(?m)^\\| `([a-z]+)` \\|")).isEqualTo(SCENARIOS);
    }

    private static Set<String> names(String text, String regex) {
        Set<String> names = new TreeSet<>();
        Matcher matcher = Pattern.compile(regex).matcher(text);
        while (matcher.find()) {
            names.add(matcher.group(1));
        }
        return names;
    }
}
