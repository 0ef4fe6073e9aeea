package com.example.threading.live;

import com.example.threading.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * Not a test (surefire runs only {@code *Test} classes): screenshots of the live page of a service that is already
 * running, for the docs. Run by name while the service is under load:
 * {@code mvn -B -q test -Dtest=LivePageScreenshots -Dlive.url=http://127.0.0.1:8081/live -Dlive.shots=8 -Dlive.every=15s}
 * writes {@code target/live-1.png} … {@code target/live-8.png}, one every 15 s after the first at 15 s, of a window
 * 1400 pixels wide and {@code -Dlive.height} (2000) high.
 */
class LivePageScreenshots {

    @Test
    void takeScreenshots(@TempDir Path profile) throws Exception {
        String url = System.getProperty("live.url", "http://127.0.0.1:8081/live");
        int shots = Integer.getInteger("live.shots", 8);
        Duration every = Duration.parse("PT" + System.getProperty("live.every", "15s").toUpperCase(java.util.Locale.ROOT));
        ChromeDriver browser = HeadlessChromium.start(profile, 1400, Integer.getInteger("live.height", 2000));
        try {
            browser.get(url);
            Await.until(() -> !browser.findElements(By.cssSelector("section.chart")).isEmpty(), Duration.ofSeconds(30),
                    "the live page's charts at " + url);
            for (int shot = 1; shot <= shots; shot++) {
                Thread.sleep(every.toMillis());
                Files.write(Path.of("target", "live-" + shot + ".png"), browser.getScreenshotAs(OutputType.BYTES));
            }
        } finally {
            browser.quit();
        }
    }
}
