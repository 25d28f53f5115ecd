package dev.bulwark.doccheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The key check on a hand-made repository: each planted drift is reported, agreement is not. */
class ConfigKeyCheckTest {

  private static final String PAGE =
      """
      # Configuration

      | key | default |
      |---|---|
      | `bulwark.store` | `local` |
      | `bulwark.redis.url` | `redis://localhost:6379` |
      | `bulwark.redis.pool-size` | `32` |
      | `bulwark.bulkhead.<name>.value` | `10` |
      | `bulwark.rate-limit.<name>` | — |

      Precedence: `bulwark.<kind>.<name>.<member>` above `DistributedBulkhead/value`, e.g.
      `bulwark.bulkhead.legacy-api.value=10` or `com.acme.Billing/charge/DistributedBulkhead/value=5`.

      ```properties
      bulwark.rate-limit.partner-api=100/1m
      ```
      """;

  private static final String SETTINGS =
      """
      package dev.bulwark.redis;

      final class RedisSettings {
        static final String PREFIX = "bulwark.redis.";
        static final String STORE = "bulwark.store";

        static Settings read(Reader read) {
          String url = read.text("url").orElse("redis://localhost:6379");
          int pool = read.positiveInt("pool-size", 32);
          if (url.equals("none")) {
            throw read.invalid("url", url, "needs bulwark.redis.pool-size above 0");
          }
          return new Settings(url, pool);
        }
      }
      """;

  private static final String RESOLVER =
      """
      package dev.bulwark.core;

      final class Resolver {
        String named(Kind kind, String name, String member) {
          return "bulwark." + kind.segment() + "." + name + "." + member;
        }
        enum Kind { BULKHEAD("bulkhead"), RATE_LIMIT("rate-limit"); }
        void members() { find("value"); find("enabled"); }
        void meters() { meter("bulwark.calls"); }
      }
      """;

  @TempDir Path root;

  @BeforeEach
  void agreeingRepository() throws IOException {
    write("docs/configuration.md", PAGE);
    write("docs/operations.md", "| `bulwark.calls` | counter |\n");
    write("store-redis/src/main/java/dev/bulwark/redis/RedisSettings.java", SETTINGS);
    write("core/src/main/java/dev/bulwark/core/Resolver.java", RESOLVER);
    write(
        "core/src/main/java/dev/bulwark/DistributedBulkhead.java",
        "@interface DistributedBulkhead {}\n");
  }

  @Test
  void agreementIsNoProblem() {
    assertThat(problems()).isEmpty();
  }

  @Test
  void aKeyReadUnderAPrefixButNotDocumentedIsReported() throws IOException {
    write(
        "store-redis/src/main/java/dev/bulwark/redis/RedisSettings.java",
        SETTINGS.replace(
            "return new Settings(url, pool);",
            "Duration timeout = read.duration(\"read-timeout\", TWO);\n    return new Settings(url, pool);"));

    assertThat(problems())
        .containsExactly(
            "store-redis/src/main/java/dev/bulwark/redis/RedisSettings.java:13:"
                + " bulwark.redis.read-timeout: read here (prefix \"bulwark.redis.\"), but not in"
                + " docs/configuration.md");
  }

  @Test
  void aKeyAppendedToAPrefixConstantIsSeenToo() throws IOException {
    write(
        "store-redis/src/main/java/dev/bulwark/redis/Timeouts.java",
        """
        final class Timeouts {
          static final String PREFIX = "bulwark.redis.";
          String key() { return PREFIX + "connect-timeout"; }
        }
        """);

    assertThat(problems())
        .singleElement()
        .asString()
        .contains("bulwark.redis.connect-timeout: read here");
  }

  @Test
  void aDocumentedKeyNobodyReadsIsReported() throws IOException {
    write(
        "docs/configuration.md",
        PAGE.replace(
            "| `bulwark.redis.pool-size` | `32` |",
            "| `bulwark.redis.pool-size` | `32` |\n| `bulwark.redis.pool-max` | `64` |"));

    assertThat(problems())
        .containsExactly(
            "docs/configuration.md:8: bulwark.redis.pool-max: documented, but no src/main reads it");
  }

  @Test
  void aRenamedKeyIsReportedOnBothSides() throws IOException {
    write("docs/configuration.md", PAGE.replace("bulwark.redis.pool-size", "bulwark.redis.pool"));

    assertThat(problems())
        .anyMatch(p -> p.contains("bulwark.redis.pool: documented, but no src/main reads it"))
        .anyMatch(p -> p.contains("bulwark.redis.pool-size: read here"))
        .anyMatch(p -> p.contains("bulwark.redis.pool-size: named in a message"));
  }

  @Test
  void aTemplateWhoseMemberNoCodeSpellsIsReported() throws IOException {
    write("docs/configuration.md", PAGE + "\n| `bulwark.bulkhead.<name>.lease` | `30s` |\n");

    assertThat(problems())
        .singleElement()
        .asString()
        .contains("bulwark.bulkhead.<name>.lease: documented, but no src/main reads it");
  }

  @Test
  void anFtStyleKeyWithAnUnknownMemberIsReported() throws IOException {
    write("docs/configuration.md", PAGE + "\nAlso `DistributedBulkhead/waitingTme=5`.\n");

    assertThat(problems())
        .singleElement()
        .asString()
        .contains("DistributedBulkhead/waitingTme=5: documented, but no src/main knows the member");
  }

  @Test
  void keysSetInPropertiesMustBeDocumentedExamplesIncluded() throws IOException {
    write(
        "sample/src/main/resources/application.properties",
        """
        bulwark.store=redis
        %redis.bulwark.redis.url=redis://localhost:6379
        bulwark.bulkhead.legacy-api.value=2
        bulwark.bulkhead.com.acme.Billing#charge.value=3
        bulwark.bulkhead.legacy-api.valu=2
        """);
    write("README.md", "```properties\nbulwark.redis.urls=redis://x\n```\n");

    assertThat(problems())
        .containsExactlyInAnyOrder(
            "sample/src/main/resources/application.properties:5: bulwark.bulkhead.legacy-api.valu:"
                + " set here, but not in docs/configuration.md",
            "README.md:2: bulwark.redis.urls: set here, but not in docs/configuration.md");
  }

  @Test
  void aKeyBuiltAroundANameMustFitATemplate() throws IOException {
    write(
        "benchmarks/src/main/java/Bench.java",
        """
        class Bench {
          void configure(Map<String, String> config) {
            config.put("bulwark.bulkhead." + NAME + ".value", "1");
            config.put("bulwark.bulkhead." + NAME + ".waiting-tme", "1s");
          }
        }
        """);

    assertThat(problems())
        .containsExactly(
            "benchmarks/src/main/java/Bench.java:4: bulwark.bulkhead.<name>.waiting-tme: built"
                + " here, but no such template in docs/configuration.md");
  }

  @Test
  void aToolsOwnSystemPropertyNeedsOnlyAMentionInSomeMarkdownFile() throws IOException {
    write(
        "tools/pom.xml",
        "<project><properties><maven.deploy.skip>true</maven.deploy.skip></properties></project>");
    write(
        "tools/src/main/java/Tool.java",
        "class Tool { long seed = Long.getLong(\"bulwark.tool.seed\"); }\n");
    assertThat(problems()).singleElement().asString().contains("bulwark.tool.seed: not in");

    write("CONTRIBUTING.md", "Replay with `-Dbulwark.tool.seed=<seed>`.\n");
    assertThat(problems()).isEmpty();
  }

  @Test
  void aPrefixConstantWhoseKeysTheCheckCannotSeeIsReported() throws IOException {
    write(
        "store-jpa/src/main/java/JpaSettings.java",
        """
        final class JpaSettings {
          static final String PREFIX = "bulwark.jpa.";
          String url(Config config) { return config.get(PREFIX.concat(URL)); }
        }
        """);

    assertThat(problems())
        .singleElement()
        .asString()
        .contains("holds the key prefix \"bulwark.jpa.\" but the check sees no key read under it");
  }

  private List<String> problems() {
    return new ConfigKeyCheck(Repository.at(root)).problems();
  }

  private void write(String path, String text) throws IOException {
    Path file = root.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }
}
