/**
 * The load tool that reproduces the service's experiments: {@code java -jar load/target/threading-load.jar
 * <scenario> [options]}. This package holds only {@link com.example.threading.load.LoadTool}, the entry point
 * that lists the scenarios.
 *
 * <p>The tool is built in layers, each depending only on the layers below it (checked by {@code LayeringTest}):
 * <ol>
 *   <li>{@code load} (this package): the entry point; nothing depends on it.</li>
 *   <li>{@code scenario} and its sub-packages: the experiments, their options, result records and views.</li>
 *   <li>{@code report}: the report folder, plots, and the generic views of load phases.</li>
 *   <li>{@code engine}: measuring (generated load, polling clients, recorders, outcomes, schedules).</li>
 *   <li>{@code service}: the service under load (a child process or a running one) and CPU sampling.</li>
 * </ol>
 */
package com.example.threading.load;
