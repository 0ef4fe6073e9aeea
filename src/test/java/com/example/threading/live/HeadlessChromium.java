package com.example.threading.live;

import com.example.threading.testing.Prerequisites;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's {@code chromium}, headless, driven through Debian's {@code chromedriver}: both found at their Debian paths,
 * else the test fails under {@code CI=true} and is skipped elsewhere ({@link Prerequisites#unavailable}). Selenium is
 * given both executables, so its Selenium Manager never tries to download a browser or a driver. The browser runs
 * with a fresh profile, without background networking, component updates or sync, so every request it makes is the
 * page's; its console and network logs are kept ({@code goog:loggingPrefs}).
 *
 * <p>Thread-safety: stateless; each {@link #start} makes a browser for one test thread.
 */
public final class HeadlessChromium {

    public static final String INSTALL = "apt-get install -y chromium chromium-driver";
    private static final Path BROWSER = Path.of("/usr/bin/chromium");
    private static final Path DRIVER = Path.of("/usr/bin/chromedriver");

    private HeadlessChromium() {
    }

    /** A new headless browser with its profile in {@code profile}, the window {@code width} × {@code height}; quit it. */
    public static ChromeDriver start(Path profile, int width, int height) {
        if (!Files.isExecutable(BROWSER) || !Files.isExecutable(DRIVER)) {
            throw Prerequisites.unavailable("chromium and chromedriver are not installed", INSTALL);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BROWSER.toFile());
        options.addArguments(List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-default-apps", "--disable-extensions", "--user-data-dir=" + profile.toAbsolutePath(),
                "--window-size=" + width + "," + height));
        options.setCapability("goog:loggingPrefs", Map.of("browser", "ALL", "performance", "ALL"));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(DRIVER.toString()))
                .usingAnyFreePort()
                .withTimeout(Duration.ofSeconds(30))
                .build();
        return new ChromeDriver(service, options);
    }
}
