package com.example.threading.work;

import com.example.threading.client.FanoutBundle;

/**
 * A class in the work package that uses the client package: what the architecture rules must catch
 * ({@code PatternPackagesTest}). Test code only; nothing uses it.
 */
final class CrossPatternFixture {

    private CrossPatternFixture() {
    }

    static Object fanout() {
        return FanoutBundle.class; // not FanoutBundle.PATH: a String constant is inlined, and the class file never names FanoutBundle
    }
}
