package com.example.threading.support;

import com.example.threading.work.WorkBundle;

/**
 * A class in the support package that uses the work package: what the architecture rules must catch
 * ({@code PatternPackagesTest}). Test code only; nothing uses it.
 */
final class ProjectDependencyFixture {

    private ProjectDependencyFixture() {
    }

    static Object work() {
        return WorkBundle.class; // a class literal, so that the class file names WorkBundle
    }
}
