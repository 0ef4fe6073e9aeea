/**
 * Small servlet helpers any pattern may use: today {@link com.example.threading.support.CompleteAsyncOnFailedWrite},
 * which the {@code work} and {@code client} bundles map on their paths, and
 * {@link com.example.threading.support.AdminMenuLink}, which adds a page of the admin port to Dropwizard's admin menu
 * ({@code live}, {@code threads}).
 *
 * <p>This package depends on nothing of this project (only the servlet API), so a reader who copies a pattern that
 * uses it copies this package with it: the pattern's package documentation says so. {@code PatternPackagesTest} checks
 * that it uses no other package of the project, and {@code CompileAloneTest} compiles each pattern that uses it with
 * this package and nothing else of the project.
 */
package com.example.threading.support;
