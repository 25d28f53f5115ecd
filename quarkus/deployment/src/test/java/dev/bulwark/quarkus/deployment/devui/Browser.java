package dev.bulwark.quarkus.deployment.devui;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's headless Chromium, driven through Debian's chromedriver: both given by path, so Selenium
 * never looks for (or downloads) a browser or driver of its own.
 */
final class Browser {

  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

  private Browser() {}

  /** Both programs are installed (Debian's chromium and chromium-driver packages). */
  static boolean installed() {
    return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
  }

  static ChromeDriver start() {
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    // --no-sandbox: Chromium refuses to run as root with its sandbox, and CI runs as root
    options.addArguments(
        "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000");
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(CHROMEDRIVER.toFile())
            .usingAnyFreePort()
            .withTimeout(Duration.ofSeconds(30))
            .build();
    return new ChromeDriver(service, options);
  }
}
